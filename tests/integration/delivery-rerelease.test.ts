// Issue 21 §3.6: a taken-down release can be released again to the stores it was taken down from, through
// HTTP, by its owner (or an admin): each chosen store gets a new NewReleaseMessage with its deals, in a new
// batch after the takedown's, and goes live again; the other stores stay as they were. Someone else's
// release is not found, a store that was not taken down is refused in words.
import { randomUUID } from 'node:crypto';
import { DELIVERY_MESSAGES } from '@omni/proto/api';
import { createErnValidator, type ErnValidator } from '../../services/delivery/src/domain/ddex';
import {
  approve,
  batchesOf,
  createRealRelease,
  deliveryClient,
  startDeliveryPlatform,
} from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
let validator: ErnValidator;
const artist = randomUUID();
let token: string;
let strangerToken: string;

beforeAll(async () => {
  omni = await startDeliveryPlatform();
  token = await omni.token(artist);
  strangerToken = await omni.token(randomUUID());
  rpc = deliveryClient(omni);
  validator = createErnValidator();
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await validator?.close();
  await omni?.close();
});

interface JobJson {
  target: string;
  status: string;
  jobKind: string;
  steps: { status: string }[];
}

async function jobsOf(releaseId: string): Promise<Record<string, JobJson>> {
  const res = await omni.api(`/api/releases/${releaseId}/deliveries`, { token });
  expect(res.status).toBe(200);
  const { jobs } = (await res.json()) as { jobs: JobJson[] };
  return Object.fromEntries(jobs.map((j) => [j.target, j]));
}

const until = (releaseId: string, done: (jobs: Record<string, JobJson>) => boolean, what: string) =>
  waitUntil(
    async () => {
      const jobs = await jobsOf(releaseId);
      return done(jobs) ? jobs : undefined;
    },
    30_000,
    what,
  );

const post = (path: string, json: unknown, as = token) => omni.api(path, { method: 'POST', token: as, json });

it('releases a taken-down release again to the chosen stores: a new NewReleaseMessage each, live again', async () => {
  const release = await createRealRelease(omni, artist, token, ['spotify', 'tidal', 'deezer']);
  await approve(rpc, release.id);
  await until(release.id, (js) => Object.values(js).every((j) => j.status === 'live'), 'every store live');

  let res = await post(`/api/releases/${release.id}/takedown`, { stores: [] });
  expect(res.status).toBe(202);
  await until(
    release.id,
    (js) => Object.values(js).every((j) => j.status === 'taken_down'),
    'every store taken down',
  );
  const takedownBatches = Object.fromEntries(
    ['spotify', 'tidal', 'deezer'].map((s) => [s, batchesOf(omni.dataDir, s).sort()]),
  );

  // Someone else cannot, and a store the release never went to is refused in words.
  res = await post(`/api/releases/${release.id}/rerelease`, { stores: ['spotify'] }, strangerToken);
  expect(res.status).toBe(404);
  res = await post(`/api/releases/${release.id}/rerelease`, { stores: ['beatport'] });
  expect(res.status).toBe(404);
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
    DELIVERY_MESSAGES.storeNotInRelease,
  );

  res = await post(`/api/releases/${release.id}/rerelease`, { stores: ['spotify', 'deezer'] });
  expect(res.status).toBe(202);
  const body = (await res.json()) as { jobs: JobJson[]; message: string };
  expect(body.message).toBe(DELIVERY_MESSAGES.reReleaseQueued(2));
  expect(body.jobs.map((j) => [j.target, j.jobKind, j.status]).sort()).toEqual([
    ['deezer', 'ingest', 'queued'],
    ['spotify', 'ingest', 'queued'],
  ]);

  const jobs = await until(
    release.id,
    (js) => js.spotify?.status === 'live' && js.deezer?.status === 'live',
    'spotify and deezer live again',
  );
  expect(jobs.tidal!.status).toBe('taken_down');
  expect(jobs.spotify!.steps.map((s) => s.status).slice(-5)).toEqual([
    'queued',
    'packaging',
    'sent',
    'acknowledged',
    'live',
  ]);
  for (const store of ['spotify', 'deezer']) {
    // A new batch, after the takedown's (stores ingest in batch-id order), with deals again.
    const batches = batchesOf(omni.dataDir, store).sort();
    expect(batches).toHaveLength(takedownBatches[store]!.length + 1);
    expect(batches.slice(0, -1)).toEqual(takedownBatches[store]);
    const { xml, messageId } = await rpc.getErn({ releaseId: release.id, target: store });
    expect(xml).toContain('NewReleaseMessage');
    expect(xml).toContain('<DealList>');
    expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
    expect(messageId).not.toBe('');
  }
  expect(batchesOf(omni.dataDir, 'tidal').sort()).toEqual(takedownBatches.tidal);

  // Nothing taken down is left at those stores: asking again is refused in words, not a 500.
  res = await post(`/api/releases/${release.id}/rerelease`, { stores: ['spotify'] });
  expect(res.status).toBe(409);
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
    DELIVERY_MESSAGES.nothingToReRelease,
  );
}, 90_000);

it('refuses to release again a release that was never taken down', async () => {
  const release = await createRealRelease(omni, artist, token, ['qobuz']);
  await approve(rpc, release.id);
  await until(release.id, (js) => js.qobuz?.status === 'live', 'qobuz live');
  const res = await post(`/api/releases/${release.id}/rerelease`, {});
  expect(res.status).toBe(409);
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
    DELIVERY_MESSAGES.nothingToReRelease,
  );
}, 60_000);
