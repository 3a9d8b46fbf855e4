// The `subscription.updated` event for a subscription's state: the state after the change, so a consumer
// never replays history; `version` (the provider's event time) orders them per subscription.
import type { events } from '@omni/proto';
import { isEntitled, type SubscriptionDoc, subscriptionEnd } from '../domain/subscription';

export function announcement(doc: SubscriptionDoc): events.EventData<'subscription.updated'> {
  return {
    accountId: doc.accountId,
    product: doc.product,
    subscriptionId: doc._id,
    // Stripe's statuses are the event's; a status Stripe adds later fails the event schema loudly.
    status: doc.status as events.EventData<'subscription.updated'>['status'],
    subscribed: isEntitled(doc.status),
    cancelAtPeriodEnd: doc.cancelAtPeriodEnd || doc.cancelAt !== null,
    currentPeriodEnd: subscriptionEnd(doc),
    priceId: doc.priceId,
    version: doc.version,
    updatedAt: doc.updatedAt,
  };
}
