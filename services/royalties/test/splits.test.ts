// Splits on the embedded document store, with a catalog that knows one release and a clock the test moves:
// who sees what (one payee never sees another's share or earnings), an invitation that lapses (the owner
// is told, the share stays held, the owner chooses), accepting from the link into an account with another
// address, and the allocator turning published ledger pages into payee sums once (a second pass and a
// restart write nothing more), every page's payee rows adding up to the page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type DocumentStore } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import type { LedgerLine } from '../src/domain/ledger-line';
import { ImportsRepository } from '../src/store/imports';
import { LedgerRepository } from '../src/store/ledger';
import { allocationRowsOf, PayeesRepository } from '../src/store/payees';
import { SplitsRepository } from '../src/store/splits';
import { PayeeAllocator } from '../src/use-cases/allocate-payees';
import {
  acceptInvitation,
  actOnInvitation,
  addExpense,
  type Caller,
  collaboratorCount,
  getSplits,
  invitationByToken,
  myEarnings,
  type SplitDeps,
  type SplitInvitationNotice,
  setSplits,
} from '../src/use-cases/splits';

const OWNER: Caller = { userId: 'u-owner', email: 'owner@example.test', isAdmin: false };
const ANA: Caller = { userId: 'u-ana', email: 'ana.other@example.test', isAdmin: false };
const BO: Caller = { userId: 'u-bo', email: 'bo@example.test', isAdmin: false };
const STRANGER: Caller = { userId: 'u-x', email: 'x@example.test', isAdmin: false };
const ADMIN: Caller = { userId: 'u-admin', email: 'admin@omni.local', isAdmin: true };

const RELEASE = {
  id: 'rel-1',
  ownerId: OWNER.userId,
  title: 'Split Road',
  tracks: [
    { id: 'trk-1', title: 'One' },
    { id: 'trk-2', title: 'Two' },
  ],
};

const catalog = {
  async getRelease(req: { releaseId: string }) {
    if (req.releaseId !== RELEASE.id) throw Object.assign(new Error('No such release.'), { code: 5 });
    return { release: RELEASE };
  },
} as unknown as SplitDeps['catalog'];

function line(n: number, trackId: string, amount: bigint, saleStart: string): LedgerLine {
  return {
    lineNo: n,
    saleStart,
    saleEnd: saleStart,
    reportedAt: saleStart,
    store: 'Spotify',
    serviceTier: '',
    territory: 'US',
    usageType: 'stream',
    isrc: 'QZAAA2600001',
    upc: '',
    proprietaryIds: [],
    title: 'One',
    artist: 'A',
    quantity: 10,
    amountTxn: amount,
    currencyTxn: 'USD',
    amountAcct: amount,
    fxRate: '1',
    fxDate: '',
    adjustmentType: '',
    ownerId: OWNER.userId,
    releaseId: RELEASE.id,
    trackId,
  };
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const nano = (usd: string) => {
  const [i, f = ''] = usd.replace('-', '').split('.');
  const v = BigInt(i!) * 1_000_000_000n + BigInt(f.padEnd(9, '0'));
  return usd.startsWith('-') ? -v : v;
};

describe('splits and collaborators', () => {
  let dir: string;
  let store: DocumentStore;
  let deps: SplitDeps;
  let now: Date;
  let sent: SplitInvitationNotice[];
  const lapsed = () => sent.filter((n) => n.kind === 'lapsed');
  let imports: ImportsRepository;
  let ledger: LedgerRepository;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'splits-'));
    store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    await store.ready();
    now = new Date('2026-07-10T12:00:00Z');
    sent = [];
    imports = new ImportsRepository(store);
    ledger = new LedgerRepository(store, (ids) => imports.publishedOf(ids));
    deps = {
      splits: new SplitsRepository(store),
      payees: new PayeesRepository(store),
      catalog,
      notices: {
        add: async (_scope, notice) => void sent.push(notice),
        flush: () => undefined,
      },
      publicUrl: 'http://omni.test',
      now: () => now,
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An import of `lines`, published whole, as the runner leaves it. */
  async function importLines(lines: LedgerLine[]) {
    const imp = await imports.open({
      source: 'omni',
      fileName: 'x.csv',
      via: 'upload',
      createdBy: ADMIN.userId,
    });
    await store.transaction((scope) => ledger.stage(scope, imp._id, 0, lines));
    await imports.set(imp._id, {
      state: 'done',
      checkpoint: { lineNo: lines.length, chunks: 1 },
      published: 1,
    });
    return imp._id;
  }

  const allocator = () =>
    new PayeeAllocator({
      documents: store,
      imports,
      ledger,
      splits: deps.splits,
      payees: deps.payees,
      logger: createLogger('splits-test'),
    });

  it('refuses shares that do not add up, with the sum in words', async () => {
    await expect(
      setSplits(deps, OWNER, RELEASE.id, {
        shares: [
          { email: OWNER.email, percent: '50' },
          { email: 'ana@example.test', percent: '45.5' },
        ],
      }),
    ).rejects.toThrow('Shares must add up to exactly 100%; these add up to 95.5%.');
    await expect(
      setSplits(deps, OWNER, RELEASE.id, {
        shares: [{ email: 'a@example.test', percent: 10 }],
        effectiveFrom: '2026-06',
      }),
    ).rejects.toThrow('Splits never change the past');
    await expect(setSplits(deps, STRANGER, RELEASE.id, { shares: [] })).rejects.toThrow('No such release.');
  });

  it('one payee never sees another’s share or earnings; a stranger sees no release', async () => {
    const set = await setSplits(deps, OWNER, RELEASE.id, {
      shares: [
        { email: 'ana@example.test', percent: '30' },
        { email: BO.email, percent: '20.5' },
      ],
    });
    expect(set.tables[0]!.shares.map((s) => [s.email, s.percent])).toEqual([
      [OWNER.email, '49.5'],
      ['ana@example.test', '30'],
      [BO.email, '20.5'],
    ]);
    expect(set.tables).toHaveLength(3); // the default and both tracks
    expect(set.links.map((l) => l.email)).toEqual(['ana@example.test', BO.email]);
    expect(await collaboratorCount(deps, OWNER.userId)).toBe(2);

    // Ana accepts from her link while signed in with another address.
    await acceptInvitation(deps, ANA, tokenOf(set.links[0]!.url));
    const anaView = await getSplits(deps, ANA, RELEASE.id);
    expect(anaView.role).toBe('collaborator');
    const seen = anaView.tables.flatMap((t) => t.shares.map((s) => s.email));
    expect(new Set(seen)).toEqual(new Set(['ana@example.test']));
    expect(anaView.invitations.map((i) => i.email)).toEqual(['ana@example.test']);
    expect(JSON.stringify(anaView)).not.toContain(BO.email);
    expect(JSON.stringify(anaView)).not.toContain('49.5');

    // Bo has not accepted: signed in with the invited address, he sees his pending share only.
    const boView = await getSplits(deps, BO, RELEASE.id);
    expect(boView.tables[0]!.shares).toEqual([
      expect.objectContaining({ email: BO.email, percent: '20.5', status: 'pending' }),
    ]);
    await expect(getSplits(deps, STRANGER, RELEASE.id)).rejects.toThrow('No such release.');
    expect((await getSplits(deps, ADMIN, RELEASE.id)).role).toBe('admin');

    // Money: $10 on track one in July.
    await importLines([line(1, 'trk-1', 10_000_000_000n, '2026-07-01')]);
    expect(await allocator().pass()).toBe(1);
    const ana = await myEarnings(deps, ANA);
    const bo = await myEarnings(deps, BO);
    const owner = await myEarnings(deps, OWNER);
    expect([ana.balance, bo.balance, bo.heldTotal, owner.balance]).toEqual(['3.00', '0.00', '2.05', '4.95']);
    expect(JSON.stringify(ana)).not.toContain('2.05');
    expect(JSON.stringify(ana)).not.toContain('4.95');
    expect(await myEarnings(deps, STRANGER)).toEqual(
      expect.objectContaining({ balance: '0.00', heldTotal: '0.00', held: [], statements: [] }),
    );
  });

  it('an invitation that lapses is held, flagged to the owner once, and resent at the owner’s choice', async () => {
    const set = await setSplits(deps, OWNER, RELEASE.id, {
      shares: [{ email: 'ana@example.test', percent: '40' }],
    });
    const firstToken = tokenOf(set.links[0]!.url);
    expect((await invitationByToken(deps, firstToken)).status).toBe('pending');
    // The invitee's mail is an event written with the invitation: the link, the share on every table.
    expect(sent).toEqual([
      expect.objectContaining({
        kind: 'invited',
        email: 'ana@example.test',
        ownerId: OWNER.userId,
        ownerEmail: OWNER.email,
        releaseTitle: 'Split Road',
        link: set.links[0]!.url,
        held: '0',
        shares: [
          { target: null, title: 'Split Road (release default)', percent: '40' },
          { target: 'trk-1', title: 'One', percent: '40' },
          { target: 'trk-2', title: 'Two', percent: '40' },
        ],
      }),
    ]);

    now = new Date('2026-08-10T12:00:01Z'); // 31 days later
    const view = await getSplits(deps, OWNER, RELEASE.id);
    expect(view.invitations[0]!.status).toBe('lapsed');
    expect(view.notices).toEqual([
      expect.objectContaining({ email: 'ana@example.test', choices: ['resend', 'reassign', 'take_back'] }),
    ]);
    expect(view.notices[0]!.message).toContain('lapsed on 2026-08-09');
    // Still the invitee's share, not silently the owner's.
    expect(view.tables[0]!.shares.map((s) => [s.email, s.percent, s.status])).toEqual([
      [OWNER.email, '60', 'owner'],
      ['ana@example.test', '40', 'lapsed'],
    ]);
    await getSplits(deps, OWNER, RELEASE.id);
    expect(lapsed()).toHaveLength(1); // told once
    // The owner's lapse mail carries no link (the owner chooses on the release page).
    expect(lapsed()[0]).toEqual(
      expect.objectContaining({ kind: 'lapsed', email: 'ana@example.test', ownerId: OWNER.userId }),
    );
    expect(lapsed()[0]!.link).toBeUndefined();
    await expect(acceptInvitation(deps, ANA, firstToken)).rejects.toThrow(
      'This invitation lapsed on 2026-08-09',
    );

    // August money while lapsed: held for Ana.
    await importLines([line(1, 'trk-2', 1_000_000_001n, '2026-08-01')]);
    await allocator().pass();
    const owner = await getSplits(deps, OWNER, RELEASE.id);
    expect(owner.invitations[0]!.held).toBe('0.40');
    expect((await myEarnings(deps, OWNER)).balance).toBe('0.600000001');

    // The owner sends it again: a new link, the old one dead; Ana accepts and the held money is hers.
    const again = await actOnInvitation(deps, OWNER, RELEASE.id, owner.invitations[0]!.id, {
      action: 'resend',
    });
    await expect(invitationByToken(deps, firstToken)).rejects.toThrow('not valid any more');
    expect(sent.at(-1)).toEqual(
      expect.objectContaining({ kind: 'resent', link: again.links[0]!.url, held: '0.40' }),
    );
    await acceptInvitation(deps, ANA, tokenOf(again.links[0]!.url));
    expect(await myEarnings(deps, ANA)).toEqual(
      expect.objectContaining({ balance: '0.40', heldTotal: '0.00' }),
    );
    expect((await getSplits(deps, OWNER, RELEASE.id)).notices).toEqual([]);
  });

  it('the owner may take a lapsed share back; the held money becomes theirs by that choice only', async () => {
    const set = await setSplits(deps, OWNER, RELEASE.id, {
      shares: [{ email: 'ana@example.test', percent: '25' }],
    });
    await importLines([line(1, 'trk-1', 4_000_000_000n, '2026-07-02')]);
    await allocator().pass();
    now = new Date('2026-09-01T00:00:00Z');
    const view = await getSplits(deps, OWNER, RELEASE.id);
    expect((await myEarnings(deps, OWNER)).balance).toBe('3.00');
    await actOnInvitation(deps, OWNER, RELEASE.id, view.invitations[0]!.id, { action: 'take_back' });
    expect((await myEarnings(deps, OWNER)).balance).toBe('4.00');
    await expect(acceptInvitation(deps, ANA, tokenOf(set.links[0]!.url))).rejects.toThrow(
      'not valid any more',
    );
  });

  it('recoups an expense from gross before the split; every payee sees the recoup ledger', async () => {
    const set = await setSplits(deps, OWNER, RELEASE.id, {
      shares: [{ email: 'ana@example.test', percent: '50' }],
    });
    await acceptInvitation(deps, ANA, tokenOf(set.links[0]!.url));
    await expect(
      addExpense(deps, OWNER, RELEASE.id, { kind: 'expense', email: 'nobody@example.test', amount: '5' }),
    ).rejects.toThrow('has no share of this release');
    await addExpense(deps, OWNER, RELEASE.id, {
      kind: 'expense',
      email: OWNER.email,
      amount: '3.00',
      note: 'mixing',
    });
    await importLines([
      line(1, 'trk-1', 2_000_000_000n, '2026-07-03'),
      line(2, 'trk-2', 5_000_000_000n, '2026-07-04'),
    ]);
    await allocator().pass();
    // $7 gross: $3 repays the owner's mixing, $4 is split 50/50.
    expect((await myEarnings(deps, OWNER)).balance).toBe('5.00');
    expect((await myEarnings(deps, ANA)).balance).toBe('2.00');
    const anaView = await getSplits(deps, ANA, RELEASE.id);
    expect(anaView.recoup.expenses).toEqual([
      expect.objectContaining({ amount: '3.00', recouped: '3.00', outstanding: '0.00', note: 'mixing' }),
    ]);
    expect(anaView.recoup.entries.reduce((t, e) => t + nano(e.amount), 0n)).toBe(3_000_000_000n);
  });

  it('allocates each published page once: a second pass and a new allocator write nothing, rows add up', async () => {
    await setSplits(deps, OWNER, RELEASE.id, { shares: [{ email: 'ana@example.test', percent: '33.3333' }] });
    const lines = Array.from({ length: 500 }, (_, i) =>
      line(i + 1, i % 2 ? 'trk-1' : 'trk-2', BigInt(1 + ((i * 7919) % 9_999_991)), '2026-07-01'),
    );
    await importLines(lines);
    expect(await allocator().pass()).toBe(1);
    expect(await allocator().pass()).toBe(0);
    const [alloc] = await deps.payees.allocations.find({});
    const rowsTotal = allocationRowsOf(alloc!).reduce((t, r) => t + BigInt(r[5]), 0n);
    const linesTotal = lines.reduce((t, l) => t + l.amountAcct, 0n);
    expect(rowsTotal).toBe(linesTotal);
    expect(BigInt(alloc!.total)).toBe(linesTotal);
    const months = await deps.payees.months.find({});
    expect(months.reduce((t, m) => t + BigInt(m.split) + BigInt(m.recoup), 0n)).toBe(linesTotal);
  });

  it('a change applies from its month on and never to sales before it', async () => {
    await setSplits(deps, OWNER, RELEASE.id, { shares: [{ email: 'ana@example.test', percent: '10' }] });
    await setSplits(deps, OWNER, RELEASE.id, {
      shares: [{ email: 'ana@example.test', percent: '50' }],
      effectiveFrom: '2026-09',
      tracks: ['trk-1'],
    });
    const view = await getSplits(deps, OWNER, RELEASE.id);
    expect(view.tables.find((t) => t.target === 'trk-1')!.upcoming[0]).toEqual(
      expect.objectContaining({ effectiveFrom: '2026-09' }),
    );
    expect(view.history).toHaveLength(4);
    await importLines([
      line(1, 'trk-1', 1_000_000_000n, '2026-08-15'),
      line(2, 'trk-1', 1_000_000_000n, '2026-09-15'),
    ]);
    await allocator().pass();
    const ana = (await getSplits(deps, OWNER, RELEASE.id)).invitations[0]!;
    expect(ana.held).toBe('0.60'); // 10% of August's $1 + 50% of September's $1
  });
});
