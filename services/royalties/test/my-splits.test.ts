// GET /api/me/splits' use-case on the embedded document store, with a catalog that knows two releases of
// one owner and a clock the test moves: the owner sees each release's split state (no splits, shares,
// pending and lapsed invitations with the owner's choices), a collaborator sees only the shares offered
// to them, a stranger nothing of either, and the owner's choice on a lapsed invitation shows on the next read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { mySplits as mySplitsContract } from '@omni/proto/api';
import { PayeesRepository } from '../src/store/payees';
import { SplitsRepository } from '../src/store/splits';
import { type MySplitsDeps, mySplits } from '../src/use-cases/my-splits';
import { acceptInvitation, actOnInvitation, type Caller, setSplits } from '../src/use-cases/splits';

const OWNER: Caller = { userId: 'u-owner', email: 'owner@example.test', isAdmin: false };
const ANA: Caller = { userId: 'u-ana', email: 'ana@example.test', isAdmin: false };
const BO: Caller = { userId: 'u-bo', email: 'bo.other@example.test', isAdmin: false };
const STRANGER: Caller = { userId: 'u-x', email: 'x@example.test', isAdmin: false };

const RELEASES = [
  { id: 'rel-1', ownerId: OWNER.userId, title: 'Split Road', tracks: [{ id: 'trk-1', title: 'One' }] },
  { id: 'rel-2', ownerId: OWNER.userId, title: 'Alone', tracks: [] },
];

const catalog = {
  async getRelease(req: { releaseId: string }) {
    const release = RELEASES.find((r) => r.id === req.releaseId);
    if (!release) throw Object.assign(new Error('No such release.'), { code: 5 });
    return { release };
  },
  async listReleases(req: { ownerId: string }) {
    const releases = RELEASES.filter((r) => r.ownerId === req.ownerId);
    return { releases, total: releases.length };
  },
};

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('GET /api/me/splits (use-case)', () => {
  let dir: string;
  let store: DocumentStore;
  let deps: MySplitsDeps;
  let now: Date;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'my-splits-'));
    store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    await store.ready();
    now = new Date('2026-07-10T12:00:00Z');
    deps = {
      splits: new SplitsRepository(store),
      payees: new PayeesRepository(store),
      catalog: catalog as unknown as MySplitsDeps['catalog'],
      releases: catalog as unknown as MySplitsDeps['releases'],
      notices: { add: async () => undefined, flush: () => undefined },
      publicUrl: 'http://omni.test',
      now: () => now,
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the owner sees each release’s state; collaborators only theirs; a stranger nothing', async () => {
    // Ana is invited on 10 July and lets it lapse; Bo is invited on 1 August and accepts.
    await setSplits(deps, OWNER, 'rel-1', { shares: [{ email: ANA.email, percent: '40' }] });
    now = new Date('2026-08-01T12:00:00Z');
    const set = await setSplits(deps, OWNER, 'rel-1', {
      shares: [
        { email: ANA.email, percent: '40' },
        { email: 'bo@example.test', percent: '10' },
      ],
    });
    now = new Date('2026-08-10T12:00:01Z');
    const owner = mySplitsContract.parse(await mySplits(deps, OWNER));
    expect(owner.owned.map((r) => r.title)).toEqual(['Split Road', 'Alone']);
    const [road, alone] = owner.owned;
    expect(alone).toEqual({ releaseId: 'rel-2', title: 'Alone', shares: [], pending: [], lapsed: [] });
    expect(road!.shares.map((s) => [s.email, s.percent, s.status])).toEqual([
      [OWNER.email, '50', 'owner'],
      [ANA.email, '40', 'lapsed'],
      ['bo@example.test', '10', 'pending'],
    ]);
    expect(road!.pending.map((p) => p.email)).toEqual(['bo@example.test']);
    expect(road!.lapsed).toEqual([
      expect.objectContaining({ email: ANA.email, choices: ['resend', 'reassign', 'take_back'] }),
    ]);
    expect(owner.invited).toEqual([]);

    // Ana (lapsed, at her address) sees her share; Bo accepts into an account with another address.
    const ana = await mySplits(deps, ANA);
    expect(ana.owned).toEqual([]);
    expect(ana.invited.map((i) => [i.releaseTitle, i.status, i.percent])).toEqual([
      ['Split Road', 'lapsed', '40'],
    ]);
    const boLink = set.links.find((l) => l.email === 'bo@example.test')!.url;
    await acceptInvitation(deps, BO, tokenOf(boLink));
    const bo = await mySplits(deps, BO);
    expect(bo.invited.map((i) => [i.releaseTitle, i.status, i.percent])).toEqual([
      ['Split Road', 'accepted', '10'],
    ]);
    expect(JSON.stringify(bo)).not.toContain(ANA.email);

    expect(await mySplits(deps, STRANGER)).toEqual({ month: '2026-08', owned: [], invited: [] });
  });

  it('the owner’s choice on a lapsed invitation shows on the next read', async () => {
    await setSplits(deps, OWNER, 'rel-1', { shares: [{ email: ANA.email, percent: '40' }] });
    now = new Date('2026-08-10T12:00:01Z');
    const [road] = (await mySplits(deps, OWNER)).owned;
    const lapsed = road!.lapsed[0]!;
    await actOnInvitation(deps, OWNER, 'rel-1', lapsed.invitationId, { action: 'resend' });
    const again = (await mySplits(deps, OWNER)).owned[0]!;
    expect(again.lapsed).toEqual([]);
    expect(again.pending.map((p) => p.email)).toEqual([ANA.email]);
  });
});
