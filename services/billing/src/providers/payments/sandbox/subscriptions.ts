// What happens to a subscription after checkout: the portal's actions (cancel now, cancel at period end,
// resume, switch monthly/annual) and the clock's renewals and payment retries. Each change emits the
// events Stripe emits for it, with previous_attributes holding the old values of what changed.
import type { TransactionScope } from '@omni/platform';
import type Stripe from 'stripe';
import { DAY, periodEnd } from './calendar';
import { paidInvoice } from './checkout';
import type { SandboxContext } from './context';
import type { EventQueue } from './outbox';
import type { CustomerDoc, InvoiceDoc, SubscriptionDoc } from './records';
import { invoiceShape, itemShape, previousAttributes } from './shapes';

/** Stripe's retries of a failed renewal: the 2nd attempt 3 days after the 1st, the 3rd 5 days later; then it cancels. */
export const RETRY_AFTER_DAYS = [3, 5];
export const MAX_ATTEMPTS = RETRY_AFTER_DAYS.length + 1;

export type PortalAction =
  | { kind: 'cancel' }
  | { kind: 'cancel_at_period_end' }
  | { kind: 'resume' }
  | { kind: 'switch'; price: string };

export const currentPeriodEnd = (s: Stripe.Subscription) => s.items.data[0]!.current_period_end;

/** A portal action on one of the customer's subscriptions; the message says why it cannot be done. */
export async function applyPortalAction(
  ctx: SandboxContext,
  customer: string,
  subscriptionId: string,
  action: PortalAction,
): Promise<{ error?: string }> {
  return ctx.change(async (scope, events, now) => {
    const subs = scope.collection<SubscriptionDoc>('subscriptions');
    const doc = await subs.findOne({ _id: subscriptionId, customer });
    if (!doc) return { error: 'No such subscription for this customer.' };
    const before = doc.object;
    if (doc.state === 'ended') return { error: 'This subscription has already ended.' };
    switch (action.kind) {
      case 'cancel':
        await end(scope, events, doc, now);
        return {};
      case 'cancel_at_period_end': {
        if (before.cancel_at_period_end) return { error: 'This subscription is already set to cancel.' };
        const after: Stripe.Subscription = {
          ...before,
          cancel_at_period_end: true,
          cancel_at: currentPeriodEnd(before),
          canceled_at: now,
          cancellation_details: {
            comment: null,
            feedback: null,
            feedback_option: null,
            reason: 'cancellation_requested',
          },
        };
        await update(scope, events, doc, after);
        return {};
      }
      case 'resume': {
        if (!before.cancel_at_period_end) return { error: 'This subscription is not set to cancel.' };
        const after: Stripe.Subscription = {
          ...before,
          cancel_at_period_end: false,
          cancel_at: null,
          canceled_at: null,
          cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
        };
        await update(scope, events, doc, after);
        return {};
      }
      case 'switch':
        return switchPrice(ctx, scope, events, doc, action.price, now);
    }
  });
}

/**
 * Monthly ↔ annual. A change of interval restarts the billing cycle now and invoices the new price at
 * once (Stripe's behaviour for an interval change; the sandbox does not prorate the unused time).
 */
async function switchPrice(
  ctx: SandboxContext,
  scope: TransactionScope,
  events: EventQueue,
  doc: SubscriptionDoc,
  priceId: string,
  now: number,
): Promise<{ error?: string }> {
  const price = ctx.prices[priceId];
  const current = ctx.prices[doc.price]!;
  if (!price || price.product !== current.product) return { error: 'Choose a plan of the same product.' };
  if (priceId === doc.price) return { error: 'The subscription is already on this plan.' };
  if (doc.dunning) return { error: 'Pay the open invoice before changing plan.' };
  const before = doc.object;
  const item = itemShape({
    itemId: before.items.data[0]!.id,
    id: before.id,
    priceId,
    price,
    periodStart: now,
    periodEnd: periodEnd(now, price.interval, 1),
    created: before.items.data[0]!.created,
  });
  const invoice = invoiceShape({
    customer: doc.customer,
    subscription: before,
    priceId,
    price,
    periodStart: now,
    periodEnd: item.current_period_end,
    reason: 'subscription_update',
    created: now,
  });
  const after: Stripe.Subscription = {
    ...before,
    billing_cycle_anchor: now,
    cancel_at: before.cancel_at_period_end ? item.current_period_end : before.cancel_at,
    items: { ...before.items, data: [item] },
    latest_invoice: invoice.id,
  };
  await scope
    .collection<SubscriptionDoc>('subscriptions')
    .updateOne({ _id: doc._id }, { $set: { price: priceId, periods: 1 } });
  await charge(scope, events, { ...doc, price: priceId, periods: 1 }, after, invoice, now);
  return {};
}

/**
 * The portal's "Update card": the new card becomes the customer's, and (as Stripe's portal does for a
 * past_due subscription) the open invoices are charged to it at once. A card that attaches but fails
 * its charges (4000 0000 0000 0341) is saved without a charge: the scheduled retries go on and fail.
 */
export async function updateCard(
  ctx: SandboxContext,
  customer: string,
  card: { last4: string; renewals: 'succeed' | 'fail' },
): Promise<{ paid: number }> {
  return ctx.change(async (scope, events, now) => {
    await scope.collection<CustomerDoc>('customers').updateOne({ _id: customer }, { $set: { card } });
    if (card.renewals === 'fail') return { paid: 0 };
    const owing = (
      await scope.collection<SubscriptionDoc>('subscriptions').find({ customer, state: 'live' })
    ).filter((doc) => doc.dunning);
    for (const doc of owing) await retry(scope, events, doc, now);
    return { paid: owing.length };
  });
}

/** What the clock does at time `at` for one subscription: retry its open invoice, or end or renew its period. */
export async function runDue(ctx: SandboxContext, subscriptionId: string, at: number): Promise<void> {
  await ctx.change(async (scope, events) => {
    const doc = await scope.collection<SubscriptionDoc>('subscriptions').findById(subscriptionId);
    if (!doc || doc.state === 'ended') return;
    const before = doc.object;
    if (doc.dunning && doc.dunning.nextAttempt <= at) return retry(scope, events, doc, at);
    if (currentPeriodEnd(before) > at) return;
    if (before.cancel_at_period_end) return end(scope, events, doc, currentPeriodEnd(before));
    const price = ctx.prices[doc.price]!;
    const start = currentPeriodEnd(before);
    const next = periodEnd(before.billing_cycle_anchor, price.interval, doc.periods + 1);
    const item = { ...before.items.data[0]!, current_period_start: start, current_period_end: next };
    const invoice = invoiceShape({
      customer: doc.customer,
      subscription: before,
      priceId: doc.price,
      price,
      periodStart: start,
      periodEnd: next,
      reason: 'subscription_cycle',
      created: at,
    });
    const after: Stripe.Subscription = {
      ...before,
      items: { ...before.items, data: [item] },
      latest_invoice: invoice.id,
    };
    await scope
      .collection<SubscriptionDoc>('subscriptions')
      .updateOne({ _id: doc._id }, { $set: { periods: doc.periods + 1 } });
    await charge(scope, events, { ...doc, periods: doc.periods + 1 }, after, invoice, at);
  });
}

/** When the clock next has something to do for this subscription (unix seconds), or undefined. */
export function nextDue(doc: SubscriptionDoc): number | undefined {
  if (doc.state === 'ended') return undefined;
  return doc.dunning ? doc.dunning.nextAttempt : currentPeriodEnd(doc.object);
}

/** Charges the saved card for `invoice` and records the subscription as `after` plus the outcome. */
async function charge(
  scope: TransactionScope,
  events: EventQueue,
  doc: SubscriptionDoc,
  after: Stripe.Subscription,
  invoice: Stripe.Invoice,
  at: number,
): Promise<void> {
  const customer = await scope.collection<CustomerDoc>('customers').findById(doc.customer);
  const invoices = scope.collection<InvoiceDoc>('invoices');
  if (customer?.card?.renewals !== 'fail') {
    const paid = paidInvoice(invoice, at);
    await invoices.insertOne({ _id: paid.id, subscription: doc._id, object: paid });
    await update(scope, events, doc, { ...after, status: 'active' });
    await events.emit(doc._id, 'invoice.paid', paid);
    return;
  }
  const failed: Stripe.Invoice = {
    ...invoice,
    attempt_count: 1,
    attempted: true,
    next_payment_attempt: at + RETRY_AFTER_DAYS[0]! * DAY,
  };
  await invoices.insertOne({ _id: failed.id, subscription: doc._id, object: failed });
  await scope
    .collection<SubscriptionDoc>('subscriptions')
    .updateOne(
      { _id: doc._id },
      { $set: { dunning: { invoice: failed.id, attempts: 1, nextAttempt: failed.next_payment_attempt! } } },
    );
  await events.emit(doc._id, 'invoice.payment_failed', failed);
  await update(scope, events, doc, { ...after, status: 'past_due' });
}

/** A retry of the open invoice: paid → active again; failed → wait for the next, or cancel after the last. */
async function retry(scope: TransactionScope, events: EventQueue, doc: SubscriptionDoc, at: number) {
  const dunning = doc.dunning!;
  const invoices = scope.collection<InvoiceDoc>('invoices');
  const subs = scope.collection<SubscriptionDoc>('subscriptions');
  const invoice = (await invoices.findById(dunning.invoice))!.object;
  const customer = await scope.collection<CustomerDoc>('customers').findById(doc.customer);
  const attempts = dunning.attempts + 1;
  if (customer?.card?.renewals !== 'fail') {
    const paid = paidInvoice({ ...invoice, attempt_count: dunning.attempts }, at);
    await invoices.updateOne({ _id: paid.id }, { $set: { object: paid } });
    await subs.updateOne({ _id: doc._id }, { $unset: { dunning: true } });
    await events.emit(doc._id, 'invoice.paid', paid);
    await update(scope, events, doc, { ...doc.object, status: 'active' });
    return;
  }
  const last = attempts >= MAX_ATTEMPTS;
  const failed: Stripe.Invoice = {
    ...invoice,
    attempt_count: attempts,
    next_payment_attempt: last ? null : at + RETRY_AFTER_DAYS[attempts - 1]! * DAY,
  };
  await invoices.updateOne({ _id: failed.id }, { $set: { object: failed } });
  await events.emit(doc._id, 'invoice.payment_failed', failed);
  if (last) {
    await subs.updateOne({ _id: doc._id }, { $unset: { dunning: true } });
    await end(scope, events, doc, at, 'payment_failed');
    return;
  }
  await subs.updateOne(
    { _id: doc._id },
    { $set: { dunning: { invoice: failed.id, attempts, nextAttempt: failed.next_payment_attempt! } } },
  );
}

async function update(
  scope: TransactionScope,
  events: EventQueue,
  doc: SubscriptionDoc,
  after: Stripe.Subscription,
) {
  const previous = previousAttributes(doc.object, after);
  await scope
    .collection<SubscriptionDoc>('subscriptions')
    .updateOne({ _id: doc._id }, { $set: { object: after } });
  if (Object.keys(previous).length > 0)
    await events.emit(doc._id, 'customer.subscription.updated', after, previous);
}

/** Cancels now (the portal, the end of a period set to cancel, or the last failed retry): deleted. */
async function end(
  scope: TransactionScope,
  events: EventQueue,
  doc: SubscriptionDoc,
  at: number,
  reason: 'cancellation_requested' | 'payment_failed' = 'cancellation_requested',
) {
  const after: Stripe.Subscription = {
    ...doc.object,
    status: 'canceled',
    canceled_at: doc.object.canceled_at ?? at,
    ended_at: at,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason },
  };
  await scope
    .collection<SubscriptionDoc>('subscriptions')
    .updateOne({ _id: doc._id }, { $set: { object: after, state: 'ended' } });
  await events.emit(doc._id, 'customer.subscription.deleted', after);
}
