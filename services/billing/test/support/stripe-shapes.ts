// Stripe's objects and errors as its API returns them (API version 2026-10-28), for the local Stripe-shaped
// server: only the fields Omni reads or a reader of a test would look for, with Stripe's id prefixes.
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/** Stripe-like ids: a prefix and 24 random characters (cus_…, cs_test_…, sub_…). */
export const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url').slice(0, 24)}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The top-level parameters Stripe accepts on each endpoint Omni calls (from the SDK's *CreateParams). */
export const KNOWN_PARAMS: Record<string, readonly string[]> = {
  '/v1/customers':
    'address balance business_name cash_balance description email expand individual_name invoice_prefix invoice_settings metadata name next_invoice_sequence payment_method phone preferred_locales shipping source tax tax_exempt tax_id_data test_clock validate'.split(
      ' ',
    ),
  '/v1/checkout/sessions':
    'adaptive_pricing after_expiration allow_promotion_codes allowed_payment_method_types automatic_tax billing_address_collection branding_settings cancel_url client_reference_id consent_collection currency custom_fields custom_text customer customer_account customer_creation customer_email customer_update discounts excluded_payment_method_types expand expires_at integration_identifier invoice_creation line_items locale managed_payments metadata mode name_collection optional_items origin_context payment_intent_data payment_method_collection payment_method_configuration payment_method_data payment_method_options permissions phone_number_collection redirect_on_completion return_url saved_payment_method_options setup_intent_data shipping_address_collection shipping_options submit_type subscription_data success_url tax_id_collection ui_mode wallet_options'.split(
      ' ',
    ),
  '/v1/billing_portal/sessions':
    'after_expiration configuration customer customer_account expand flow_data locale on_behalf_of return_url'.split(
      ' ',
    ),
};

export interface StripeErrorBody {
  error: { type: string; message: string; code?: string; param?: string; doc_url?: string };
}

/** An error answer: its HTTP status and Stripe's body. */
export class StripeFailure {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {}
}

export const invalidRequest = (message: string, extra: { code?: string; param?: string } = {}) =>
  new StripeFailure(400, { error: { type: 'invalid_request_error', message, ...extra } });

export const noSuch = (kind: string, id: string, param: string, status = 400) =>
  new StripeFailure(status, {
    error: {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param,
      message: `No such ${kind}: '${id}'`,
    },
  });

/** What Stripe answers with each status when failNext() asks for one. */
export function failureFor(status: number): StripeFailure {
  if (status === 429)
    return new StripeFailure(429, {
      error: {
        type: 'invalid_request_error',
        code: 'rate_limit',
        message:
          'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
      },
    });
  if (status === 409)
    return new StripeFailure(409, {
      error: {
        type: 'idempotency_error',
        message:
          'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): try again later.',
      },
    });
  if (status >= 500)
    return new StripeFailure(status, {
      error: { type: 'api_error', message: "Something went wrong on Stripe's end. (local test server)" },
    });
  if (status === 401)
    return new StripeFailure(401, {
      error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' },
    });
  return invalidRequest(`Request failed with status ${status} (local test server).`);
}

export function customerObject(id: string, params: Record<string, unknown>) {
  return {
    id,
    object: 'customer',
    created: nowSeconds(),
    email: (params.email as string | undefined) ?? null,
    name: (params.name as string | undefined) ?? null,
    description: (params.description as string | undefined) ?? null,
    metadata: (params.metadata as Record<string, string> | undefined) ?? {},
    livemode: false,
  };
}

export function checkoutSessionObject(id: string, params: Record<string, unknown>) {
  const created = nowSeconds();
  return {
    id,
    object: 'checkout.session',
    mode: params.mode,
    status: 'open',
    payment_status: 'unpaid',
    customer: (params.customer as string | undefined) ?? null,
    client_reference_id: (params.client_reference_id as string | undefined) ?? null,
    success_url: (params.success_url as string | undefined) ?? null,
    cancel_url: (params.cancel_url as string | undefined) ?? null,
    metadata: (params.metadata as Record<string, string> | undefined) ?? {},
    subscription: null,
    ui_mode: 'hosted',
    url: `https://checkout.stripe.com/c/pay/${id}`,
    created,
    expires_at: created + 24 * 3600,
    livemode: false,
  };
}

export function portalSessionObject(id: string, params: Record<string, unknown>) {
  return {
    id,
    object: 'billing_portal.session',
    customer: params.customer,
    return_url: (params.return_url as string | undefined) ?? null,
    url: `https://billing.stripe.com/p/session/test_${id.slice(4)}`,
    created: nowSeconds(),
    livemode: false,
  };
}

export interface SubscriptionSeed {
  id?: string;
  customer: string;
  price: string;
  status?: Stripe.Subscription.Status;
  /** Unix seconds; the period now lives on each item (items.data[].current_period_end). */
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
  interval?: 'month' | 'year';
}

/**
 * A subscription in the current API's shape, to seed the server with. Only the fields billing reads are
 * filled; the rest of Stripe's many fields are left out, hence the cast.
 */
export function subscriptionObject(seed: SubscriptionSeed): Stripe.Subscription {
  const start = nowSeconds();
  const interval = seed.interval ?? 'month';
  const end = seed.currentPeriodEnd ?? start + (interval === 'year' ? 365 : 30) * 86400;
  const id = seed.id ?? newId('sub');
  return {
    id,
    object: 'subscription',
    customer: seed.customer,
    status: seed.status ?? 'active',
    cancel_at_period_end: seed.cancelAtPeriodEnd ?? false,
    cancel_at: seed.cancelAtPeriodEnd ? end : null,
    canceled_at: null,
    ended_at: null,
    created: start,
    start_date: start,
    billing_cycle_anchor: start,
    currency: 'usd',
    livemode: false,
    metadata: seed.metadata ?? {},
    latest_invoice: null,
    items: {
      object: 'list',
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          subscription: id,
          quantity: 1,
          current_period_start: start,
          current_period_end: end,
          price: { id: seed.price, object: 'price', recurring: { interval, interval_count: 1 } },
        },
      ],
    },
  } as unknown as Stripe.Subscription;
}
