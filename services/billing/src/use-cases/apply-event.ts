// A verified webhook event, applied once. In ONE transaction: the dedupe check on the event id, the state
// change (only when the event is newer than the state held: domain/subscription.ts's ordering rule), the
// audit row, and the `subscription.updated` event in the outbox when what readers see changed. So a
// redelivery, a crash half-way or two deliveries racing can never apply an event twice or lose one.
import { DuplicateKeyError, type TransactionScope } from '@omni/platform';
import { type BillingProduct, PRODUCTS } from '@omni/proto/api';
import { EVENT_RANK, ordering, type SubscriptionDoc, visibleState } from '../domain/subscription';
import type { PaymentEvent } from '../providers/payments/port';
import type { EventOutcome } from '../store/webhook-events';
import { announcement } from './announcement';
import type { BillingContext } from './context';
import { settleSubscription } from './settle-subscription';
import { verifiedEvent } from './verify-webhook';

interface Outcome {
  outcome: EventOutcome;
  note: string;
  subscriptionId: string;
  accountId: string;
  /** The state to announce, when what readers see changed. */
  announce?: SubscriptionDoc;
  /** The state held before the change (what readers were told, when it had an account). */
  before?: SubscriptionDoc | null;
  /** The order against the state held is unknown: re-read the subscription from the provider. */
  settle?: boolean;
}

export async function handleWebhook(ctx: BillingContext, payload: Buffer, signature: string) {
  const event = verifiedEvent(ctx.verifyWebhook, payload, signature);
  const received = new Date().toISOString();
  let announced = false;
  let settle = '';
  try {
    const applied = await ctx.store.transaction(async (scope) => {
      announced = false;
      settle = '';
      if (await ctx.webhookEvents.seen(scope, event.id)) return false;
      const result = await dispatch(ctx, scope, event);
      await ctx.webhookEvents.record(scope, {
        _id: event.id,
        type: event.type,
        created: event.created,
        received,
        applied: result.outcome === 'applied',
        outcome: result.outcome,
        note: result.note,
        subscriptionId: result.subscriptionId,
        accountId: result.accountId,
        livemode: event.livemode,
      });
      if (result.announce) {
        await ctx.outbox.add(
          scope,
          'subscription.updated',
          result.announce.accountId,
          announcement(result.announce, result.before),
        );
        announced = true;
      }
      if (result.settle) settle = result.subscriptionId;
      return true;
    });
    if (announced) void ctx.outbox.flush().catch(() => undefined);
    if (settle) await settleSubscription(ctx, settle, event.created);
    return { eventId: event.id, applied };
  } catch (err) {
    // The same event delivered twice at once: the other delivery recorded it first.
    if (err instanceof DuplicateKeyError) return { eventId: event.id, applied: false };
    throw err;
  }
}

type EventOf<K extends PaymentEvent['kind']> = Extract<PaymentEvent, { kind: K }>;

function dispatch(ctx: BillingContext, scope: TransactionScope, event: PaymentEvent): Promise<Outcome> {
  switch (event.kind) {
    case 'subscription':
      return applySubscription(ctx, scope, event);
    case 'checkout':
      return applyCheckoutSession(ctx, scope, event);
    case 'invoice':
      return applyInvoice(ctx, scope, event);
    case 'other':
      return Promise.resolve({
        outcome: 'ignored',
        note: 'billing does not act on this event type',
        subscriptionId: '',
        accountId: '',
      });
  }
}

const isProduct = (value: string): value is BillingProduct => (PRODUCTS as readonly string[]).includes(value);

/** Links an event to an account: the subscription's metadata (set at checkout), what is held, the customer. */
async function accountFor(
  ctx: BillingContext,
  scope: TransactionScope,
  metadataAccountId: string,
  held: SubscriptionDoc | null,
  customerId: string,
): Promise<string> {
  if (metadataAccountId) return metadataAccountId;
  if (held?.accountId) return held.accountId;
  if (!customerId) return '';
  return (await ctx.customers.byCustomerId(customerId, scope))?._id ?? '';
}

async function applySubscription(
  ctx: BillingContext,
  scope: TransactionScope,
  event: EventOf<'subscription'>,
): Promise<Outcome> {
  const facts = event.subscription;
  const held = await ctx.subscriptions.byId(scope, facts.id);
  const rank = EVENT_RANK[event.change];
  const previous = event.previous;
  const accountId = await accountFor(ctx, scope, facts.metadataAccountId, held, facts.customerId);
  const base = { subscriptionId: facts.id, accountId };
  const order = ordering(held, { created: event.created, rank, previous, ...facts });
  if (order === 'tie')
    return {
      ...base,
      outcome: 'stale',
      note: 'same second as the state held; settled by re-reading',
      settle: true,
    };
  if (order === 'older')
    return {
      ...base,
      outcome: 'stale',
      note: held?.final ? 'the subscription was deleted before' : 'older than the state held',
    };
  const product =
    ctx.plans.productOf(facts.priceId) ??
    (isProduct(facts.metadataProduct) ? facts.metadataProduct : undefined) ??
    held?.product;
  if (!product)
    return { ...base, outcome: 'ignored', note: `price ${facts.priceId} is not one of our plans` };
  const next: SubscriptionDoc = {
    _id: facts.id,
    accountId,
    product,
    customerId: facts.customerId,
    status: facts.status,
    cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
    cancelAt: facts.cancelAt,
    currentPeriodEnd: facts.currentPeriodEnd,
    priceId: facts.priceId,
    version: event.created,
    rank,
    final: event.change === 'deleted',
    ...(previous ? { previous } : {}),
    ...(held?.lastInvoice ? { lastInvoice: held.lastInvoice } : {}),
    updatedAt: new Date().toISOString(),
  };
  await ctx.subscriptions.put(scope, next);
  const changed = !held || visibleState(held) !== visibleState(next);
  return {
    ...base,
    outcome: 'applied',
    note: '',
    ...(changed && accountId ? { announce: next, before: held } : {}),
  };
}

/**
 * A completed checkout ties its subscription and customer to the account (client_reference_id), even
 * when the subscription's own events came first; an expired one lets the next click start a new attempt.
 */
async function applyCheckoutSession(
  ctx: BillingContext,
  scope: TransactionScope,
  event: EventOf<'checkout'>,
): Promise<Outcome> {
  const { sessionId, subscriptionId, customerId } = event;
  const attempt = await ctx.attempts.bySession(scope, sessionId);
  const accountId = event.accountId || attempt?.accountId || '';
  if (event.outcome === 'expired') {
    await ctx.attempts.close(scope, sessionId, 'expired');
    return { outcome: 'applied', note: 'checkout expired', subscriptionId, accountId };
  }
  await ctx.attempts.close(scope, sessionId, 'completed');
  if (accountId && customerId) await ctx.customers.linkInScope(scope, accountId, customerId);
  if (!subscriptionId || !accountId)
    return { outcome: 'applied', note: 'no subscription', subscriptionId, accountId };
  const held = await ctx.subscriptions.byId(scope, subscriptionId);
  if (held) {
    if (held.accountId) return { outcome: 'applied', note: 'already linked', subscriptionId, accountId };
    const linked = { ...held, accountId, updatedAt: new Date().toISOString() };
    await ctx.subscriptions.put(scope, linked);
    return {
      outcome: 'applied',
      note: '',
      subscriptionId,
      accountId,
      ...(linked.status ? { announce: linked, before: held } : {}),
    };
  }
  const metaProduct = event.metadataProduct;
  const product = attempt?.product ?? (isProduct(metaProduct) ? metaProduct : undefined);
  if (!product)
    return {
      outcome: 'applied',
      note: 'product unknown until the subscription event',
      subscriptionId,
      accountId,
    };
  // Known before its first subscription event: no status yet, so it reads as not subscribed.
  await ctx.subscriptions.put(scope, {
    _id: subscriptionId,
    accountId,
    product,
    customerId,
    cancelAtPeriodEnd: false,
    cancelAt: null,
    currentPeriodEnd: null,
    priceId: attempt?.priceId ?? '',
    version: 0,
    rank: -1,
    final: false,
    updatedAt: new Date().toISOString(),
  });
  return { outcome: 'applied', note: '', subscriptionId, accountId };
}

/**
 * Invoices do not carry the subscription's state (Stripe sends customer.subscription.updated for each
 * status change, e.g. to past_due); billing records the last outcome on the subscription for the story.
 */
async function applyInvoice(
  ctx: BillingContext,
  scope: TransactionScope,
  event: EventOf<'invoice'>,
): Promise<Outcome> {
  const { subscriptionId } = event;
  const held = subscriptionId ? await ctx.subscriptions.byId(scope, subscriptionId) : null;
  const base = { subscriptionId, accountId: held?.accountId ?? '' };
  if (!held) return { ...base, outcome: 'recorded', note: 'no subscription held for this invoice' };
  if (held.lastInvoice && held.lastInvoice.at > event.created)
    return { ...base, outcome: 'stale', note: 'an invoice outcome newer than this one is held' };
  await ctx.subscriptions.put(scope, {
    ...held,
    lastInvoice: {
      status: event.outcome,
      at: event.created,
      invoiceId: event.invoiceId,
      nextAttemptAt: event.outcome === 'failed' ? event.nextAttemptAt : null,
    },
  });
  return { ...base, outcome: 'applied', note: '' };
}
