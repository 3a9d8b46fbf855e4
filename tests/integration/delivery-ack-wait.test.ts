// Waiting for a store's answer costs no writes: a sent job whose acknowledgement has not come yet is not
// rewritten on every worker tick (it was: its due time moved on each poll, so every unanswered batch cost
// one job write per tick, writes that grew with the backlog), and once an acknowledgement is acted on it
// moves to the ack folder's processed/, so the folder listed on each tick holds only unanswered batches.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deliveryService } from '@omni/service-delivery';
import { storageService } from '@omni/service-storage';
import { CountingDocuments } from '../support/counting-documents';
import { approve, createRealRelease, deliveryClient, FAST_DELIVERY } from './delivery.fixtures';
import { type ReleasePlatform, startReleasePlatform, waitUntil } from './releases.fixtures';

const counted = new CountingDocuments();
let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
const STORES = ['spotify', 'tidal', 'deezer'];
// The stores take 1.5 s to answer; the worker polls every 50 ms meanwhile.
const DELAY_MS = 1500;

beforeAll(async () => {
  omni = await startReleasePlatform(
    undefined,
    { ...FAST_DELIVERY, STORE_SIMULATOR_DELAY_MS: String(DELAY_MS) },
    { storage: storageService, delivery: counted.module(deliveryService) },
  );
  rpc = deliveryClient(omni);
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await omni?.close();
});

const jobsOf = async (releaseId: string) => (await rpc.listJobs({ releaseId })).jobs;

it('writes nothing for a sent job while its store has not answered, and archives the answer it acts on', async () => {
  const artist = randomUUID();
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, STORES, { releaseDate: '2026-01-02' });
  await approve(rpc, release.id);
  await waitUntil(
    async () => ((await jobsOf(release.id)).every((j) => j.status === 'sent') ? true : undefined),
    15_000,
    'every job sent',
  );
  counted.reset();
  const started = Date.now();
  await waitUntil(
    async () => ((await jobsOf(release.id)).every((j) => j.status === 'live') ? true : undefined),
    15_000,
    'every job live',
  );
  // About 1.5 s of waiting at a 50 ms poll: ~30 ticks. Before, each rewrote every waiting job (~90
  // writes); now the waiting costs none, only the moves (their own transactions) and the worker's lease
  // bookkeeping on the jobs it runs (the live promotion), a few per job.
  expect(Date.now() - started).toBeGreaterThan(DELAY_MS / 2);
  expect(counted.updatedOutside.delivery_jobs ?? 0).toBeLessThanOrEqual(2 * STORES.length);

  for (const store of STORES) {
    const acks = join(omni.dataDir, 'delivery', 'stores', store, 'acknowledgements');
    expect(readdirSync(acks).filter((f) => f.startsWith('ACK_'))).toEqual([]);
    expect(readdirSync(join(acks, 'processed'))).toHaveLength(1);
  }
}, 60_000);
