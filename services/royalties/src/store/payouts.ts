// Payees as payout recipients, their payouts, the payout runs and the webhook inbox: the only reader and
// writer of `payout_payees`, `payouts`, `payout_runs` and `payout_webhook_events`. Balances are not kept
// here: they are what the allocator wrote (payee_months, store/payees.ts) minus the payouts that hold
// money, computed when asked, so there is one writer per piece of state.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import type { AccountStatus } from '../domain/payouts/checklist';
import type { FailureReason, PayoutState, TaxForm } from '../domain/payouts/payout';

export const PAYOUT_PAYEES = 'payout_payees';
export const PAYOUTS = 'payouts';
export const PAYOUT_RUNS = 'payout_runs';
export const PAYOUT_EVENTS = 'payout_webhook_events';

export interface PayoutPayeeDoc extends Doc {
  /** _id: the account (user) id. */
  email: string;
  minimumCents: number;
  taxForm: TaxForm | null;
  account: {
    accountId: string;
    status: AccountStatus;
    currentlyDue: string[];
    disabledReason: string;
    /** Unix seconds of the event that wrote it (older events never overwrite it). */
    eventCreated: number;
    updatedAt: string;
  } | null;
  /** Nano string: what payouts hold out of the balance (sum of the ones not failed), moved with them. */
  outNano: string;
  /** Reasons an admin put the payee's payouts on hold, in words shown to the payee. */
  holds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface PayoutDoc extends Doc {
  /** _id: `${runId}|${payeeId}|${attempt}`: also the rail's idempotency key. */
  payeeId: string;
  runId: string;
  attempt: number;
  accountId: string;
  /** Whole cents sent (string) and the same in nano (what leaves the balance). */
  amountCents: string;
  amountNano: string;
  state: PayoutState;
  transferId: string;
  providerPayoutId: string;
  failure: FailureReason | null;
  /** When the first attempt of this payout failed (retries count from it). */
  firstFailedAt: string | null;
  /** When a failed payout is tried again; unset once tried or when no try is left. */
  retryAt: string | null;
  /** The payout this one retries, or ''. */
  retryOf: string;
  createdAt: string;
  updatedAt: string;
  history: Array<{ at: string; state: PayoutState; by: string }>;
}

export interface PayoutRunDoc extends Doc {
  /** _id: the run date, YYYY-MM-DD. */
  startedAt: string;
  finishedAt: string | null;
  paid: number;
  skipped: number;
  amountCents: string;
}

export interface PayoutEventDoc extends Doc {
  type: string;
  created: number;
  receivedAt: string;
  outcome: 'applied' | 'stale' | 'recorded' | 'ignored';
}

export class PayoutsRepository {
  readonly payees;
  readonly payouts;
  readonly runs;
  readonly events;

  constructor(store: DocumentStore) {
    this.payees = store.collection<PayoutPayeeDoc>(PAYOUT_PAYEES, {
      indexes: [{ fields: { 'account.accountId': 1 } }],
    });
    this.payouts = store.collection<PayoutDoc>(PAYOUTS, {
      indexes: [
        { fields: { payeeId: 1, createdAt: 1 } },
        { fields: { state: 1 } },
        { fields: { retryAt: 1 } },
        { fields: { transferId: 1 } },
      ],
    });
    this.runs = store.collection<PayoutRunDoc>(PAYOUT_RUNS);
    this.events = store.collection<PayoutEventDoc>(PAYOUT_EVENTS);
  }

  /** The same collections inside a transaction. */
  scoped(scope: TransactionScope) {
    return {
      payees: scope.collection<PayoutPayeeDoc>(PAYOUT_PAYEES),
      payouts: scope.collection<PayoutDoc>(PAYOUTS),
      events: scope.collection<PayoutEventDoc>(PAYOUT_EVENTS),
    };
  }

  payee(id: string) {
    return this.payees.findById(id);
  }

  async ensurePayee(id: string, email: string): Promise<PayoutPayeeDoc> {
    const now = new Date().toISOString();
    await this.payees.updateOne(
      { _id: id },
      {
        $setOnInsert: {
          email,
          minimumCents: 0,
          taxForm: null,
          account: null,
          holds: [],
          outNano: '0',
          createdAt: now,
        },
        $set: { updatedAt: now },
      },
      { upsert: true },
    );
    return (await this.payees.findById(id))!;
  }

  setPayee(id: string, fields: Partial<Omit<PayoutPayeeDoc, '_id'>>, scope?: TransactionScope) {
    const c = scope ? scope.collection<PayoutPayeeDoc>(PAYOUT_PAYEES) : this.payees;
    return c.updateOne({ _id: id }, { $set: { ...fields, updatedAt: new Date().toISOString() } });
  }

  payeeByAccount(accountId: string, scope?: TransactionScope) {
    const c = scope ? scope.collection<PayoutPayeeDoc>(PAYOUT_PAYEES) : this.payees;
    return c.findOne({ 'account.accountId': accountId });
  }

  payoutsOf(payeeId: string) {
    return this.payouts.find({ payeeId }, { sort: { createdAt: -1 } });
  }

  /** Payouts whose money is out of the balance or on its way (not failed), of every payee. */
  inFlight() {
    return this.payouts.find({ state: { $in: ['pending', 'in_transit'] } });
  }

  dueRetries(now: string) {
    return this.payouts.find({ retryAt: { $lte: now } });
  }
}
