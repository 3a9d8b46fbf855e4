// The events identity mails about (issue 21 §3.4): delivery's `delivery.updated` (a release approved,
// rejected, refused by a store, live, taken down), catalog's `release.created` (how many stores a release
// goes to, for the live mail), billing's `subscription.updated` (a payment that failed: past_due) and
// royalties' `split.invitation` (a collaborator's invitation link, an invitation that lapsed: issue 26).
// Each handler decides from the event and the state it keeps (domain/notifications.ts) and queues the
// mails in the consumer's transaction, so a redelivered event, already marked handled, mails nothing; the
// notifier sends them once committed.
import {
  consumeEvents,
  type DocumentStore,
  type EventBus,
  type Logger,
  type Subscription,
} from '@omni/platform';
import { releaseNotices, splitNotice, subscriptionNotices, topicOf } from '../domain/notifications';
import type { Notifications } from '../store/notifications';
import type { Notifier } from '../use-cases/notify';

export const NOTIFICATION_GROUPS = {
  delivery: 'identity.mail.delivery-updated',
  releases: 'identity.mail.release-created',
  billing: 'identity.mail.subscription-updated',
  splits: 'identity.mail.split-invitation',
} as const;

export async function consumeNotificationEvents(deps: {
  bus: EventBus;
  store: DocumentStore;
  notifications: Notifications;
  notifier: Notifier;
  logger: Logger;
}): Promise<Subscription[]> {
  const { bus, store, notifications, notifier, logger } = deps;
  return Promise.all([
    consumeEvents({
      bus,
      store,
      logger,
      groupId: NOTIFICATION_GROUPS.delivery,
      type: 'delivery.updated',
      async handle(event, { scope }) {
        const { releaseId, ownerId } = event.data;
        const before = await notifications.releaseState(scope, releaseId);
        const { next, notices } = releaseNotices(before, event.data);
        if (next === before) return;
        await notifications.saveReleaseState(scope, releaseId, ownerId, next);
        for (const notice of notices)
          await notifications.queue(scope, `${event.id}:${notice.kind}`, ownerId, topicOf(notice), notice);
        if (notices.length > 0) notifier.wake();
      },
    }),
    consumeEvents({
      bus,
      store,
      logger,
      groupId: NOTIFICATION_GROUPS.releases,
      type: 'release.created',
      async handle(event, { scope }) {
        const { releaseId, ownerId, stores } = event.data;
        await notifications.saveStoreCount(scope, releaseId, ownerId, stores.length);
      },
    }),
    consumeEvents({
      bus,
      store,
      logger,
      groupId: NOTIFICATION_GROUPS.billing,
      type: 'subscription.updated',
      async handle(event, { scope }) {
        const { subscriptionId, accountId } = event.data;
        const before = await notifications.subscriptionState(scope, subscriptionId);
        const { next, notices } = subscriptionNotices(before, event.data);
        if (before && next === before) return;
        await notifications.saveSubscriptionState(scope, subscriptionId, next);
        for (const notice of notices)
          await notifications.queue(scope, `${event.id}:${notice.kind}`, accountId, topicOf(notice), notice);
        if (notices.length > 0) notifier.wake();
      },
    }),
    consumeEvents({
      bus,
      store,
      logger,
      groupId: NOTIFICATION_GROUPS.splits,
      type: 'split.invitation',
      async handle(event, { scope }) {
        // Royalties' split invitations: the invitee's mail with the link, or the owner's lapse mail.
        const { to, userId, notice } = splitNotice(event.data);
        await notifications.queue(
          scope,
          `${event.id}:${notice.kind}`,
          userId,
          topicOf(notice),
          notice,
          to ?? undefined,
        );
        notifier.wake();
      },
    }),
  ]);
}
