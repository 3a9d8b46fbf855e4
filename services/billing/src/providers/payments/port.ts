// The payments port: what billing asks of a payments provider. Two adapters sit beside it:
//   stripe/   Stripe's API through the `stripe` package (production; tests against a local server in
//             Stripe's shapes, and against Stripe's test mode when STRIPE_SECRET_KEY is set).
//   sandbox/  the embedded checkout sandbox for `npm start`: its own hosted checkout and portal pages, test
//             cards, and a clock; it sends the SAME signed webhook events, in Stripe's payload shapes, to the
//             same public endpoint (POST /api/billing/webhooks/stripe) as Stripe does.
// Neither adapter changes billing's state: only webhook events do (use-cases/apply-event.ts), so the
// sandbox exercises exactly production's path. The port speaks billing's terms (the types below): Stripe's
// shapes stay inside the adapters, and the webhook reader (stripe/events.ts) checks and maps them at the
// boundary, so billing's rules never see a field they did not ask for, nor a value out of range.

/** The statuses a provider subscription may have (Stripe's, as of API 2026-10-28). */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** One provider subscription as billing reads it. */
export interface SubscriptionFacts {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  /** RFC 3339: when a scheduled cancellation takes effect; null when none is. */
  cancelAt: string | null;
  /** RFC 3339: the end of the current period (the first item's), null when the provider gave none. */
  currentPeriodEnd: string | null;
  priceId: string;
  /** The Omni account and product the subscription was made for (metadata set at checkout), or ''. */
  metadataAccountId: string;
  metadataProduct: string;
}

/** What an update changed, with the old values (Stripe's previous_attributes), for the fields billing tracks. */
export interface PreviousFacts {
  status?: SubscriptionStatus;
  cancelAtPeriodEnd?: boolean;
}

/** A webhook event whose signature verified and whose fields were checked, in billing's terms. */
export type PaymentEvent = {
  id: string;
  /** The provider's event type, kept for the audit row ('customer.subscription.updated', …). */
  type: string;
  /** Unix seconds: the ordering key of the state it brings. */
  created: number;
  livemode: boolean;
} & (
  | {
      kind: 'subscription';
      change: 'created' | 'updated' | 'deleted' | 'paused' | 'resumed';
      subscription: SubscriptionFacts;
      previous?: PreviousFacts;
    }
  | {
      kind: 'checkout';
      outcome: 'completed' | 'expired';
      sessionId: string;
      subscriptionId: string;
      customerId: string;
      /** Checkout's client_reference_id (the Omni account), or ''. */
      accountId: string;
      metadataProduct: string;
    }
  | {
      kind: 'invoice';
      outcome: 'paid' | 'failed';
      invoiceId: string;
      subscriptionId: string;
      /** Unix seconds of the provider's next charge attempt after a failure; null when it will not retry. */
      nextAttemptAt: number | null;
    }
  /** An event type billing does not act on (recorded, then ignored). */
  | { kind: 'other' }
);

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
  retrieveSubscription(id: string): Promise<SubscriptionFacts>;
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
