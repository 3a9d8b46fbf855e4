// One provider subscription as billing holds it, and the rules that decide what it means.
//
// Entitlement follows the provider's status, never the wall clock: Stripe keeps a subscription `active`
// until the end of a period it was cancelled for, keeps it `past_due` while it retries a failed payment,
// and sends `customer.subscription.deleted` when access really ends. So `subscribed` is a function of the
// status alone, and the sandbox's own clock (which may run ahead of ours) needs no special case.

import type { Doc } from '@omni/platform';
import type { BillingProduct } from '@omni/proto/api';
import type { PaymentEvent, PreviousFacts, SubscriptionStatus } from '../providers/payments/port';

export type { SubscriptionFacts, SubscriptionStatus } from '../providers/payments/port';

export const ENTITLED_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

export const isEntitled = (status: SubscriptionStatus | undefined): boolean =>
  status !== undefined && ENTITLED_STATUSES.includes(status);

export interface SubscriptionDoc extends Doc {
  /** The provider's subscription id. */
  _id: string;
  /** '' until something ties the subscription to an account (metadata, customer or checkout session). */
  accountId: string;
  product: BillingProduct;
  customerId: string;
  /** Absent while only the checkout session is known (no subscription event yet). */
  status?: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  /** RFC 3339: when a scheduled cancellation takes effect (Stripe's cancel_at); access lasts until then. */
  cancelAt: string | null;
  /** RFC 3339, from items.data[0].current_period_end (the subscription's own field is gone in 2025+ APIs). */
  currentPeriodEnd: string | null;
  priceId: string;
  /** Ordering key of the event that wrote this state (see `isNewer`). 0/-1 before any subscription event. */
  version: number;
  rank: number;
  /** The tracked previous attributes of the event that wrote this state (ordering rule 4). */
  previous?: PreviousFacts;
  /** Set by customer.subscription.deleted: nothing changes this subscription afterwards. */
  final: boolean;
  /**
   * The last invoice outcome seen (invoice.paid / invoice.payment_failed), for the past-due story: `at`
   * is the event's time (seconds), `nextAttemptAt` when the provider charges again after a failure.
   */
  lastInvoice?: { status: 'paid' | 'failed'; at: number; invoiceId: string; nextAttemptAt?: number | null };
  updatedAt: string;
}

/**
 * THE ORDERING RULE. Stripe delivers at least once and in any order, so an event only writes state when
 * it is newer than the event that wrote the state held now. "Newer" is, in this order:
 *   1. `customer.subscription.deleted` is final for its subscription id: nothing after it changes it.
 *   2. A later `event.created` (seconds) is newer.
 *   3. Within one second, the event type's precedence: created (0) < updated, paused, resumed (1) <
 *      deleted (2). Checkout makes `created` and `updated` in the same second, and the update is the later
 *      state (incomplete → active).
 *   4. Two updates within one second: the incoming one is newer when its `data.previous_attributes` describe
 *      the state held (it was made from it), older when the held event's previous attributes describe the
 *      incoming state (the held one was made from it) or when it says the same. Without evidence either
 *      way the order is unknown (`tie`): the state held stays and billing re-reads the subscription from
 *      the provider to settle it (use-cases/settle-subscription.ts).
 */
export const EVENT_RANK: Record<Extract<PaymentEvent, { kind: 'subscription' }>['change'], number> = {
  created: 0,
  updated: 1,
  paused: 1,
  resumed: 1,
  deleted: 2,
};

export type Order = 'newer' | 'older' | 'tie';

type Held = Pick<SubscriptionDoc, 'version' | 'rank' | 'final' | 'status' | 'cancelAtPeriodEnd' | 'previous'>;

export function ordering(
  held: Held | null,
  incoming: {
    created: number;
    rank: number;
    previous?: PreviousFacts;
    status: SubscriptionStatus;
    cancelAtPeriodEnd: boolean;
  },
): Order {
  if (!held || held.status === undefined) return 'newer';
  if (held.final) return 'older';
  if (incoming.created !== held.version) return incoming.created > held.version ? 'newer' : 'older';
  if (incoming.rank !== held.rank) return incoming.rank > held.rank ? 'newer' : 'older';
  if (incoming.status === held.status && incoming.cancelAtPeriodEnd === held.cancelAtPeriodEnd)
    return 'older';
  if (madeFrom(incoming.previous, held)) return 'newer';
  if (madeFrom(held.previous, incoming)) return 'older';
  return 'tie';
}

/** True when the update's previous attributes (the fields it changed, with their old values) match `held`. */
function madeFrom(
  previous: PreviousFacts | undefined,
  held: { status?: SubscriptionStatus; cancelAtPeriodEnd: boolean },
): boolean {
  if (!previous) return false;
  let evidence = false;
  if (previous.status !== undefined) {
    if (previous.status !== held.status) return false;
    evidence = true;
  }
  if (previous.cancelAtPeriodEnd !== undefined) {
    if (previous.cancelAtPeriodEnd !== held.cancelAtPeriodEnd) return false;
    evidence = true;
  }
  return evidence;
}

/** When access ends or renews: a scheduled cancellation's date, else the current period's end. */
export const subscriptionEnd = (doc: Pick<SubscriptionDoc, 'cancelAt' | 'currentPeriodEnd'>) =>
  doc.cancelAt ?? doc.currentPeriodEnd;

/** The fields a reader (dashboard, finder, other services) sees; a change in them is announced. */
export const visibleState = (doc: SubscriptionDoc) =>
  JSON.stringify([
    doc.accountId,
    doc.product,
    doc.status ?? null,
    doc.cancelAtPeriodEnd,
    doc.cancelAt,
    doc.currentPeriodEnd,
    doc.priceId,
  ]);

/** Among an account's subscriptions to one product, the one that answers "am I subscribed?". */
export function currentOf(docs: SubscriptionDoc[]): SubscriptionDoc | undefined {
  const withStatus = docs.filter((d) => d.status !== undefined);
  const byRecency = [...withStatus].sort((a, b) => b.version - a.version || b.rank - a.rank);
  return byRecency.find((d) => isEntitled(d.status)) ?? byRecency[0];
}
