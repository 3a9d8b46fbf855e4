// The delivery pipeline through a started platform: a real release (real WAV and PNG uploads) approved
// for four stores is packaged (ERN 4.3, XSD-valid), sent as batches with BatchComplete last, acknowledged
// by each store and goes live; a store that rejects ends rejected with its words; a store that fails
// twice ends acknowledged after two retries; a takedown of two stores ends taken_down for those.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGrpcClient, type PromiseClient } from '@omni/platform';
import { delivery } from '@omni/proto';
import { createErnValidator, type ErnValidator } from '../../services/delivery/src/domain/ddex';
import { approveHeld, createRealRelease, StandInStore, startDeliveryPlatform } from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
let rpc: PromiseClient<typeof delivery.DeliveryServiceService>;
let validator: ErnValidator;
let stores: StandInStore;
const artist = randomUUID();
let token: string;

beforeAll(async () => {
  omni = await startDeliveryPlatform();
  token = await omni.token(artist);
  rpc = createGrpcClient(delivery.DeliveryServiceService, omni.config.grpcAddress('delivery'));
  validator = createErnValidator();
  stores = new StandInStore(join(omni.dataDir, 'delivery', 'stores'));
  stores.start();
}, 60_000);
afterAll(async () => {
  stores?.stop();
  rpc?.close();
  await validator?.close();
  await omni?.close();
});

type Jobs = Awaited<ReturnType<typeof rpc.listJobs>>['jobs'];

function settled(releaseId: string, done: (jobs: Jobs) => boolean, what: string) {
  return waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId });
      return jobs.length > 0 && done(jobs) ? jobs : undefined;
    },
    30_000,
    what,
  );
}

const batchesOf = (store: string) => {
  const dir = join(omni.dataDir, 'delivery', 'stores', store);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('N_')) : [];
};

it('delivers an approved release to every store once: valid ERN, BatchComplete, acknowledged, live', async () => {
  const targets = ['spotify', 'apple_music', 'tidal', 'deezer'];
  const release = await createRealRelease(omni, artist, token, targets, { releaseDate: '2026-01-02' });
  await approveHeld(omni, release.id, targets.length);

  const jobs = await settled(release.id, (js) => js.every((j) => j.status === 'live'), 'every store live');
  expect(jobs.map((j) => j.target).sort()).toEqual([...targets].sort());
  for (const job of jobs) {
    expect(job.steps.map((s) => s.status)).toEqual(['queued', 'packaging', 'sent', 'acknowledged', 'live']);
    expect(job.attempts).toBe(1);
    const { xml, fileName } = await rpc.getErn({ releaseId: release.id, target: job.target });
    expect(fileName).toBe(`${release.upc}.xml`);
    expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(`<ICPN>${release.upc}</ICPN>`);
    // One batch per store, complete (BatchComplete in it), and the store acknowledged exactly that one.
    const batches = batchesOf(job.target);
    expect(batches).toEqual([`N_${job.batchId}`]);
    const folder = join(omni.dataDir, 'delivery', 'stores', job.target, batches[0]!);
    expect(readdirSync(folder).sort()).toEqual([`BatchComplete_${job.batchId}.xml`, release.upc].sort());
    expect(readdirSync(join(folder, release.upc, 'resources'))).toHaveLength(2);
    expect(stores.ingested.get(job.target)).toEqual([job.batchId]);
  }
  const { summary } = await rpc.listJobs({ releaseId: release.id });
  expect(summary?.releaseStatus).toBe('live');
});

it('ends a store that rejects as rejected with its reason, and retries a store that fails twice', async () => {
  const reason = 'Cover art contains a URL.';
  stores.configure('napster', 'reject', 1, reason);
  stores.configure('qobuz', 'fail', 2, 'Temporary ingestion outage.');
  const release = await createRealRelease(omni, artist, token, ['napster', 'qobuz']);
  await approveHeld(omni, release.id, 2);

  const jobs = await settled(
    release.id,
    (js) => js.every((j) => ['rejected', 'live'].includes(j.status)),
    'napster rejected and qobuz live',
  );
  const napster = jobs.find((j) => j.target === 'napster');
  const qobuz = jobs.find((j) => j.target === 'qobuz');
  expect(napster).toMatchObject({ status: 'rejected', reason, deadLettered: false });
  expect(qobuz!.status).toBe('live');
  expect(qobuz!.steps.filter((s) => s.status === 'failed')).toHaveLength(2);
  expect(qobuz!.attempts).toBe(3);
  // Each retry is a new batch: three for qobuz, all complete.
  expect(batchesOf('qobuz')).toHaveLength(3);
});

it('takes a release down from two of its stores', async () => {
  const targets = ['spotify', 'tidal', 'deezer'];
  const release = await createRealRelease(omni, artist, token, targets);
  await approveHeld(omni, release.id, targets.length);
  await settled(release.id, (js) => js.every((j) => j.status === 'live'), 'every store live');

  const { jobs: changed } = await rpc.takeDown({
    releaseId: release.id,
    stores: ['spotify', 'deezer'],
    callerId: artist,
  });
  expect(changed.map((j) => [j.target, j.jobKind]).sort()).toEqual([
    ['deezer', 'takedown'],
    ['spotify', 'takedown'],
  ]);
  const jobs = await settled(
    release.id,
    (js) => js.filter((j) => j.status === 'taken_down').length === 2,
    'two stores taken down',
  );
  expect(Object.fromEntries(jobs.map((j) => [j.target, j.status]))).toEqual({
    spotify: 'taken_down',
    tidal: 'live',
    deezer: 'taken_down',
  });
  // The takedown is a NewReleaseMessage with no deals.
  const { xml } = await rpc.getErn({ releaseId: release.id, target: 'spotify' });
  expect(xml).not.toContain('<DealList>');
  // Asking again for a store already taken down has nothing to do.
  await expect(
    rpc.takeDown({ releaseId: release.id, stores: ['spotify'], callerId: artist }),
  ).rejects.toMatchObject({
    code: 9,
  });
  await expect(
    rpc.takeDown({ releaseId: release.id, stores: ['beatport'], callerId: artist }),
  ).rejects.toMatchObject({
    code: 5,
  });
});
