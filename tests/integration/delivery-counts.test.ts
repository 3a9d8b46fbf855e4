// The release's job counts (services/delivery/src/store/release-counts.ts) through a started platform: a
// release to six stores lives through a store's rejection, another's two failures, a takedown of two
// stores, the artist's resubmission and second approval, a purge, and a release that predates the counts
// (its counts document removed, as for data written before them). At every settled point the counts
// equal a recount of the release's jobs, and the status the last delivery.updated carried equals the one
// rolled up from that recount. Delivery opens its documents through a counting decorator, so the suite
// also checks what each job transition reads: two job documents (the job before and after), not every
// job of the release.
import { randomUUID } from 'node:crypto';
import { createGrpcClient, type Doc } from '@omni/platform';
import { catalog } from '@omni/proto';
import { deliveryService } from '@omni/service-delivery';
import { storageService } from '@omni/service-storage';
import type { JobDoc } from '../../services/delivery/src/domain/job';
import { countJobs } from '../../services/delivery/src/domain/release-status';
import { CountingDocuments, jobTransitions, readsSummary } from '../support/counting-documents';
import { approve, createRealRelease, deliveryClient, FAST_DELIVERY } from './delivery.fixtures';
import { type ReleasePlatform, startReleasePlatform, waitUntil } from './releases.fixtures';

const counted = new CountingDocuments();
let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
const artist = randomUUID();

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

type Jobs = Awaited<ReturnType<typeof rpc.listJobs>>['jobs'];
const statusOf = (jobs: Jobs) => Object.fromEntries(jobs.map((j) => [j.target, j.status]));

function settled(releaseId: string, want: Record<string, string>, what: string) {
  return waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId });
      const now = statusOf(jobs);
      return Object.entries(want).every(([target, status]) => now[target] === status) ? jobs : undefined;
    },
    30_000,
    what,
  );
}

const nonZero = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));

/** The counts document equals a recount of the jobs, and the last event's status the recount's roll-up. */
async function expectCountsExact(releaseId: string) {
  const store = counted.store!;
  const jobs = await store.collection<JobDoc>('delivery_jobs').find({ releaseId });
  const doc = await store
    .collection<Doc & { jobs: Record<string, number> }>('delivery_release_counts')
    .findById(releaseId);
  expect(doc).not.toBeNull();
  expect(nonZero(doc!.jobs)).toEqual(countJobs(jobs));
  const announced = counted.transactions
    .flatMap((t) => t.events)
    .filter((e) => e.type === 'delivery.updated' && e.data.releaseId === releaseId)
    .at(-1);
  const { summary } = await rpc.listJobs({ releaseId });
  expect(announced?.data.releaseStatus).toBe(summary?.releaseStatus);
}

it('keeps a release’s job counts equal to its jobs through rejection, failures, takedown, resubmission and purge; a transition reads two jobs', async () => {
  const token = await omni.token(artist);
  const targets = ['spotify', 'tidal', 'deezer', 'napster', 'qobuz', 'soundcloud'];
  await rpc.configureSimulator({ target: 'napster', mode: 'reject', times: 1, reason: 'Logo on the cover.' });
  await rpc.configureSimulator({ target: 'qobuz', mode: 'fail', times: 2, reason: 'Temporary outage.' });
  counted.reset();
  const release = await createRealRelease(omni, artist, token, targets, { releaseDate: '2026-01-02' });
  await approve(rpc, release.id);
  const live = { spotify: 'live', tidal: 'live', deezer: 'live', qobuz: 'live', soundcloud: 'live' };
  await settled(release.id, { ...live, napster: 'rejected' }, 'napster rejected, the rest live');
  await expectCountsExact(release.id);

  await rpc.takeDown({ releaseId: release.id, stores: ['spotify', 'deezer'], callerId: artist });
  const down = { spotify: 'taken_down', deezer: 'taken_down' };
  await settled(release.id, { ...down, napster: 'rejected' }, 'spotify and deezer taken down');
  await expectCountsExact(release.id);

  // The artist fixes what napster refused: the resubmission holds every ingest job again (holdAll).
  const catalogRpc = createGrpcClient(catalog.CatalogServiceService, omni.config.grpcAddress('catalog'));
  try {
    await waitUntil(
      () =>
        catalogRpc
          .resubmitRelease(
            catalog.ResubmitReleaseRequest.fromPartial({
              releaseId: release.id,
              ownerId: artist,
              artistName: 'Nova Reyes',
              releaseTitle: 'Night Drive (Fixed)',
              trackTitle: 'Night Drive (Fixed)',
              releaseType: 'single',
              genre: 'Hip-Hop/Rap',
              label: 'Moonlit Records',
              releaseDate: '2026-01-02',
              explicit: true,
            }),
          )
          .catch(() => undefined),
      10_000,
      'the resubmission to be accepted',
    );
  } finally {
    catalogRpc.close();
  }
  await waitUntil(
    async () =>
      (await rpc.listJobs({ releaseId: release.id })).review?.status === 'in_review' ? true : undefined,
    10_000,
    'the release back in review',
  );
  const held = await counted.store!.collection<JobDoc>('delivery_jobs').find({ releaseId: release.id });
  expect(held.filter((j) => j.held).map((j) => j.target)).toHaveLength(4);
  await expectCountsExact(release.id);

  await rpc.approveRelease({ releaseId: release.id, adminId: 'test-admin' });
  await waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId: release.id });
      // Each store still delivering went live a second time (the corrected release).
      const again = jobs.filter((j) => j.steps.filter((s) => s.status === 'live').length === 2);
      return jobs.every((j) => ['live', 'taken_down'].includes(j.status)) && again.length === 3
        ? true
        : undefined;
    },
    30_000,
    'every store still delivering live with the fix',
  );
  await expectCountsExact(release.id);

  await rpc.purgeRelease({ releaseId: release.id, stores: ['deezer'], adminId: 'test-admin' });
  await settled(release.id, { deezer: 'purged' }, 'deezer purged');
  await expectCountsExact(release.id);

  // No job transition read more than the job itself, before and after its change.
  const reads = readsSummary(jobTransitions(counted), 'delivery_jobs');
  expect(reads.transitions).toBeGreaterThan(30);
  expect(reads.max).toBeLessThanOrEqual(2);
});

it('builds the counts of a release that predates them from its jobs, once, in its first change', async () => {
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify', 'tidal', 'deezer']);
  await approve(rpc, release.id);
  await settled(release.id, { spotify: 'live', tidal: 'live', deezer: 'live' }, 'every store live');
  // As for a release delivered before the counts existed.
  await counted.store!.collection('delivery_release_counts').deleteOne({ _id: release.id });
  counted.reset();

  await rpc.takeDown({ releaseId: release.id, stores: ['tidal'], callerId: artist });
  await settled(release.id, { tidal: 'taken_down' }, 'tidal taken down');
  await expectCountsExact(release.id);
  // The first transition read the release's three jobs to build them; none after it did.
  const [first, ...rest] = jobTransitions(counted).map((t) => t.reads.delivery_jobs ?? 0);
  expect(first).toBe(3 + 2);
  expect(rest.length).toBeGreaterThan(0);
  expect(Math.max(...rest)).toBeLessThanOrEqual(2);
});

it('says the same of a release that predates the review on its page as in its events', async () => {
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify', 'tidal']);
  await approve(rpc, release.id);
  await settled(release.id, { spotify: 'live', tidal: 'live' }, 'every store live');
  // As for a release whose jobs were released before delivery reviewed anything.
  await counted.store!.collection('delivery_reviews').deleteOne({ _id: release.id });
  counted.reset();

  await rpc.takeDown({ releaseId: release.id, stores: ['tidal'], callerId: artist });
  await settled(release.id, { tidal: 'taken_down' }, 'tidal taken down');
  await expectCountsExact(release.id);
  const { summary } = await rpc.listJobs({ releaseId: release.id });
  expect(summary?.releaseStatus).toBe('live');
  // The dashboard's summaries come from the counts document, not from reading every job again.
  counted.reset();
  const { summaries } = await rpc.summarizeReleases({ releaseIds: [release.id] });
  expect(counted.outside.delivery_jobs ?? 0).toBe(0);
  expect(summaries).toEqual([summary]);
});

it('counts stores added and dropped by a resubmission after the review rejected the release', async () => {
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify', 'tidal', 'deezer']);
  await waitUntil(
    async () =>
      (await rpc.listJobs({ releaseId: release.id })).review?.status === 'in_review' ? true : undefined,
    15_000,
    'the release in review',
  );
  await rpc.rejectRelease({ releaseId: release.id, adminId: 'test-admin', reason: 'The cover is blurry.' });
  await expectCountsExact(release.id);

  // Tidal and deezer never left (held, queued): dropping them deletes their jobs; anghami gets a new one.
  const catalogRpc = createGrpcClient(catalog.CatalogServiceService, omni.config.grpcAddress('catalog'));
  try {
    await waitUntil(
      () =>
        catalogRpc
          .resubmitRelease(
            catalog.ResubmitReleaseRequest.fromPartial({
              releaseId: release.id,
              ownerId: artist,
              artistName: 'Nova Reyes',
              releaseTitle: 'Night Drive',
              trackTitle: 'Night Drive',
              releaseType: 'single',
              genre: 'Hip-Hop/Rap',
              label: 'Moonlit Records',
              releaseDate: '2026-01-02',
              explicit: true,
              stores: ['spotify', 'anghami'],
            }),
          )
          .catch(() => undefined),
      10_000,
      'the resubmission to be accepted',
    );
  } finally {
    catalogRpc.close();
  }
  const { jobs } = await waitUntil(
    async () => {
      const answer = await rpc.listJobs({ releaseId: release.id });
      return answer.review?.status === 'in_review' && answer.jobs.length === 2 ? answer : undefined;
    },
    10_000,
    'the release back in review with its new stores',
  );
  expect(jobs.map((j) => j.target).sort()).toEqual(['anghami', 'spotify']);
  await expectCountsExact(release.id);

  await rpc.approveRelease({ releaseId: release.id, adminId: 'test-admin' });
  await settled(release.id, { spotify: 'live', anghami: 'live' }, 'both stores live');
  await expectCountsExact(release.id);
});
