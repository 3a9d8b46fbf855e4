// A real release for the delivery tests: a WAV master and a 3000x3000 PNG cover through the real signed
// upload flow (real storage, not the fake the release suites use), then the artist form.
// Until the review and the store simulator land on main (engineers R and S), two private stand-ins
// live here: `approveHeld` releases the held jobs as ApproveRelease will, and `StandInStore` answers
// batches as the simulator will. They leave with those merges.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storageService } from '@omni/service-storage';
import { buildAcknowledgement } from '../../services/delivery/src/domain/ack';
import { ackFileName } from '../../services/delivery/src/domain/ack/model';
import { parseBatchComplete } from '../../services/delivery/src/domain/ddex/batch-complete';
import { JobsRepository } from '../../services/delivery/src/store/jobs';
import { png, wav } from '../support/media';
import { uploadFile } from '../support/uploads';
import { type ReleasePlatform, releaseBody, startReleasePlatform } from './releases.fixtures';

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

/** Stand-in for ApproveRelease (engineer R): releases the held jobs once they exist. */
export async function approveHeld(omni: ReleasePlatform, releaseId: string, count: number): Promise<void> {
  const store = await omni.ports.documents('delivery');
  const jobs = new JobsRepository(store);
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    if ((await jobs.forRelease(releaseId)).length >= count) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await store.transaction((scope) => jobs.releaseHeld(scope, releaseId, new Date().toISOString()));
}

/** Stand-in for the store simulator (engineer S): acknowledges each complete batch once. */
export class StandInStore {
  private timer: NodeJS.Timeout | undefined;
  readonly ingested = new Map<string, string[]>();
  private readonly modes = new Map<string, { mode: 'reject' | 'fail'; times: number; reason: string }>();

  constructor(private readonly root: string) {}

  configure(store: string, mode: 'reject' | 'fail', times: number, reason: string) {
    this.modes.set(store, { mode, times, reason });
  }

  start() {
    this.timer = setInterval(() => this.scan(), 30);
  }
  stop() {
    clearInterval(this.timer);
  }

  private scan() {
    if (!existsSync(this.root)) return;
    for (const store of readdirSync(this.root)) {
      const dir = join(this.root, store);
      for (const folder of readdirSync(dir)) {
        if (!folder.startsWith('N_')) continue;
        const batchId = folder.slice(2);
        const manifest = join(dir, folder, `BatchComplete_${batchId}.xml`);
        const seen = this.ingested.get(store) ?? [];
        if (!existsSync(manifest) || seen.includes(batchId)) continue;
        this.ingested.set(store, [...seen, batchId]);
        const input = parseBatchComplete(readFileSync(manifest, 'utf8'));
        const mode = this.modes.get(store);
        const bad = mode && mode.times > 0 ? mode : null;
        if (mode) mode.times--;
        for (const message of input.messages) {
          const ack = buildAcknowledgement(
            {
              batchId,
              messageId: message.messageId,
              fileName: message.path,
              fileStatus: 'FileOK',
              releaseStatus: bad
                ? 'ProcessingErrorAtReleaseDistributor'
                : 'SuccessfullyIngestedByReleaseDistributor',
              ...(bad ? { errorText: bad.reason } : {}),
              manualCheckRequired: bad?.mode === 'reject',
              releaseIds: message.releaseIds,
              acknowledgedAt: new Date().toISOString(),
            },
            { sender: input.recipient, recipient: input.sender },
          );
          const acks = join(dir, 'acknowledgements');
          mkdirSync(acks, { recursive: true });
          const name = join(acks, ackFileName(batchId, message.messageId));
          writeFileSync(`${name}.tmp`, ack);
          renameSync(`${name}.tmp`, name);
        }
      }
    }
  }
}
