// delivery: a release's review (automatic store checks, an admin's decision) and one job per store, taken
// by the worker through packaging (DDEX ERN 4.3, XSD validated), transport (files first, BatchComplete
// last) and the store's acknowledgement, with retries, dead letters, takedowns and purges. Consumes
// release.created and release.resubmitted (jobs held until approved); announces every change as
// delivery.updated through its outbox. STORES=simulator runs the embedded store simulator in-process.
import {
  adapterLine,
  Outbox,
  type PlatformConfig,
  type ServiceModule,
  storeReportsDir,
} from '@omni/platform';
import { catalog, delivery, storage } from '@omni/proto';
import { createErnValidator } from './domain/ddex';
import { onReleaseSubmitted } from './events/release-submitted';
import { deliveryHandlers } from './grpc/server';
import { sweepStaleDecodes } from './providers/fingerprinter/flac';
import { FpcalcFingerprinter } from './providers/fingerprinter/fpcalc';
import { openStoreRegistry, simulatorRoot } from './providers/stores';
import { createStoreSimulator } from './simulator';
import { writeNextReports } from './simulator/report-cursor';
import { FingerprintIndex } from './store/fingerprints';
import { JobsRepository } from './store/jobs';
import { ReviewsRepository } from './store/reviews';
import { VersionsRepository } from './store/versions';
import type { ReviewDeps } from './use-cases/review-release';
import { openPipeline } from './worker/open';

const describeStores = (config: PlatformConfig) =>
  adapterLine(
    'stores',
    'store simulator, one folder per store under DATA_DIR/delivery/stores',
    `store registry ${config.env.STORE_REGISTRY_FILE ?? ''}`,
    config.env.STORES === 'registry',
  );

export const deliveryService: ServiceModule = {
  name: 'delivery',
  description: 'release review, delivery jobs per store, DDEX packaging, retries, takedowns',
  // Reads the release from catalog; asks storage about its files and fetches them through signed links.
  calls: ['catalog', 'storage'],
  consumes: ['release.created', 'release.resubmitted'],
  produces: ['delivery.updated', 'delivery.progress'],
  ports: ['documents', 'events'],
  providers: { stores: describeStores },
  async init(ctx) {
    const { config, logger } = ctx;
    const store = await ctx.ports.documents('delivery');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['delivery.updated', 'delivery.progress']);
    const outbox = new Outbox(store, bus, 'delivery', logger);
    const jobs = new JobsRepository(store, outbox);
    const reviews = new ReviewsRepository(store);
    const versions = new VersionsRepository(store);
    const sources = {
      catalog: ctx.client('catalog', catalog.CatalogServiceService),
      storage: ctx.client('storage', storage.StorageServiceService),
    };
    const registry = await openStoreRegistry(config, config.dataDir);
    // One XSD validator (a worker thread) for the packaging and the simulator.
    const validator = createErnValidator(undefined, logger);
    const simulator =
      registry.mode === 'simulator'
        ? createStoreSimulator({
            root: simulatorRoot(config.dataDir),
            keys: registry.all().map((p) => p.key),
            validator,
            delayMs: config.env.STORE_SIMULATOR_DELAY_MS,
            pollMs: Math.min(250, config.env.DELIVERY_POLL_MS),
            logger,
          })
        : null;
    const pipeline = openPipeline({
      config,
      store,
      outbox,
      registry,
      validator,
      versions,
      jobs,
      ...sources,
      logger,
    });
    // The rights check's index (fingerprints of every master submitted): review reads and fills it.
    const fingerprints = new FingerprintIndex(store);
    const review: ReviewDeps = {
      store,
      jobs,
      reviews,
      versions,
      relay: () => void outbox.flush().catch(() => undefined),
      onApproved: () => pipeline.worker.wake(),
      // A rejected release's masters leave the index: a copy an admin turned down must not hold the
      // owner's own later upload (a resubmission is fingerprinted and indexed again).
      onRejected: (releaseId) => fingerprints.removeRelease(releaseId),
    };
    ctx.grpc.add(
      delivery.DeliveryServiceService,
      deliveryHandlers(jobs, review, {
        pipeline: pipeline.ctx,
        wake: () => pipeline.worker.wake(),
        simulator: simulator && {
          configure: (key, settings) => simulator.configure(key, settings),
          // The days not reported yet, up to today (UTC), into the folder royalties reads.
          writeReports: () => {
            const now = new Date();
            return writeNextReports(
              simulatorRoot(config.dataDir),
              (period) => simulator.writeReports({ outDir: storeReportsDir(config), period, createdAt: now }),
              now,
            );
          },
        },
      }),
    );
    const fingerprinter = new FpcalcFingerprinter();
    const noFpcalc = fingerprinter.missing();
    // Without fpcalc review still runs, without the rights check: say so once, with the command that fixes it.
    if (noFpcalc) logger.warn({ reason: noFpcalc }, 'rights check off: masters are not fingerprinted');
    // With fpcalc but no flac, a FLAC master is checked only as uploaded (a sped-up copy is not caught).
    const limit = noFpcalc ? null : fingerprinter.limits();
    if (limit)
      logger.warn({ reason: limit }, 'rights check limited: FLAC masters are not checked at other speeds');
    // A FLAC decode folder outlives its check only when a process was killed mid-check.
    void sweepStaleDecodes().then(
      (n) => {
        if (n > 0)
          logger.info({ removed: n }, 'rights check: removed FLAC decodes a stopped process left behind');
      },
      (err) => logger.warn({ err }, 'rights check: could not remove old FLAC decodes'),
    );
    // Review fetches the files into the pipeline's staging folder and keeps their hashes in the version.
    const reviewSources = {
      ...sources,
      stage: (releaseId: string, bucket: string, fileKey: string) =>
        pipeline.ctx.stager.stage(releaseId, bucket, fileKey),
      // The rights check: every staged master is fingerprinted (fpcalc, a child process) and looked up.
      rights: { fingerprinter, index: fingerprints },
    };
    const created = await onReleaseSubmitted('release.created', bus, store, review, reviewSources, logger);
    const resubmitted = await onReleaseSubmitted(
      'release.resubmitted',
      bus,
      store,
      review,
      reviewSources,
      logger,
    );
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(async () => {
      outbox.start();
      await simulator?.start();
      await pipeline.start();
    });
    // Stop hooks run in reverse order: the worker first, then the simulator, the consumer and the outbox,
    // the validator last (both the worker and the simulator use it).
    ctx.onStop(() => validator.close());
    ctx.onStop(() => outbox.stop());
    ctx.onStop(async () => {
      await created.close();
      await resubmitted.close();
    });
    ctx.onStop(() => simulator?.stop());
    ctx.onStop(() => pipeline.close());
  },
};
