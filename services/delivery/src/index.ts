// delivery: delivery jobs per store, DDEX packaging, retries, takedowns (grows with the releases issue).
// For now it starts, serves its gRPC contract and health, and owns its (empty) document store.
import type { ServiceModule } from '@omni/platform';
import { delivery } from '@omni/proto';
import { deliveryHandlers } from './grpc/server';

export const deliveryService: ServiceModule = {
  name: 'delivery',
  description: 'delivery jobs per store, DDEX packaging, retries, takedowns',
  async init(ctx) {
    const store = await ctx.ports.documents('delivery');
    ctx.grpc.add(delivery.DeliveryServiceService, deliveryHandlers());
    ctx.readiness('documents', () => store.healthy());
  },
};
