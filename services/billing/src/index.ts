// billing: plans, Stripe checkout and portal, subscriptions (Pro, Finder); earnings and payouts come later
// and get their own collections beside these. Only the payments provider's signed webhooks change a
// subscription (docs/architecture.md §11); every change is announced as `subscription.updated`.
import { Outbox, type ServiceModule } from '@omni/platform';
import { billing } from '@omni/proto';
import { configuredPlans, PlanBook, pricesOf } from './domain/plans';
import { billingHandlers } from './grpc/server';
import { describePayments, openPayments, webhookSecretFor } from './providers/payments/open';
import { stripeSignatureVerifier } from './providers/payments/signature';
import { CheckoutAttemptsRepository } from './store/checkout-attempts';
import { CustomersRepository } from './store/customers';
import { SubscriptionsRepository } from './store/subscriptions';
import { WebhookEventsRepository } from './store/webhook-events';

export const billingService: ServiceModule = {
  name: 'billing',
  description: 'plans, Stripe checkout and portal, subscriptions, earnings',
  calls: [],
  consumes: [],
  produces: ['subscription.updated'],
  ports: ['documents', 'events'],
  providers: { payments: describePayments },
  async init(ctx) {
    const { config, logger } = ctx;
    const store = await ctx.ports.documents('billing');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['subscription.updated']);
    const outbox = new Outbox(store, bus, 'billing', logger);
    const plans = new PlanBook(configuredPlans(config));
    const webhookSecret = await webhookSecretFor(config);
    const { payments, router } = await openPayments(config, {
      // The sandbox's records (a small Stripe of its own) live in their own store, never among billing's.
      documents: () => ctx.ports.documents('billing-sandbox'),
      webhookSecret,
      prices: pricesOf(plans),
      logger,
    });
    ctx.onStop(() => payments.close());
    if (router) ctx.http.use(router);
    ctx.grpc.add(
      billing.BillingServiceService,
      billingHandlers({
        store,
        customers: new CustomersRepository(store),
        subscriptions: new SubscriptionsRepository(store),
        webhookEvents: new WebhookEventsRepository(store),
        attempts: new CheckoutAttemptsRepository(store),
        outbox,
        plans,
        payments: () => payments,
        verifyWebhook: stripeSignatureVerifier(webhookSecret),
        logger,
      }),
    );
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(() => outbox.stop());
  },
};
