// Omni killed with kill -9 in the middle of a delivery, then started again on the same data folder, both
// through scripts/start.mjs as an operator runs it. The kill comes once some stores have acknowledged and
// others have not; after the restart every store ends acknowledged exactly once: one batch per store, each
// with its BatchComplete, ingested once by the store (the simulator's record of ingested batches,
// <data>/delivery/stores/<store>/.simulator/ingested.jsonl) and answered with one acknowledgement.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiSession, verifiedSession } from '../support/session';
import { call, createRelease, deliveries, login, preselectedStores } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { newEmail } from './support/people';

const JOURNEY = 'crash';
let omni: Omni;

beforeAll(async () => {
  omni = await startOmni({
    name: JOURNEY,
    env: {
      // An operator's settings that stretch the delivery so the kill lands in its middle: a store that
      // takes 3 s to answer, two jobs packaged at a time. A dead process's claims lapse after 10 s.
      STORE_SIMULATOR_DELAY_MS: '3000',
      DELIVERY_CONCURRENCY: '2',
      DELIVERY_LEASE_MS: '10000',
    },
  });
}, 420_000);

afterAll(async () => {
  await omni?.stop();
}, 120_000);

const storeDir = (store: string) => join(omni.serviceDataDir('delivery'), 'delivery', 'stores', store);

interface Ingested {
  folder: string;
  batchId: string;
  outcome: string;
}

/** The batches the store simulator recorded as ingested for `store`, one line each (a torn last line skipped). */
function ingested(store: string): Ingested[] {
  const file = join(storeDir(store), '.simulator', 'ingested.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Ingested];
      } catch {
        return [];
      }
    });
}

const batchFolders = (store: string) =>
  existsSync(storeDir(store)) ? readdirSync(storeDir(store)).filter((f) => /^N_\d{17}$/.test(f)) : [];

function acknowledgements(store: string): string[] {
  const dir = join(storeDir(store), 'acknowledgements');
  const names = (folder: string) =>
    existsSync(folder) ? readdirSync(folder).filter((f) => f.startsWith('ACK_')) : [];
  return [...names(dir), ...names(join(dir, 'processed'))];
}

it('kill -9 mid-delivery, start again on the same data: every store acknowledged exactly once', async () => {
  const started = Date.now();
  try {
    const artist: ApiSession = await verifiedSession(omni.url, newEmail('crash-artist'));
    const admin = await login(omni.url, omni.admin.email, omni.admin.password);
    const stores = await preselectedStores(omni.url);
    expect(stores).toHaveLength(20);
    // A 30 s stereo master (~5 MB): packaging it for each store takes a moment.
    const release = await createRelease(omni.url, artist, { title: 'Hard Stop', stores, seconds: 30 });
    // The review exists once delivery has taken in the release (an event): approve as soon as it is there.
    await eventually(
      async () => {
        const res = await call(omni.url, `/api/admin/releases/${release.id}/approve`, admin.accessToken, {
          method: 'POST',
        });
        return res.status === 200 ? true : undefined;
      },
      'the release to reach the review queue and be approved',
      60_000,
    );

    // Kill once some stores have ingested their batch and others have not.
    const done = () => stores.filter((s) => ingested(s).length > 0).length;
    const atKill = await eventually(
      () => {
        const n = done();
        if (n === stores.length) throw new Error('every store answered before the kill');
        return n > 0 ? n : undefined;
      },
      'the first store to acknowledge',
      180_000,
      20,
    );
    await omni.kill9();
    const sentAtKill = stores.filter((s) => batchFolders(s).length > 0).length;
    expect(atKill).toBeGreaterThan(0);
    expect(done()).toBeLessThan(stores.length);

    // Started again on the same data: delivery resumes by itself.
    await omni.restart();
    const finished = await eventually(
      async () => {
        const now = await deliveries(omni.url, artist.accessToken, release.id);
        const settled =
          now.jobs.length === stores.length &&
          now.jobs.every((j) => j.status === 'live' || j.status === 'acknowledged');
        return settled ? now : undefined;
      },
      () => `every store acknowledged after the restart`,
      300_000,
      500,
    );
    expect(finished.jobs.map((j) => j.target).sort()).toEqual([...stores].sort());

    for (const store of stores) {
      const folders = batchFolders(store);
      const batches = ingested(store);
      const summary = { store, folders, batches, acks: acknowledgements(store) };
      // One batch, complete, ingested once, answered once.
      expect(summary).toEqual({
        store,
        folders: [expect.stringMatching(/^N_\d{17}$/)],
        batches: [expect.objectContaining({ folder: folders[0], outcome: 'FileOK' })],
        acks: [expect.stringMatching(new RegExp(`^ACK_${folders[0]?.slice(2)}_`))],
      });
      const batchId = folders[0]?.slice(2);
      expect(readdirSync(join(storeDir(store), folders[0] as string))).toContain(
        `BatchComplete_${batchId}.xml`,
      );
    }
    process.stdout.write(
      `crash journey: killed with ${atKill} of ${stores.length} stores acknowledged (${sentAtKill} sent); ${Math.round((Date.now() - started) / 1000)} s\n`,
    );
  } catch (err) {
    omni.explain(err);
  }
}, 900_000);
