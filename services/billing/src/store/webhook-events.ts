// Every webhook event billing accepted, for audit and for dedupe: the event id is the document id, written
// in the same transaction as the state change it caused, so a redelivery finds it and changes nothing.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';

/** What became of an event: applied (state changed), stale (older than the state held), or recorded only. */
export type EventOutcome = 'applied' | 'stale' | 'recorded' | 'ignored';

export interface WebhookEventDoc extends Doc {
  /** The provider's event id (evt_…). */
  _id: string;
  type: string;
  /** The provider's event time, in seconds. */
  created: number;
  received: string;
  /** True when the event changed billing's state. */
  applied: boolean;
  outcome: EventOutcome;
  /** Why, when not applied (a person reads this during an audit). */
  note: string;
  subscriptionId: string;
  accountId: string;
  livemode: boolean;
}

export const WEBHOOK_EVENTS = 'webhook_events';

export class WebhookEventsRepository {
  constructor(store: DocumentStore) {
    store.collection<WebhookEventDoc>(WEBHOOK_EVENTS, { indexes: [{ fields: { subscriptionId: 1 } }] });
  }

  seen(scope: TransactionScope, eventId: string) {
    return scope.collection<WebhookEventDoc>(WEBHOOK_EVENTS).findById(eventId);
  }

  async record(scope: TransactionScope, doc: WebhookEventDoc): Promise<void> {
    await scope.collection<WebhookEventDoc>(WEBHOOK_EVENTS).insertOne(doc);
  }
}
