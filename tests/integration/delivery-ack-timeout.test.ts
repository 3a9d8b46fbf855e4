// A store that never answers a batch must not leave its job `sent` for ever: after DELIVERY_ACK_TIMEOUT_MS
// the attempt counts as failed and the release is resent as a new batch; the late acknowledgement of the
// first batch, when it comes, changes nothing.
import { randomUUID } from 'node:crypto';
import {
  acknowledgementsOf,
  approve,
  batchesOf,
  createRealRelease,
  deliveryClient,
  startDeliveryPlatform,
} from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
const artist = randomUUID();

beforeAll(async () => {
  omni = await startDeliveryPlatform(undefined, { DELIVERY_ACK_TIMEOUT_MS: '1500' });
  rpc = deliveryClient(omni);
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await omni?.close();
});

it('resends a batch its store did not acknowledge in time, and ignores the late answer', async () => {
  // The store sits on its batches for 6 s: longer than delivery waits.
  await rpc.configureSimulator({ target: 'anghami', mode: 'accept', times: 0, reason: '', delayMs: 6000 });
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['anghami'], { releaseDate: '2026-01-02' });
  await approve(rpc, release.id);

  const failed = await waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId: release.id });
      return jobs[0]?.steps.some((s) => s.status === 'failed') ? jobs[0] : undefined;
    },
    15_000,
    'the unanswered batch to count as failed',
  );
  expect(failed.reason).toMatch(/^Anghami did not acknowledge batch \d{17} within 1.5 s\.$/);
  const firstBatch = batchesOf(omni.dataDir, 'anghami')[0]!;

  // The store is back to its usual pace: the resend is acknowledged and the release goes live.
  await rpc.configureSimulator({ target: 'anghami', mode: 'accept', times: 0, reason: '', delayMs: 0 });
  const live = await waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId: release.id });
      return jobs[0]?.status === 'live' ? jobs[0] : undefined;
    },
    20_000,
    'the resent batch to go live',
  );
  expect(`N_${live.batchId}`).not.toBe(firstBatch);
  expect(live.attempts).toBe(2);

  // The first batch's acknowledgement arrives late; the job stays on its second batch, live.
  await waitUntil(
    async () => (acknowledgementsOf(omni.dataDir, 'anghami').length === 2 ? true : undefined),
    15_000,
    'the late acknowledgement of the first batch',
  );
  await new Promise((r) => setTimeout(r, 300));
  const { jobs } = await rpc.listJobs({ releaseId: release.id });
  expect(jobs[0]).toMatchObject({ status: 'live', batchId: live.batchId });
  expect(jobs[0]!.steps.filter((s) => s.status === 'acknowledged')).toHaveLength(1);
}, 60_000);
