// delivery: a release's review (automatic store checks, an admin's decision) and one job per store.
// Consumes release.created and release.resubmitted (the review, jobs held until approved) and announces
// every change as delivery.updated through its outbox; DDEX packaging, sending, retries and takedowns are
// the worker's (later work).
import { Outbox, type ServiceModule } from '@omni/platform';
import { catalog, delivery, storage } from '@omni/proto';
import { publishDeliveryUpdate } from './events/delivery-updated';
import { onReleaseCreated } from './events/release-created';
import { onReleaseResubmitted } from './events/release-resubmitted';
import { deliveryHandlers } from './grpc/server';
import { JobsRepository } from './store/jobs';
import { ReviewsRepository } from './store/reviews';
import type { ReviewDeps } from './use-cases/review-release';

export const deliveryService: ServiceModule = {
  name: 'delivery',
  description: 'release review, delivery jobs per store, DDEX packaging, retries, takedowns',
  // Reads the release from catalog and asks storage about its cover for the automatic store checks.
  calls: ['catalog', 'storage'],
  consumes: ['release.created', 'release.resubmitted'],
  produces: ['delivery.updated'],
  ports: ['documents', 'events'],
  async init(ctx) {
    const { logger } = ctx;
    const store = await ctx.ports.documents('delivery');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['delivery.updated']);
    const outbox = new Outbox(store, bus, 'delivery', logger);
    const jobs = new JobsRepository(store);
    const reviews = new ReviewsRepository(store);
    const review: ReviewDeps = {
      store,
      jobs,
      reviews,
      publish: (scope, update) => publishDeliveryUpdate(scope, outbox, update),
      relay: () => void outbox.flush().catch(() => undefined),
    };
    const sources = {
      catalog: ctx.client('catalog', catalog.CatalogServiceService),
      storage: ctx.client('storage', storage.StorageServiceService),
    };
    ctx.grpc.add(delivery.DeliveryServiceService, deliveryHandlers(jobs, review));
    const created = await onReleaseCreated(bus, store, review, sources, logger);
    const resubmitted = await onReleaseResubmitted(bus, store, review, sources, logger);
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(async () => {
      await created.close();
      await resubmitted.close();
      await outbox.stop();
    });
  },
};
