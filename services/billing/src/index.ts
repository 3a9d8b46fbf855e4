// billing: plans, Stripe checkout and portal, subscriptions, earnings (grows with the billing issue).
// For now it starts, serves its gRPC contract and health, and owns its (empty) document store.
import type { ServiceModule } from '@omni/platform';
import { billing } from '@omni/proto';
import { billingHandlers } from './grpc/server';

export const billingService: ServiceModule = {
  name: 'billing',
  description: 'plans, Stripe checkout and portal, subscriptions, earnings',
  calls: [],
  consumes: [],
  produces: [],
  ports: ['documents'],
  async init(ctx) {
    const store = await ctx.ports.documents('billing');
    ctx.grpc.add(billing.BillingServiceService, billingHandlers());
    ctx.readiness('documents', () => store.healthy());
  },
};
