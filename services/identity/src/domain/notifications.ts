// Which mails a release's delivery and an account's billing deserve (issue 21 §3.4): one per transition a
// person cares about, decided from the event and what identity remembers of the release or subscription
// before it. Pure, so the rules are tested without a bus or a mailbox (test/notifications.test.ts).
//
// Live: one mail per release, when the FIRST store puts it live ("live on Spotify, the first of its 20
// stores"), not one per store (20 stores would be 20 mails) and not only when every store is live (one
// slow or failing store would keep the good news back for days). The release page shows the rest.
// A store's refusal is one mail per refusing store: each carries that store's reason and asks the artist
// to act, which a digest would delay.
import type { events } from '@omni/proto';

/** 'splits' is no setting: an invitation is asked for by its owner, and a lapse needs the owner's choice. */
export type MailTopic = 'releases' | 'billing' | 'splits';

type SplitInvitation = events.EventData<'split.invitation'>;

/** A split invitation's mail (royalties' `split.invitation`): to the invitee, or to the owner on a lapse. */
export type SplitNotice =
  | ({ kind: 'split_invited' | 'split_resent' } & Omit<SplitInvitation, 'kind'>)
  | ({ kind: 'split_lapsed' } & Omit<SplitInvitation, 'kind' | 'link'>);

/** A release's or a payment's mail, to the account at its current address, as its settings allow. */
export type AccountNotice =
  | { kind: 'release_approved'; releaseId: string }
  | { kind: 'release_rejected'; releaseId: string; reason: string }
  | { kind: 'store_refused'; releaseId: string; store: string; reason: string }
  | { kind: 'release_live'; releaseId: string; store: string; storeCount: number | null }
  | { kind: 'release_taken_down'; releaseId: string }
  | { kind: 'payment_failed'; product: 'pro' | 'finder'; nextAttemptAt?: string | null };

export type Notice = AccountNotice | SplitNotice;

export const isSplitNotice = (notice: Notice): notice is SplitNotice => notice.kind.startsWith('split_');

export const topicOf = (notice: Notice): MailTopic =>
  isSplitNotice(notice) ? 'splits' : notice.kind === 'payment_failed' ? 'billing' : 'releases';

/**
 * Who a `split.invitation` is mailed to: an invitation (or its new link) goes to the invitee's address —
 * who may have no account yet —; a lapse goes to the owner's account. The lapse carries no link.
 */
export function splitNotice(event: SplitInvitation): {
  to: string | null;
  userId: string;
  notice: SplitNotice;
} {
  const { kind, ...rest } = event;
  if (kind === 'lapsed') {
    const { link: _link, ...noLink } = rest;
    return { to: null, userId: event.ownerId, notice: { kind: 'split_lapsed', ...noLink } };
  }
  return {
    to: event.email,
    userId: '',
    notice: { kind: kind === 'resent' ? 'split_resent' : 'split_invited', ...rest },
  };
}

/** What is kept of a notice once its mail went (or will never go): a link's secret is not kept. */
export const settledNotice = (notice: Notice): Notice =>
  isSplitNotice(notice) && 'link' in notice ? { ...notice, link: undefined } : notice;

/** What identity keeps of a release to see transitions: the last event's state. */
export interface ReleaseMailState {
  /** The highest delivery.updated version applied (0: none yet). */
  version: number;
  review: string | null;
  releaseStatus: string | null;
  /** Store key → its last status. */
  stores: Record<string, string>;
  liveMailed: boolean;
  /** How many stores the release was sent to (from release.created), when known. */
  storeCount: number | null;
}

export const emptyReleaseState = (): ReleaseMailState => ({
  version: 0,
  review: null,
  releaseStatus: null,
  stores: {},
  liveMailed: false,
  storeCount: null,
});

type DeliveryUpdated = events.EventData<'delivery.updated'>;

/** The notices an event brings and the state after it; an event not newer than the state brings none. */
export function releaseNotices(
  before: ReleaseMailState,
  event: DeliveryUpdated,
): { next: ReleaseMailState; notices: AccountNotice[] } {
  if (event.version <= before.version) return { next: before, notices: [] };
  const { releaseId } = event;
  const notices: AccountNotice[] = [];
  const next: ReleaseMailState = {
    ...before,
    version: event.version,
    releaseStatus: event.releaseStatus,
    stores: { ...before.stores },
  };
  if (event.target === null) {
    next.review = event.status;
    if (event.status !== before.review) {
      if (event.status === 'approved') notices.push({ kind: 'release_approved', releaseId });
      if (event.status === 'rejected')
        notices.push({
          kind: 'release_rejected',
          releaseId,
          reason: event.reason ?? 'The reviewer gave no reason.',
        });
    }
  } else {
    const was = before.stores[event.target];
    next.stores[event.target] = event.status;
    if (event.jobKind === 'ingest' && event.status !== was) {
      if (event.status === 'rejected')
        notices.push({
          kind: 'store_refused',
          releaseId,
          store: event.target,
          reason: event.reason ?? 'The store gave no reason.',
        });
      if (event.status === 'live' && !before.liveMailed) {
        next.liveMailed = true;
        notices.push({ kind: 'release_live', releaseId, store: event.target, storeCount: before.storeCount });
      }
    }
  }
  if (event.releaseStatus === 'taken_down' && before.releaseStatus !== 'taken_down') {
    notices.push({ kind: 'release_taken_down', releaseId });
    // Released again later, its first store going live is news again.
    next.liveMailed = false;
  }
  return { next, notices };
}

/** What identity keeps of a subscription: the last status applied and its version. */
export interface SubscriptionMailState {
  version: number;
  status: string | null;
}

type SubscriptionUpdated = events.EventData<'subscription.updated'>;

/**
 * A failed payment: the subscription has just become past_due. Its versions are the provider's event
 * times in seconds, so two changes can share one: only an OLDER version is stale.
 */
export function subscriptionNotices(
  before: SubscriptionMailState | null,
  event: SubscriptionUpdated,
): { next: SubscriptionMailState; notices: AccountNotice[] } {
  if (before && event.version < before.version) return { next: before, notices: [] };
  const next = { version: event.version, status: event.status };
  // What billing says it told before covers a subscription identity has not seen yet (events from before
  // identity consumed them).
  const was = before?.status ?? event.previousStatus ?? null;
  const notices: AccountNotice[] =
    event.status === 'past_due' && was !== 'past_due'
      ? [
          {
            kind: 'payment_failed',
            product: event.product,
            nextAttemptAt:
              event.lastPayment?.outcome === 'failed' ? event.lastPayment.nextAttemptAt : undefined,
          },
        ]
      : [];
  return { next, notices };
}
