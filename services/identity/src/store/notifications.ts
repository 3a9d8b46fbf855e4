// The mails about releases and payments waiting to go, and what identity remembers of each release and
// subscription to see transitions (domain/notifications.ts). A notice is written in the same transaction
// as the consumer's "event handled" marker and the state it changed, and mailed after, by the sender
// (use-cases/notify.ts): a mail is never sent for an event that was not recorded, and a redelivered
// event, already marked, writes nothing. Its _id is the event's id and kind, so even a replay outside the
// consumer's marker cannot queue it twice.
import { type Doc, type DocumentStore, DuplicateKeyError, type TransactionScope } from '@omni/platform';
import {
  emptyReleaseState,
  type MailTopic,
  type Notice,
  type ReleaseMailState,
  type SubscriptionMailState,
  settledNotice,
} from '../domain/notifications';

export type NotificationStatus = 'pending' | 'sending' | 'sent' | 'skipped' | 'failed';

export interface NotificationDoc extends Doc {
  /** The account mailed at its current address; '' when the mail goes to `to` (a split invitee). */
  userId: string;
  /** An address with or without an account (a split invitation); absent: the account's address. */
  to?: string;
  topic: MailTopic;
  notice: Notice;
  status: NotificationStatus;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  /** Why it was skipped or failed (no account any more, turned off, the mail transport's error name). */
  note?: string;
}

interface ReleaseStateDoc extends Doc, ReleaseMailState {
  ownerId: string;
}
interface SubscriptionStateDoc extends Doc, SubscriptionMailState {}

export const NOTIFICATIONS = 'notifications';
const RELEASE_STATE = 'release_mail_state';
const SUBSCRIPTION_STATE = 'subscription_mail_state';

export class Notifications {
  private readonly notifications;

  constructor(private readonly store: DocumentStore) {
    this.notifications = store.collection<NotificationDoc>(NOTIFICATIONS, {
      indexes: [{ fields: { status: 1, createdAt: 1 } }],
    });
    store.collection<ReleaseStateDoc>(RELEASE_STATE);
    store.collection<SubscriptionStateDoc>(SUBSCRIPTION_STATE);
  }

  async releaseState(scope: TransactionScope, releaseId: string): Promise<ReleaseMailState> {
    const doc = await scope.collection<ReleaseStateDoc>(RELEASE_STATE).findById(releaseId);
    if (!doc) return emptyReleaseState();
    const { _id, ownerId, ...state } = doc;
    return { ...emptyReleaseState(), ...state };
  }

  async saveReleaseState(
    scope: TransactionScope,
    releaseId: string,
    ownerId: string,
    state: ReleaseMailState,
  ): Promise<void> {
    await scope
      .collection<ReleaseStateDoc>(RELEASE_STATE)
      .updateOne({ _id: releaseId }, { $set: { ...state, ownerId } }, { upsert: true });
  }

  /** From release.created: how many stores the release goes to (the live mail names it). */
  async saveStoreCount(scope: TransactionScope, releaseId: string, ownerId: string, storeCount: number) {
    await scope
      .collection<ReleaseStateDoc>(RELEASE_STATE)
      .updateOne({ _id: releaseId }, { $set: { storeCount, ownerId } }, { upsert: true });
  }

  async subscriptionState(scope: TransactionScope, id: string): Promise<SubscriptionMailState | null> {
    const doc = await scope.collection<SubscriptionStateDoc>(SUBSCRIPTION_STATE).findById(id);
    return doc ? { version: doc.version, status: doc.status } : null;
  }

  async saveSubscriptionState(scope: TransactionScope, id: string, state: SubscriptionMailState) {
    await scope
      .collection<SubscriptionStateDoc>(SUBSCRIPTION_STATE)
      .updateOne({ _id: id }, { $set: { ...state } }, { upsert: true });
  }

  async queue(
    scope: TransactionScope,
    key: string,
    userId: string,
    topic: MailTopic,
    notice: Notice,
    to?: string,
  ): Promise<void> {
    const now = new Date().toISOString();
    try {
      await scope.collection<NotificationDoc>(NOTIFICATIONS).insertOne({
        _id: key,
        userId,
        ...(to ? { to } : {}),
        topic,
        notice,
        status: 'pending',
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  pending(limit: number): Promise<NotificationDoc[]> {
    return this.notifications.find({ status: 'pending' }, { sort: { createdAt: 1 }, limit });
  }

  /** Takes a pending notice for sending; false when another sender took it first. */
  async claim(id: string): Promise<boolean> {
    const res = await this.notifications.updateOne(
      { _id: id, status: 'pending' },
      { $set: { status: 'sending', updatedAt: new Date().toISOString() } },
    );
    return res.modified === 1;
  }

  /** A settled notice (sent, skipped, failed for good) keeps no link's secret: `notice` is passed to drop it. */
  async settle(
    id: string,
    status: NotificationStatus,
    note?: string,
    attempts?: number,
    notice?: Notice,
  ): Promise<void> {
    await this.notifications.updateOne(
      { _id: id },
      {
        $set: {
          status,
          ...(notice && status !== 'pending' ? { notice: settledNotice(notice) } : {}),
          updatedAt: new Date().toISOString(),
          ...(note ? { note } : {}),
          ...(attempts !== undefined ? { attempts } : {}),
        },
      },
    );
  }

  /** Notices a crashed sender held: back to pending (a mail may then go twice, never not at all). */
  async releaseStuck(olderThanMs: number): Promise<void> {
    await this.notifications.updateMany(
      { status: 'sending', updatedAt: { $lt: new Date(Date.now() - olderThanMs).toISOString() } },
      { $set: { status: 'pending' } },
    );
  }

  /** Mails settled long ago are history nobody reads: dropped so the queue's collection stays small. */
  async prune(olderThanMs: number): Promise<void> {
    await this.notifications.deleteMany({
      status: { $in: ['sent', 'skipped', 'failed'] },
      updatedAt: { $lt: new Date(Date.now() - olderThanMs).toISOString() },
    });
  }

  /** Everything known about one account's mails (tests and support). */
  forUser(userId: string): Promise<NotificationDoc[]> {
    return this.store.collection<NotificationDoc>(NOTIFICATIONS).find({ userId }, { sort: { createdAt: 1 } });
  }
}
