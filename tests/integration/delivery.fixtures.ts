// A real release for the delivery tests: a WAV master and a 3000x3000 PNG cover through the real signed
// upload flow (real storage, not the fake the release suites use), then the artist form.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGrpcClient, type PromiseClient } from '@omni/platform';
import { delivery } from '@omni/proto';
import { storageService } from '@omni/service-storage';
import { png, wav } from '../support/media';
import { uploadFile } from '../support/uploads';
import { type ReleasePlatform, releaseBody, startReleasePlatform, waitUntil } from './releases.fixtures';

export const FAST_DELIVERY = {
  LOG_LEVEL: 'error',
  DELIVERY_RETRY_BASE_MS: '50',
  DELIVERY_RETRY_CAP_MS: '200',
  DELIVERY_POLL_MS: '50',
  STORE_SIMULATOR_DELAY_MS: '50',
};

export function startDeliveryPlatform(dataDir?: string, env: Record<string, string> = {}) {
  return startReleasePlatform(dataDir, { ...FAST_DELIVERY, ...env }, { storage: storageService });
}

export async function createRealRelease(
  omni: ReleasePlatform,
  ownerId: string,
  token: string,
  stores: string[],
  extra: Record<string, unknown> = {},
  seconds = 35,
): Promise<{ id: string; upc: string }> {
  const base = omni.url;
  const audio = await uploadFile(base, token, {
    bucket: 'omni-assets',
    fileName: 'master.wav',
    contentType: 'audio/wav',
    bytes: wav(seconds, { tone: true }),
    role: 'audio',
  });
  const artwork = await uploadFile(base, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const res = await omni.api('/api/releases', {
    method: 'POST',
    token,
    json: releaseBody(ownerId, {
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      stores,
      ...extra,
    }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  const { release } = (await res.json()) as { release: { id: string; upc: string } };
  return release;
}

type DeliveryClient = PromiseClient<typeof delivery.DeliveryServiceService>;

export const deliveryClient = (omni: ReleasePlatform): DeliveryClient =>
  createGrpcClient(delivery.DeliveryServiceService, omni.config.grpcAddress('delivery'));

/** Waits for the review delivery makes from release.created, then approves it as an admin would. */
export async function approve(rpc: DeliveryClient, releaseId: string): Promise<void> {
  const { review } = await waitUntil(
    async () => {
      const answer = await rpc.listJobs({ releaseId });
      return answer.review ? answer : undefined;
    },
    15_000,
    `the review of ${releaseId}`,
  );
  if (review?.status !== 'in_review')
    throw new Error(`release ${releaseId} is ${review?.status}: ${review?.reason}`);
  await rpc.approveRelease({ releaseId, adminId: 'test-admin' });
}

/**
 * The store's acknowledgement files (the simulator writes one per message of each batch it ingests),
 * as paths relative to its acknowledgement folder: `ACK_….xml` not yet read, `processed/ACK_….xml` once
 * delivery has acted on it.
 */
export function acknowledgementsOf(dataDir: string, store: string): string[] {
  const dir = join(dataDir, 'delivery', 'stores', store, 'acknowledgements');
  const names = (folder: string) =>
    existsSync(folder) ? readdirSync(folder).filter((f) => f.startsWith('ACK_')) : [];
  return [...names(dir), ...names(join(dir, 'processed')).map((f) => `processed/${f}`)];
}

/** The store's batch folders. */
export function batchesOf(dataDir: string, store: string): string[] {
  const dir = join(dataDir, 'delivery', 'stores', store);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('N_')) : [];
}
