// The embedded checkout sandbox: the payments adapter `npm start` uses (PAYMENTS=embedded). A small Stripe
// of its own — customers, checkout sessions, subscriptions, invoices and a clock, kept in its own documents
// store so they survive a restart — with hosted pages for checkout, the customer portal and the clock. It
// changes nothing in billing: like Stripe, it sends signed webhook events, in Stripe's shapes, to the public
// webhook endpoint, through the gateway, and billing applies them on the same path as production's.
//
// Its pages subscribe anyone without payment. They must never exist when PAYMENTS=stripe: billing mounts
// router() only in embedded mode, and production refuses to start with PAYMENTS=embedded (config.ts).
import type { DocumentStore, Logger } from '@omni/platform';
import type { Router } from 'express';
import type Stripe from 'stripe';
import type { PaymentsProvider, SubscriptionFacts } from '../port';
import { subscriptionFacts } from '../stripe/events';
import { createCheckoutSession, createCustomer } from './checkout';
import { SandboxClock } from './clock';
import { createContext } from './context';
import { newId } from './ids';
import { Deliverer, type RetryPolicy, STRIPE_LIKE_RETRIES } from './outbox';
import type { PortalSessionDoc, SandboxPrice, SubscriptionDoc } from './records';
import { sandboxRouter } from './router';
import { portalSessionShape } from './shapes';

export type { SandboxPrice } from './records';

export interface SandboxPayments extends PaymentsProvider {
  readonly kind: 'sandbox';
  /** The hosted pages under /billing-sandbox/ (full paths: mount with `http.use(sandbox.router())`). */
  router(): Router;
  /** The subscription object exactly as the sandbox holds it (as Stripe's API would return it), for tests. */
  subscription(id: string): Promise<Stripe.Subscription>;
}

export interface SandboxOptions {
  /** Its own store: ctx.ports.documents('billing-sandbox'). */
  documents: DocumentStore;
  /** What browsers see (the hosted pages' links). */
  publicUrl: () => string;
  /** `${publicUrl}/api/billing/webhooks/stripe`: events go through the gateway as Stripe's do. */
  webhookUrl: () => string;
  /** The secret billing verifies signatures with. */
  webhookSecret: string;
  prices: Record<string, SandboxPrice>;
  logger: Logger;
  /** Redelivery backoff (tests shorten it); Stripe's own by default. */
  retry?: RetryPolicy;
}

export async function createSandboxPayments(o: SandboxOptions): Promise<SandboxPayments> {
  const store = o.documents;
  await store.ready();
  // createdAt: the purge of events older than Stripe keeps them reads only those.
  store.collection('outbox', { indexes: [{ fields: { state: 1, seq: 1 } }, { fields: { createdAt: 1 } }] });
  store.collection('subscriptions', { indexes: [{ fields: { customer: 1 } }, { fields: { state: 1 } }] });
  const logger = o.logger.child({ payments: 'sandbox' });
  const deliverer = new Deliverer(store, {
    webhookUrl: o.webhookUrl,
    webhookSecret: o.webhookSecret,
    retry: o.retry ?? STRIPE_LIKE_RETRIES,
    logger,
  });
  const clock = await SandboxClock.open(store);
  const ctx = createContext({ store, clock, prices: o.prices, publicUrl: o.publicUrl, deliverer });
  // Events queued before a restart (or whose delivery failed) go out now.
  deliverer.kick();

  async function subscription(id: string): Promise<Stripe.Subscription> {
    const doc = await store.collection<SubscriptionDoc>('subscriptions').findById(id);
    // Stripe answers 404 resource_missing: a refusal of our request, so a plain Error (see port.ts).
    if (!doc) throw new Error(`No such subscription: '${id}'`);
    return doc.object;
  }

  return {
    kind: 'sandbox',
    createCustomer: (input, key) => createCustomer(ctx, input, key),
    createCheckoutSession: (input, key) => createCheckoutSession(ctx, input, key),
    async createPortalSession({ customerId, returnUrl }) {
      const customer = await store.collection('customers').findById(customerId);
      if (!customer) throw new Error(`No such customer: '${customerId}'`);
      const id = newId('bps');
      const url = `${o.publicUrl()}/billing-sandbox/portal/${id}`;
      const object = portalSessionShape({ id, customer: customerId, returnUrl, url, created: clock.now() });
      await store
        .collection<PortalSessionDoc>('portal_sessions')
        .insertOne({ _id: id, customer: customerId, object });
      return { url };
    },
    // Read in billing's terms through the same mapping as Stripe's own answers.
    retrieveSubscription: async (id): Promise<SubscriptionFacts> => subscriptionFacts(await subscription(id)),
    subscription,
    router: () => sandboxRouter(ctx, logger),
    close: () => deliverer.close(),
  };
}
