// Two updates of one subscription within the same second, neither saying it was made from the other: their
// order is unknown, so billing asks the provider for the subscription as it is now and keeps that (Stripe's
// advice: "compare the object's own timestamps or re-read it"). The re-read keeps the ordering key of the
// state held, so any later event still wins. When the provider cannot be reached, the state held stays:
// the next event for the subscription brings it up to date anyway.
import { type SubscriptionDoc, type SubscriptionFacts, visibleState } from '../domain/subscription';
import { announcement } from './announcement';
import type { BillingContext } from './context';

export async function settleSubscription(ctx: BillingContext, subscriptionId: string, version: number) {
  let facts: SubscriptionFacts;
  try {
    facts = await ctx.payments().retrieveSubscription(subscriptionId);
  } catch (err) {
    ctx.logger.warn({ err, subscriptionId }, 'could not re-read a subscription to settle a same-second tie');
    return;
  }
  let announced = false;
  await ctx.store.transaction(async (scope) => {
    announced = false;
    const held = await ctx.subscriptions.byId(scope, subscriptionId);
    // Only the tie it was asked to settle: a newer event applied meanwhile wins.
    if (!held || held.final || held.version !== version) return;
    const next: SubscriptionDoc = {
      ...held,
      status: facts.status,
      cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
      cancelAt: facts.cancelAt,
      currentPeriodEnd: facts.currentPeriodEnd,
      priceId: facts.priceId || held.priceId,
      updatedAt: new Date().toISOString(),
    };
    delete next.previous;
    if (visibleState(next) === visibleState(held)) return;
    await ctx.subscriptions.put(scope, next);
    if (next.accountId) {
      await ctx.outbox.add(scope, 'subscription.updated', next.accountId, announcement(next, held));
      announced = true;
    }
  });
  if (announced) void ctx.outbox.flush().catch(() => undefined);
}
