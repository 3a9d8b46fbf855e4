// Delivery reads the version it approved, once: a release to six stores, approved and Live everywhere,
// asks catalog for the release once (the review's checks) and storage for the cover's facts once; each
// file is fetched for staging once, not once per store. An edit after Live is a new version: the stores
// get it, again with one catalog read and one storage read.
import { randomUUID } from 'node:crypto';
import { deliveryService } from '@omni/service-delivery';
import { storageService } from '@omni/service-storage';
import { CountingClients } from '../support/counting-clients';
import { approve, createRealRelease, deliveryClient, FAST_DELIVERY } from './delivery.fixtures';
import { type ReleasePlatform, startReleasePlatform, waitUntil } from './releases.fixtures';

const counted = new CountingClients();
let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
const artist = randomUUID();
const STORES = ['spotify', 'tidal', 'deezer', 'qobuz', 'soundcloud', 'napster'];

beforeAll(async () => {
  omni = await startReleasePlatform(undefined, FAST_DELIVERY, {
    storage: storageService,
    delivery: counted.module(deliveryService),
  });
  rpc = deliveryClient(omni);
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await omni?.close();
});

const everyStore = (releaseId: string, status: string, after = '') =>
  waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId });
      return jobs.length === STORES.length && jobs.every((j) => j.status === status && j.updatedAt > after)
        ? jobs
        : undefined;
    },
    60_000,
    `every store ${status}`,
  );

it('a release to six stores is read from catalog once and its cover measured once, however many stores', async () => {
  const token = await omni.token(artist);
  counted.reset();
  const release = await createRealRelease(omni, artist, token, STORES);
  await approve(rpc, release.id);
  await everyStore(release.id, 'live');
  expect(counted.calls['catalog.getRelease']).toBe(1);
  expect(counted.calls['storage.getObjectInfo']).toBe(1);
  // The master and the cover, each fetched into staging once.
  expect(counted.calls['storage.signDownload']).toBe(2);

  // An edit after Live: a new version, reviewed, then sent to every store, read once again.
  counted.reset();
  const t0 = new Date().toISOString();
  const res = await omni.api(`/api/releases/${release.id}`, {
    method: 'PATCH',
    token,
    json: { releaseTitle: 'Renamed After Live' },
  });
  expect(res.status).toBe(200);
  // Delivery takes the new version into review from the event, a moment after catalog's answer.
  await waitUntil(
    async () =>
      (await rpc.listJobs({ releaseId: release.id })).review?.status === 'in_review' ? true : undefined,
    15_000,
    'the edit in review',
  );
  await approve(rpc, release.id);
  const jobs = await everyStore(release.id, 'live', t0);
  expect(jobs).toHaveLength(6);
  expect(counted.calls['catalog.getRelease']).toBe(1);
  expect(counted.calls['storage.getObjectInfo']).toBe(1);
  expect(counted.calls['storage.signDownload'] ?? 0).toBe(0);
}, 120_000);
