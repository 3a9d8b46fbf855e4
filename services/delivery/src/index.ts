// delivery: delivery jobs per store. Consumes release.created and queues one ingest job per store;
// DDEX packaging, sending, retries, takedowns and the delivery.updated event are later work.
import type { ServiceModule } from '@omni/platform';
import { delivery } from '@omni/proto';
import { onReleaseCreated } from './events/release-created';
import { deliveryHandlers } from './grpc/server';
import { JobsRepository } from './store/jobs';

export const deliveryService: ServiceModule = {
  name: 'delivery',
  description: 'delivery jobs per store, DDEX packaging, retries, takedowns',
  calls: [],
  consumes: ['release.created'],
  produces: [],
  ports: ['documents', 'events'],
  async init(ctx) {
    const store = await ctx.ports.documents('delivery');
    const bus = await ctx.ports.events();
    const jobs = new JobsRepository(store);
    ctx.grpc.add(delivery.DeliveryServiceService, deliveryHandlers(jobs));
    const subscription = await onReleaseCreated(bus, store, jobs, ctx.logger);
    ctx.onStop(() => subscription.close());
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
  },
};
