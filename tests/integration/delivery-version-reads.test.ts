// Delivery reads the version it approved, once: a release to six stores, approved and Live everywhere,
// asks catalog for the release once (the review's checks) and storage for the cover's facts once; each
// file is fetched for staging once, not once per store. An edit after Live is a new version: the stores
// get it, again with one catalog read and one storage read. The version keeps each file's SHA-256 and size
// as the review fetched them; a file whose bytes are not those is never sent.
import { randomUUID } from 'node:crypto';
import type { Doc } from '@omni/platform';
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

interface VersionFacts {
  files?: { audio: Record<string, { sha256: string; size: number }>; cover: { sha256: string } | null };
}
const versionsOf = async (releaseId: string) =>
  (await omni.ports.documents('delivery'))
    .collection<Doc & { releaseId: string } & VersionFacts>('delivery_release_versions')
    .find({ releaseId });

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
  // The master and the cover, each fetched into staging once (by the review, which keeps their hashes).
  expect(counted.calls['storage.signDownload']).toBe(2);
  // The version keeps each file's hash and size as review fetched them, and every store's message names
  // exactly those bytes.
  const [version] = await versionsOf(release.id);
  // The release's one track.
  const master = Object.values(version?.files?.audio ?? {})[0];
  expect(master?.sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(master?.size).toBeGreaterThan(0);
  expect(version?.files?.cover?.sha256).toMatch(/^[0-9a-f]{64}$/);
  for (const target of STORES) {
    const { xml } = await rpc.getErn({ releaseId: release.id, target });
    expect(xml).toContain(`<HashSumValue>${master!.sha256}</HashSumValue>`);
    expect(xml).toContain(`<HashSumValue>${version!.files!.cover!.sha256}</HashSumValue>`);
  }

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

it('a store never gets a file whose bytes are not the ones the review fetched', async () => {
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify']);
  await waitUntil(
    async () =>
      (await rpc.listJobs({ releaseId: release.id })).review?.status === 'in_review' ? true : undefined,
    15_000,
    'the release in review',
  );
  // As if the master had changed after review: the version's hash is not the file's any more.
  const [version] = await versionsOf(release.id);
  const [trackId] = Object.keys(version?.files?.audio ?? {});
  await (await omni.ports.documents('delivery'))
    .collection<Doc>('delivery_release_versions')
    .updateOne({ _id: version!._id }, { $set: { [`files.audio.${trackId}.sha256`]: '0'.repeat(64) } });
  await approve(rpc, release.id);
  const [job] = await waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId: release.id });
      return jobs[0]?.deadLettered ? jobs : undefined;
    },
    30_000,
    'the job refused',
  );
  expect(job?.reason).toContain('is not the file the review approved');
  expect(job?.messageId).toBe('');
}, 60_000);
