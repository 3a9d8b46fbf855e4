// Stripe's payload shapes for API version 2026-10-28 (the `stripe` package's own): the fields Stripe
// fills for a plain card subscription, with Stripe's defaults (null, [] or false) where the sandbox has
// nothing to say. The period lives on the subscription items (items.data[].current_period_*), an
// invoice's subscription under parent.subscription_details. Each builder casts once: the sandbox fills
// the fields of this kind of object, not every optional expansion of Stripe's types.
import Stripe from 'stripe';
import { newId } from './ids';
import type { SandboxPrice } from './records';

export const API_VERSION = Stripe.API_VERSION;

export function customerShape(input: {
  id: string;
  email: string;
  accountId: string;
  created: number;
}): Stripe.Customer {
  return {
    id: input.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: input.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: input.email,
    invoice_prefix: input.id.slice(4, 12).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: { account_id: input.accountId },
    name: null,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  } as unknown as Stripe.Customer;
}

export function sessionShape(input: {
  id: string;
  url: string;
  customer: Stripe.Customer;
  accountId: string;
  /** Checkout's metadata, the same as subscription_data.metadata (as the Stripe adapter sends both). */
  metadata: Record<string, string>;
  price: SandboxPrice;
  successUrl: string;
  cancelUrl: string;
  created: number;
}): Stripe.Checkout.Session {
  return {
    id: input.id,
    object: 'checkout.session',
    amount_subtotal: input.price.amount,
    amount_total: input.price.amount,
    cancel_url: input.cancelUrl,
    client_reference_id: input.accountId,
    created: input.created,
    currency: 'usd',
    customer: input.customer.id,
    customer_details: {
      email: input.customer.email,
      name: null,
      phone: null,
      address: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
    customer_email: null,
    expires_at: input.created + 24 * 3600,
    invoice: null,
    livemode: false,
    metadata: input.metadata,
    mode: 'subscription',
    payment_intent: null,
    payment_status: 'unpaid',
    status: 'open',
    subscription: null,
    success_url: input.successUrl,
    ui_mode: 'hosted',
    url: input.url,
  } as unknown as Stripe.Checkout.Session;
}

export function priceShape(id: string, price: SandboxPrice, created: number): Stripe.Price {
  return {
    id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created,
    currency: 'usd',
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: `prod_omni_${price.product}`,
    recurring: { interval: price.interval, interval_count: 1, meter: null, usage_type: 'licensed' },
    tax_behavior: 'unspecified',
    type: 'recurring',
    unit_amount: price.amount,
    unit_amount_decimal: String(price.amount),
  } as unknown as Stripe.Price;
}

export function subscriptionShape(input: {
  id: string;
  itemId: string;
  customer: string;
  priceId: string;
  price: SandboxPrice;
  metadata: Record<string, string>;
  anchor: number;
  periodStart: number;
  periodEnd: number;
  created: number;
  latestInvoice: string;
}): Stripe.Subscription {
  return {
    id: input.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: input.anchor,
    billing_cycle_anchor_config: null,
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: input.created,
    currency: 'usd',
    customer: input.customer,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    description: null,
    discounts: [],
    ended_at: null,
    items: {
      object: 'list',
      data: [itemShape(input)],
      has_more: false,
      url: `/v1/subscription_items?subscription=${input.id}`,
    },
    latest_invoice: input.latestInvoice,
    livemode: false,
    metadata: input.metadata,
    pause_collection: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.created,
    status: 'active',
    test_clock: null,
    trial_end: null,
    trial_start: null,
  } as unknown as Stripe.Subscription;
}

export function itemShape(input: {
  itemId: string;
  id: string;
  priceId: string;
  price: SandboxPrice;
  periodStart: number;
  periodEnd: number;
  created: number;
}): Stripe.SubscriptionItem {
  return {
    id: input.itemId,
    object: 'subscription_item',
    created: input.created,
    current_period_end: input.periodEnd,
    current_period_start: input.periodStart,
    discounts: [],
    metadata: {},
    price: priceShape(input.priceId, input.price, input.created),
    quantity: 1,
    subscription: input.id,
    tax_rates: [],
  } as unknown as Stripe.SubscriptionItem;
}

export function invoiceShape(input: {
  customer: string;
  subscription: Stripe.Subscription;
  priceId: string;
  price: SandboxPrice;
  periodStart: number;
  periodEnd: number;
  reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  created: number;
}): Stripe.Invoice {
  const id = newId('in');
  return {
    id,
    object: 'invoice',
    amount_due: input.price.amount,
    amount_paid: 0,
    amount_remaining: input.price.amount,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    billing_reason: input.reason,
    collection_method: 'charge_automatically',
    created: input.created,
    currency: 'usd',
    customer: input.customer,
    hosted_invoice_url: null,
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${id.slice(3)}`,
          object: 'line_item',
          amount: input.price.amount,
          currency: 'usd',
          description: `1 × Omni ${input.price.product} (at $${(input.price.amount / 100).toFixed(2)} / ${input.price.interval})`,
          period: { start: input.periodStart, end: input.periodEnd },
          pricing: {
            type: 'price_details',
            price_details: { price: input.priceId, product: `prod_omni_${input.price.product}` },
            unit_amount_decimal: String(input.price.amount),
          },
          quantity: 1,
          subscription: input.subscription.id,
        },
      ],
      has_more: false,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: input.subscription.metadata, subscription: input.subscription.id },
    },
    period_end: input.periodStart,
    period_start: input.periodStart,
    status: 'open',
    status_transitions: {
      finalized_at: input.created,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: input.price.amount,
    total: input.price.amount,
  } as unknown as Stripe.Invoice;
}

export function portalSessionShape(input: {
  id: string;
  customer: string;
  returnUrl: string;
  url: string;
  created: number;
}): Stripe.BillingPortal.Session {
  return {
    id: input.id,
    object: 'billing_portal.session',
    configuration: 'bpc_sandbox',
    created: input.created,
    customer: input.customer,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: input.returnUrl,
    url: input.url,
  } as unknown as Stripe.BillingPortal.Session;
}

/** An event as Stripe sends it; previous_attributes holds the old values of what changed (updated events). */
export function eventShape(input: {
  type: string;
  object: { object: string };
  previous?: Record<string, unknown>;
  created: number;
}): Stripe.Event {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: input.created,
    data: input.previous
      ? { object: input.object, previous_attributes: input.previous }
      : { object: input.object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: input.type,
  } as unknown as Stripe.Event;
}

/** Stripe's previous_attributes: for each top-level field that changed, its old value. */
export function previousAttributes<T extends object>(before: T, after: T): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (JSON.stringify(b[key]) !== JSON.stringify(a[key])) previous[key] = b[key] ?? null;
  }
  return previous;
}
