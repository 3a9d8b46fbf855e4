// Builds the pipeline's context and worker from the service's configuration: the store registry's
// profiles, one transport per store (opened on first use), staging and message folders under DATA_DIR.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DocumentStore, Logger, Outbox, PlatformConfig, PromiseClient } from '@omni/platform';
import type { catalog, storage } from '@omni/proto';
import { parseAcknowledgement } from '../domain/ack';
import type { ErnValidator } from '../domain/ddex';
import { buildBatchComplete } from '../domain/ddex/batch-complete';
import { DEFAULT_SENDER } from '../domain/package/sender';
import type { StoreProfile } from '../domain/stores/profile';
import { openTransport, type StoreRegistry } from '../providers/stores';
import { createFlacTranscoder } from '../providers/transcoder/flac';
import type { Transport } from '../providers/transport/port';
import type { JobsRepository } from '../store/jobs';
import { PackagesRepository } from '../store/packages';
import type { VersionsRepository } from '../store/versions';
import type { PipelineContext } from '../use-cases/pipeline-context';
import { Stager } from '../use-cases/stage-files';
import { DeliveryWorker } from './worker';

export interface OpenPipelineInput {
  config: PlatformConfig;
  store: DocumentStore;
  outbox: Outbox;
  registry: StoreRegistry;
  validator: ErnValidator;
  versions: VersionsRepository;
  jobs: JobsRepository;
  catalog: PromiseClient<typeof catalog.CatalogServiceService>;
  storage: PromiseClient<typeof storage.StorageServiceService>;
  logger: Logger;
}

export function openPipeline(input: OpenPipelineInput) {
  const { config, store, outbox, registry, logger } = input;
  const env = config.env;
  const root = path.resolve(config.dataDir, 'delivery');
  const transports = new Map<string, Transport>();
  const publicObjects = `${config.publicUrl}/objects/`;
  const ctx: PipelineContext = {
    store,
    outbox,
    relay: () => void outbox.flush().catch(() => undefined),
    profileOf: (key) => registry.get(key),
    transportFor(profile: StoreProfile) {
      let transport = transports.get(profile.key);
      if (!transport) {
        transport = openTransport(profile);
        transports.set(profile.key, transport);
      }
      return transport;
    },
    versions: input.versions,
    jobs: input.jobs,
    catalog: input.catalog,
    storage: input.storage,
    stager: new Stager({
      packages: new PackagesRepository(store),
      storage: input.storage,
      root: path.join(root, 'staging'),
      transcoder: createFlacTranscoder(),
      // Embedded storage signs links on the public URL (the gateway forwards /objects to storage): this
      // process asks storage directly, so a test's or a proxy's public address need not reach back here.
      reachable: (url) =>
        url.startsWith(publicObjects)
          ? `${config.httpUrl('storage')}/objects/${url.slice(publicObjects.length)}`
          : url,
    }),
    validator: input.validator,
    buildBatchComplete,
    parseAcknowledgement,
    retry: {
      baseMs: env.DELIVERY_RETRY_BASE_MS,
      capMs: env.DELIVERY_RETRY_CAP_MS,
      maxAttempts: env.DELIVERY_MAX_ATTEMPTS,
    },
    messagesRoot: path.join(root, 'messages'),
    sender: { partyId: env.DDEX_SENDER_PARTY_ID ?? DEFAULT_SENDER.partyId, name: env.DDEX_SENDER_NAME },
    pollMs: env.DELIVERY_POLL_MS,
    ackTimeoutMs: env.DELIVERY_ACK_TIMEOUT_MS,
    workerId: `${process.pid}-${randomUUID()}`,
    // A crashed process's jobs are picked up again once this passes; a live worker renews it meanwhile.
    leaseMs: env.DELIVERY_LEASE_MS,
    logger,
    now: () => new Date(),
  };
  const worker = new DeliveryWorker(ctx, { concurrency: env.DELIVERY_CONCURRENCY });
  return {
    ctx,
    worker,
    async start() {
      const swept = await ctx.stager.sweep();
      if (swept > 0) logger.info({ swept }, 'delivery: removed half-staged files of an earlier run');
      worker.start();
    },
    async close() {
      await worker.stop();
      await Promise.allSettled([...transports.values()].map((t) => t.close()));
    },
  };
}
