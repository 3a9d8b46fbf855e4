// Checkout attempts per account and price. The attempt number goes into the provider's idempotency key,
// so every click of one attempt gets the same hosted session; it moves on only once that session completed
// or expired (a webhook says so) or is too old for the provider to remember the key.

import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import type { BillingProduct } from '@omni/proto/api';

export interface CheckoutAttemptDoc extends Doc {
  /** `${accountId}:${priceId}` */
  _id: string;
  accountId: string;
  priceId: string;
  product: BillingProduct;
  attempt: number;
  state: 'open' | 'completed' | 'expired';
  sessionId: string;
  startedAt: string;
}

export const CHECKOUT_ATTEMPTS = 'checkout_attempts';

export class CheckoutAttemptsRepository {
  private readonly attempts;

  constructor(store: DocumentStore) {
    this.attempts = store.collection<CheckoutAttemptDoc>(CHECKOUT_ATTEMPTS, {
      indexes: [{ fields: { sessionId: 1 } }],
    });
  }

  get(accountId: string, priceId: string) {
    return this.attempts.findById(`${accountId}:${priceId}`);
  }

  /**
   * Moves to the next attempt, only from the attempt number the caller saw (two callers racing move it
   * once). Returns the attempt number to use.
   */
  async advance(
    held: CheckoutAttemptDoc | null,
    fresh: Omit<CheckoutAttemptDoc, '_id' | 'attempt' | 'state' | 'sessionId' | 'startedAt'>,
  ) {
    const _id = `${fresh.accountId}:${fresh.priceId}`;
    const startedAt = new Date().toISOString();
    if (!held) {
      await this.attempts
        .updateOne(
          { _id },
          { $setOnInsert: { ...fresh, attempt: 1, state: 'open', sessionId: '', startedAt } },
          { upsert: true },
        )
        .catch(() => undefined);
    } else {
      await this.attempts.updateOne(
        { _id, attempt: held.attempt },
        { $set: { attempt: held.attempt + 1, state: 'open', sessionId: '', startedAt } },
      );
    }
    return (await this.attempts.findById(_id))!;
  }

  async opened(accountId: string, priceId: string, attempt: number, sessionId: string) {
    await this.attempts.updateOne({ _id: `${accountId}:${priceId}`, attempt }, { $set: { sessionId } });
  }

  /** A session completed or expired (webhook): the next click starts a new attempt. */
  async close(scope: TransactionScope, sessionId: string, state: 'completed' | 'expired') {
    if (!sessionId) return;
    await scope
      .collection<CheckoutAttemptDoc>(CHECKOUT_ATTEMPTS)
      .updateMany({ sessionId }, { $set: { state } });
  }

  bySession(scope: TransactionScope, sessionId: string) {
    return scope.collection<CheckoutAttemptDoc>(CHECKOUT_ATTEMPTS).findOne({ sessionId });
  }
}
