// One provider customer per Omni account. The account id is the document id, so a second insert for the
// same account fails instead of making a second row; the provider call itself is made idempotent by its key.
import { type Doc, type DocumentStore, DuplicateKeyError, type TransactionScope } from '@omni/platform';

export interface CustomerDoc extends Doc {
  /** Omni's account id. */
  _id: string;
  customerId: string;
  email: string;
  createdAt: string;
}

export const CUSTOMERS = 'customers';

export class CustomersRepository {
  private readonly customers;

  constructor(store: DocumentStore) {
    this.customers = store.collection<CustomerDoc>(CUSTOMERS, {
      indexes: [{ fields: { customerId: 1 }, unique: true }],
    });
  }

  byAccount(accountId: string) {
    return this.customers.findById(accountId);
  }

  byCustomerId(customerId: string, scope?: TransactionScope) {
    const customers = scope ? scope.collection<CustomerDoc>(CUSTOMERS) : this.customers;
    return customers.findOne({ customerId });
  }

  /** Records the account's customer; when another call recorded one first, that one is kept and returned. */
  async remember(accountId: string, customerId: string, email: string): Promise<CustomerDoc> {
    try {
      return await this.customers.insertOne({
        _id: accountId,
        customerId,
        email,
        createdAt: new Date().toISOString(),
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const held = await this.customers.findById(accountId);
      if (!held) throw err;
      return held;
    }
  }

  /** Links a customer seen in a webhook (a checkout completed) when the account has none recorded yet. */
  async linkInScope(scope: TransactionScope, accountId: string, customerId: string): Promise<void> {
    const customers = scope.collection<CustomerDoc>(CUSTOMERS);
    if (await customers.findById(accountId)) return;
    if (await customers.findOne({ customerId })) return;
    await customers.insertOne({ _id: accountId, customerId, email: '', createdAt: new Date().toISOString() });
  }
}
