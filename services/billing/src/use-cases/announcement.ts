// The `subscription.updated` event for a subscription's state: the state after the change, so a consumer
// never replays history; `version` (the provider's event time) orders them per subscription. It carries
// what a mail about it needs without another call: the account (the Omni user), the status and the one
// readers were told before (a failed renewal is the move to past_due), when the period ends, and the last
// charge's outcome with the provider's next attempt.
import type { events } from '@omni/proto';
import { isEntitled, type SubscriptionDoc, subscriptionEnd } from '../domain/subscription';

type Announced = events.EventData<'subscription.updated'>;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** `previous`: the state readers were last told of this subscription, if any. */
export function announcement(doc: SubscriptionDoc, previous?: SubscriptionDoc | null): Announced {
  const last = doc.lastInvoice;
  return {
    accountId: doc.accountId,
    product: doc.product,
    subscriptionId: doc._id,
    // Stripe's statuses are the event's; a status Stripe adds later fails the event schema loudly.
    status: doc.status as Announced['status'],
    previousStatus: (previous?.accountId ? (previous.status ?? null) : null) as Announced['previousStatus'],
    ...(last
      ? {
          lastPayment: {
            outcome: last.status,
            at: iso(last.at),
            nextAttemptAt: last.status === 'failed' && last.nextAttemptAt ? iso(last.nextAttemptAt) : null,
          },
        }
      : {}),
    subscribed: isEntitled(doc.status),
    cancelAtPeriodEnd: doc.cancelAtPeriodEnd || doc.cancelAt !== null,
    currentPeriodEnd: subscriptionEnd(doc),
    priceId: doc.priceId,
    version: doc.version,
    updatedAt: doc.updatedAt,
  };
}
