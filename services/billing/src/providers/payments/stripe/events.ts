// Stripe's webhook events → billing's PaymentEvent, checked at the boundary. A signature proves who sent
// the bytes, not that each field is what billing's rules assume: a signed `current_period_end: 1e308`
// once reached `new Date(…).toISOString()` and answered 500. So every field billing reads is parsed here
// (ids are strings, times are whole seconds in a sane range, statuses are ones billing knows), and an
// event that does not fit is refused with a sentence naming the field (400; Stripe shows it in the
// endpoint's delivery log). Fields billing does not read are left alone: Stripe adds fields freely.
import { z } from 'zod';
import {
  type PaymentEvent,
  type PreviousFacts,
  SUBSCRIPTION_STATUSES,
  type SubscriptionFacts,
} from '../port';

/** Why a verified event was refused; the message names the field and is safe to show the sender. */
export class WebhookEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookEventError';
  }
}

/**
 * Unix seconds from 2000-01-01 to 2200-01-01: far wider than any real subscription (the sandbox clock
 * can run years ahead), far narrower than what breaks a date (JavaScript's end at 8.64e15 ms).
 */
export const EARLIEST_SECONDS = 946_684_800;
export const LATEST_SECONDS = 7_258_118_400;

// Range first, so 1e308 is named as out of range rather than as not whole.
const seconds = z
  .number({ error: 'must be a time in unix seconds' })
  .min(EARLIEST_SECONDS, 'must be a time after 2000-01-01')
  .max(LATEST_SECONDS, 'must be a time before 2200-01-01')
  .int('must be whole unix seconds');
const id = z.string().min(1).max(255);
/** An expandable reference: Stripe sends the id, or the object when expanded. */
const ref = z.union([id, z.object({ id })]).transform((v) => (typeof v === 'string' ? v : v.id));
const status = z.enum(SUBSCRIPTION_STATUSES, {
  error: `must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`,
});
const metadata = z.record(z.string(), z.string()).nullish();

const subscription = z.object({
  id,
  customer: ref,
  status,
  cancel_at_period_end: z.boolean().optional(),
  cancel_at: seconds.nullish(),
  items: z
    .object({
      data: z.array(z.object({ current_period_end: seconds.nullish(), price: z.object({ id }).nullish() })),
    })
    .nullish(),
  metadata,
});

const previousAttributes = z
  .object({ status: status.optional(), cancel_at_period_end: z.boolean().nullish() })
  .optional();

const session = z.object({
  id,
  subscription: ref.nullish(),
  customer: ref.nullish(),
  client_reference_id: z.string().max(255).nullish(),
  metadata,
});

const invoice = z.object({
  id: id.nullish(),
  next_payment_attempt: seconds.nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: ref.nullish() }).nullish() }).nullish(),
});

const envelope = z.object({
  id,
  type: z.string().min(1).max(255),
  created: seconds,
  livemode: z.boolean().optional(),
  data: z.object({ object: z.looseObject({}), previous_attributes: z.unknown().optional() }),
});

const SUBSCRIPTION_CHANGES = {
  'customer.subscription.created': 'created',
  'customer.subscription.updated': 'updated',
  'customer.subscription.deleted': 'deleted',
  'customer.subscription.paused': 'paused',
  'customer.subscription.resumed': 'resumed',
} as const;

/** Parses `value` with `schema`, or refuses the event naming the first field that does not fit. */
function read<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
  prefix = 'The webhook event is refused',
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [where, ...issue.path].join('.');
  throw new WebhookEventError(`${prefix}: ${path} ${issue.message.replace(/\.$/, '')}.`);
}

const iso = (value: number | null | undefined) =>
  typeof value === 'number' ? new Date(value * 1000).toISOString() : null;

/** A Stripe subscription object (an event's, or one retrieved from the API) in billing's terms. */
export function subscriptionFacts(value: unknown, where = 'subscription'): SubscriptionFacts {
  const sub = read(subscription, value, where);
  const item = sub.items?.data[0];
  return {
    id: sub.id,
    customerId: sub.customer,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    cancelAt: iso(sub.cancel_at),
    currentPeriodEnd: iso(item?.current_period_end),
    priceId: item?.price?.id ?? '',
    metadataAccountId: sub.metadata?.account_id ?? '',
    metadataProduct: sub.metadata?.product ?? '',
  };
}

/** A parsed Stripe event (JSON from verified bytes) in billing's terms, or WebhookEventError. */
export function paymentEventOf(raw: unknown): PaymentEvent {
  const event = read(envelope, raw, 'event', 'The webhook body is not a Stripe event');
  const base = { id: event.id, type: event.type, created: event.created, livemode: event.livemode === true };
  const object = event.data.object;
  const change = SUBSCRIPTION_CHANGES[event.type as keyof typeof SUBSCRIPTION_CHANGES];
  if (change) {
    const previous = read(previousAttributes, event.data.previous_attributes, 'data.previous_attributes');
    const tracked: PreviousFacts = {};
    if (previous?.status !== undefined) tracked.status = previous.status;
    if (previous && 'cancel_at_period_end' in previous)
      tracked.cancelAtPeriodEnd = previous.cancel_at_period_end === true;
    return {
      ...base,
      kind: 'subscription',
      change,
      subscription: subscriptionFacts(object, 'data.object'),
      ...(Object.keys(tracked).length > 0 ? { previous: tracked } : {}),
    };
  }
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.expired') {
    const s = read(session, object, 'data.object');
    return {
      ...base,
      kind: 'checkout',
      outcome: event.type === 'checkout.session.completed' ? 'completed' : 'expired',
      sessionId: s.id,
      subscriptionId: s.subscription ?? '',
      customerId: s.customer ?? '',
      accountId: s.client_reference_id ?? '',
      metadataProduct: s.metadata?.product ?? '',
    };
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const i = read(invoice, object, 'data.object');
    return {
      ...base,
      kind: 'invoice',
      outcome: event.type === 'invoice.paid' ? 'paid' : 'failed',
      invoiceId: i.id ?? '',
      subscriptionId: i.parent?.subscription_details?.subscription ?? '',
      nextAttemptAt: i.next_payment_attempt ?? null,
    };
  }
  return { ...base, kind: 'other' };
}
