// What delivery announces of a release (issue 24, "delivery announces release-level facts once per change"):
// `delivery.updated` only when the release's facts change (its status, review, whether a store has it,
// whether one has it live, the stores that refused it, whether the artist may resubmit), and each store's
// other steps as `delivery.progress`, which only the gateway's open pages follow. Before, every store's
// every step was a delivery.updated that catalog and identity each wrote down: 1 + 1 + N + 4N events for
// a release to N stores (712 for 142).
import { randomUUID } from 'node:crypto';
import { PLATFORM_KEYS } from '@omni/proto/api';
import { deliveryService } from '@omni/service-delivery';
import { storageService } from '@omni/service-storage';
import { CountingDocuments } from '../support/counting-documents';
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

const STORES = [
  'spotify',
  'apple_music',
  'tidal',
  'deezer',
  'napster',
  'qobuz',
  'soundcloud',
  'amazon_music',
  'youtube_music',
  'pandora',
  'anghami',
  'boomplay',
];

/** The events delivery wrote for the release, in order, by type. */
function announced(releaseId: string) {
  const all = counted.transactions.flatMap((t) => t.events).filter((e) => e.data.releaseId === releaseId);
  return {
    updated: all.filter((e) => e.type === 'delivery.updated').map((e) => e.data),
    progress: all.filter((e) => e.type === 'delivery.progress').map((e) => e.data),
  };
}

function statuses(releaseId: string, want: (jobs: Record<string, string>) => boolean, what: string) {
  return waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId });
      const now = Object.fromEntries(jobs.map((j) => [j.target, j.status]));
      return want(now) ? now : undefined;
    },
    60_000,
    what,
  );
}

it('announces a release to 12 stores in five delivery.updated events, its stores’ other steps as progress', async () => {
  const stores = STORES.filter((s) => PLATFORM_KEYS.includes(s));
  expect(stores).toHaveLength(12);
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, stores);
  await approve(rpc, release.id);
  await statuses(release.id, (now) => stores.every((s) => now[s] === 'live'), 'every store live');
  // The outbox's last events are written in the transactions that moved the jobs: settled now.
  const { updated, progress } = announced(release.id);
  expect(updated.map((e) => [e.status, e.releaseStatus, e.reachedStores, e.live, e.canResubmit])).toEqual([
    ['in_review', 'in_review', false, false, false],
    ['approved', 'delivering', false, false, false],
    ['sent', 'delivering', true, false, false],
    ['live', 'delivering', true, true, false],
    ['live', 'live', true, true, false],
  ]);
  expect(updated.map((e) => e.version)).toEqual([1, 2, 3, 4, 5]);
  // packaging, sent, acknowledged, live per store; the three that changed a fact were announced instead.
  expect(progress).toHaveLength(12 * 4 - 3);
  expect(new Set(progress.map((e) => e.target))).toEqual(new Set(stores));
});

it('announces a store’s refusal with its words, and that the artist may resubmit', async () => {
  await rpc.configureSimulator({ target: 'napster', mode: 'reject', times: 1, reason: 'Logo on the cover.' });
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['spotify', 'napster']);
  await approve(rpc, release.id);
  await statuses(
    release.id,
    (now) => now.spotify === 'live' && now.napster === 'rejected',
    'spotify live, napster rejected',
  );
  const last = announced(release.id).updated.at(-1);
  expect(last).toMatchObject({
    releaseStatus: 'delivering',
    refusals: [{ store: 'napster', reason: expect.stringContaining('Logo on the cover.') }],
    canResubmit: true,
    reachedStores: true,
    live: true,
  });
});
