// Stripe-shaped webhook events for tests and the bench: subscriptions with their period on the item (API
// 2025+), checkout sessions, invoices with `parent.subscription_details`, signed exactly as Stripe signs
// them (stripe.webhooks.generateTestHeaderString), and posted raw to the gateway's webhook endpoint.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';

export const TEST_WEBHOOK_SECRET = 'whsec_test_billing_core_0123456789';

export interface SubState {
  id: string;
  customer: string;
  accountId?: string;
  product?: 'pro' | 'finder';
  status: Stripe.Subscription.Status;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  periodEnd: number;
  price: string;
}

export function subscriptionObject(s: SubState) {
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    cancel_at: s.cancelAt,
    canceled_at: s.status === 'canceled' ? s.periodEnd : null,
    metadata: s.accountId ? { account_id: s.accountId, product: s.product ?? 'pro' } : {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${s.id}`,
          object: 'subscription_item',
          current_period_start: s.periodEnd - 30 * 86400,
          current_period_end: s.periodEnd,
          price: { id: s.price, object: 'price' },
          quantity: 1,
        },
      ],
    },
  };
}

export interface StripeEventJson {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

export function event(
  type: string,
  created: number,
  object: Record<string, unknown>,
  previous?: Record<string, unknown>,
): StripeEventJson {
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created,
    livemode: false,
    api_version: '2026-10-28.endive',
    data: { object, ...(previous ? { previous_attributes: previous } : {}) },
  };
}

export const checkoutCompleted = (created: number, s: SubState, accountId: string) =>
  event('checkout.session.completed', created, {
    id: `cs_${s.id}`,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    client_reference_id: accountId,
    customer: s.customer,
    subscription: s.id,
    metadata: {},
  });

export const invoiceEvent = (type: 'invoice.paid' | 'invoice.payment_failed', created: number, s: SubState) =>
  event(type, created, {
    id: `in_${randomUUID().slice(0, 12)}`,
    object: 'invoice',
    customer: s.customer,
    status: type === 'invoice.paid' ? 'paid' : 'open',
    parent: { type: 'subscription_details', subscription_details: { subscription: s.id } },
  });

export function sign(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
}

/** Posts one event as Stripe does: its JSON bytes, the Stripe-Signature header. */
export function postEvent(
  baseUrl: string,
  body: string | StripeEventJson,
  signature?: string,
): Promise<Response> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return fetch(`${baseUrl}/api/billing/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signature ?? sign(payload),
    },
    body: payload,
  });
}

/**
 * A realistic life of one subscription, as Stripe would send it: checkout (created + updated in the same
 * second, then the session), renewals, a failed renewal (past_due) and its recovery, cancel at period end,
 * resume, and optionally the end (deleted). Returns the events in the provider's order and the state the
 * provider holds after the last one.
 */
export function lifecycle(options: {
  accountId: string;
  price: string;
  start: number;
  renewals: number;
  end: 'deleted' | 'past_due' | 'cancel_at_period_end' | 'active';
  rand: () => number;
}): { events: StripeEventJson[]; final: SubState } {
  const { accountId, start, rand } = options;
  const period = 30 * 86400;
  const s: SubState = {
    id: `sub_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    customer: `cus_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
    accountId,
    product: 'pro',
    status: 'incomplete',
    cancelAtPeriodEnd: false,
    cancelAt: null,
    periodEnd: start + period,
    price: options.price,
  };
  const events: StripeEventJson[] = [];
  let t = start;
  const snapshot = () => subscriptionObject({ ...s });
  events.push(event('customer.subscription.created', t, snapshot()));
  s.status = 'active';
  events.push(event('customer.subscription.updated', t, snapshot(), { status: 'incomplete' }));
  events.push(checkoutCompleted(t, s, accountId));
  events.push(invoiceEvent('invoice.paid', t, s));
  const update = (previous: Record<string, unknown>) => {
    t += 1 + Math.floor(rand() * 5);
    events.push(event('customer.subscription.updated', t, snapshot(), previous));
  };
  for (let i = 0; i < options.renewals; i++) {
    const roll = rand();
    if (roll < 0.3) {
      // A failed renewal: Stripe retries; access stays while past_due, then the payment succeeds.
      t += 1;
      events.push(invoiceEvent('invoice.payment_failed', t, s));
      s.status = 'past_due';
      update({ status: 'active' });
      s.status = 'active';
      s.periodEnd += period;
      update({ status: 'past_due', items: {} });
      events.push(invoiceEvent('invoice.paid', t, s));
    } else if (roll < 0.5) {
      s.cancelAtPeriodEnd = true;
      s.cancelAt = s.periodEnd;
      update({ cancel_at_period_end: false, cancel_at: null });
      s.cancelAtPeriodEnd = false;
      s.cancelAt = null;
      update({ cancel_at_period_end: true, cancel_at: s.periodEnd });
    } else {
      s.periodEnd += period;
      update({ items: {} });
      events.push(invoiceEvent('invoice.paid', t, s));
    }
  }
  if (options.end === 'past_due') {
    s.status = 'past_due';
    update({ status: 'active' });
  } else if (options.end === 'cancel_at_period_end' || options.end === 'deleted') {
    s.cancelAtPeriodEnd = true;
    s.cancelAt = s.periodEnd;
    update({ cancel_at_period_end: false, cancel_at: null });
  }
  if (options.end === 'deleted') {
    s.status = 'canceled';
    t += 1;
    events.push(event('customer.subscription.deleted', t, snapshot()));
  }
  return { events, final: { ...s } };
}

/** A small seeded generator, so a failing shuffle can be replayed. */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}
