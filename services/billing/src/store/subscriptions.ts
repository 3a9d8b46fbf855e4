// Subscriptions by provider id, found by account and product. Writes happen only inside the webhook
// transaction (use-cases/apply-event.ts), beside the event's audit row and the outgoing event.

import type { DocumentStore, TransactionScope } from '@omni/platform';
import type { BillingProduct } from '@omni/proto/api';
import { currentOf, type SubscriptionDoc } from '../domain/subscription';

export const SUBSCRIPTIONS = 'subscriptions';

export class SubscriptionsRepository {
  private readonly subscriptions;

  constructor(store: DocumentStore) {
    this.subscriptions = store.collection<SubscriptionDoc>(SUBSCRIPTIONS, {
      indexes: [{ fields: { accountId: 1, product: 1 } }, { fields: { customerId: 1 } }],
    });
  }

  /** The subscription that answers "is this account subscribed to this product?" (see domain). */
  async current(accountId: string, product: BillingProduct): Promise<SubscriptionDoc | undefined> {
    return currentOf(await this.subscriptions.find({ accountId, product }));
  }

  byId(scope: TransactionScope, id: string) {
    return scope.collection<SubscriptionDoc>(SUBSCRIPTIONS).findById(id);
  }

  async put(scope: TransactionScope, doc: SubscriptionDoc): Promise<void> {
    const { _id, ...fields } = doc;
    // The whole state: an optional field the new state lacks is removed, not kept from the old one.
    const absent = (['status', 'previous', 'lastInvoice'] as const).filter((k) => doc[k] === undefined);
    const unset =
      absent.length > 0 ? { $unset: Object.fromEntries(absent.map((k) => [k, true] as const)) } : {};
    await scope
      .collection<SubscriptionDoc>(SUBSCRIPTIONS)
      .updateOne({ _id }, { $set: fields, ...unset }, { upsert: true });
  }
}
