// The payments port: what billing asks of a payments provider. Two adapters sit beside it:
//   stripe/   Stripe's API through the `stripe` package (production; tests against a local server in
//             Stripe's shapes, and against Stripe's test mode when STRIPE_SECRET_KEY is set).
//   sandbox/  the embedded checkout sandbox for `npm start`: its own hosted checkout and portal pages, test
//             cards, and a clock; it sends the SAME signed webhook events, in Stripe's payload shapes, to the
//             same public endpoint (POST /api/billing/webhooks/stripe) as Stripe does.
// Neither adapter changes billing's state: only webhook events do (use-cases/apply-event.ts), so the
// sandbox exercises exactly production's path. Objects are Stripe's own types: the sandbox speaks Stripe.
import type Stripe from 'stripe';

export interface CheckoutInput {
  customerId: string;
  priceId: string;
  /** Omni's account id: Checkout's client_reference_id and the subscription's metadata.account_id. */
  accountId: string;
  product: 'pro' | 'finder';
  /** May contain Stripe's literal {CHECKOUT_SESSION_ID}. */
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentsProvider {
  /** 'stripe' or 'sandbox', for the start-up banner and logs. */
  readonly kind: 'stripe' | 'sandbox';
  /** One provider customer per Omni account (billing stores the id; metadata.account_id links back). */
  createCustomer(
    input: { accountId: string; email: string },
    idempotencyKey: string,
  ): Promise<{ id: string }>;
  /** A hosted checkout page for one subscription; the same key within 24 h returns the same session. */
  createCheckoutSession(input: CheckoutInput, idempotencyKey: string): Promise<{ id: string; url: string }>;
  /** The hosted page where a customer cancels, resumes or changes plan. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** The subscription as the provider holds it now (to settle what an out-of-order event left unclear). */
  retrieveSubscription(id: string): Promise<Stripe.Subscription>;
  /** Releases timers and sockets. */
  close(): Promise<void>;
}

/**
 * The provider could not be reached or failed on its side (5xx, timeout, connection refused). Billing
 * answers UNAVAILABLE (the gateway's 503). A refusal of OUR request (4xx) is a bug and stays a plain Error.
 */
export class PaymentsUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentsUnavailableError';
  }
}
