// The payments port on Stripe's API (production, and tests against a local server in Stripe's shapes).
// It only asks Stripe for things: subscription state changes reach billing through signed webhook events.
import type { Logger } from '@omni/platform';
import type { PaymentsProvider, SubscriptionFacts } from '../port';
import { checkoutSessionParams } from './checkout-params';
import { createStripeClient } from './client';
import { rethrow } from './errors';
import { subscriptionFacts } from './events';

export interface StripePaymentsOptions {
  secretKey: string;
  /** Another Stripe-shaped API (a local server in tests); Stripe's own when absent. */
  apiUrl?: string;
  logger: Logger;
  /** Per request; 10 s unless a test needs a stalled server to give up sooner. */
  timeoutMs?: number;
}

export function createStripePayments(o: StripePaymentsOptions): PaymentsProvider {
  const client = createStripeClient(o);
  const { stripe } = client;
  const logger = o.logger.child({ provider: 'stripe' });
  logger.info(
    { api: o.apiUrl ?? 'https://api.stripe.com', mode: modeOf(o.secretKey) },
    'stripe payments ready',
  );

  /** Runs one Stripe call, turning its failure into billing's terms (see errors.ts). */
  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      return rethrow(err, operation, logger);
    }
  }

  return {
    kind: 'stripe',

    async createCustomer({ accountId, email }, idempotencyKey) {
      const customer = await call('create customer', () =>
        stripe.customers.create({ email, metadata: { account_id: accountId } }, { idempotencyKey }),
      );
      return { id: customer.id };
    },

    async createCheckoutSession(input, idempotencyKey) {
      const session = await call('create checkout session', () =>
        stripe.checkout.sessions.create(checkoutSessionParams(input), { idempotencyKey }),
      );
      // A subscription-mode session Stripe hosts always has a url; without one there is nowhere to send the user.
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
      return { id: session.id, url: session.url };
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await call('create portal session', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },

    async retrieveSubscription(id): Promise<SubscriptionFacts> {
      // Checked as a webhook's subscription is: Stripe's answer is data from outside like any other.
      return subscriptionFacts(await call('retrieve subscription', () => stripe.subscriptions.retrieve(id)));
    },

    async close() {
      client.close();
    },
  };
}

/** Which of Stripe's modes the key belongs to, for the start-up log (the key itself is never logged). */
function modeOf(secretKey: string): 'live' | 'test' | 'unknown' {
  if (/^(sk|rk)_live_/.test(secretKey)) return 'live';
  if (/^(sk|rk)_test_/.test(secretKey)) return 'test';
  return 'unknown';
}
