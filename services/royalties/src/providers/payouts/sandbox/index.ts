// The embedded payout sandbox (PAYOUTS=embedded: npm start, tests; production refuses it). A small
// Stripe Connect of its own, kept in its own documents store: recipient accounts whose
// requirements.currently_due shrink as its hosted form is filled in, transfers, payouts that a clock moves
// pending → in_transit → paid, and Stripe's magic test bank accounts that fail (routing 110000000;
// 000111111116 no_account, 000111111113 account_closed, 000222222227 insufficient_funds, 000333333335
// debit_not_authorized, 000444444440 invalid_currency; 000123456789 succeeds). It changes nothing in
// royalties: like Stripe, it sends signed events in Stripe's shapes (account.updated, transfer.created|
// reversed, payout.created|updated|paid|failed, with `account` set and livemode false), written to its
// outbox in the transaction of the change and delivered at least once, in order, to the same webhook route
// Stripe's reach — so the sandbox exercises production's path.
import { randomBytes } from 'node:crypto';
import type { Doc, DocumentStore, Logger, TransactionScope } from '@omni/platform';
import type { Router } from 'express';
import type { AccountFacts, PayoutsProvider } from '../port';
import { signPayload, verifyConnectEvent } from '../stripe-connect/events';
import { sandboxRouter } from './pages';
import {
  dueOf,
  FAILING_ACCOUNTS,
  PREFIX,
  REQUIREMENTS,
  ROUTING_OK,
  type SandboxAccountDoc,
  SandboxFormError,
} from './records';

export * from './records';

const DAY = 86_400;
/** Payouts: in transit a day after they are made, arrived (or failed) a day later. */
export const IN_TRANSIT_AFTER = DAY;
export const ARRIVES_AFTER = 2 * DAY;

interface LinkDoc extends Doc {
  accountId: string;
  returnUrl: string;
  refreshUrl: string;
  used: boolean;
  created: number;
}
interface TransferDoc extends Doc {
  key: string;
  accountId: string;
  amount: number;
  payoutId: string;
  omniPayoutId: string;
  reversed: boolean;
}
interface PayoutDoc extends Doc {
  accountId: string;
  transferId: string;
  amount: number;
  status: 'pending' | 'in_transit' | 'paid' | 'failed';
  failureCode: string | null;
  omniPayoutId: string;
  created: number;
}
interface OutboxDoc extends Doc {
  seq: number;
  /** The connected account the event is about: its lane (events of one account go in order). */
  account?: string;
  payload: string;
  state: 'pending' | 'delivered';
  attempts: number;
  nextAttemptAt: number;
}

/** Pending events looked at per round of delivery. */
const DRAIN_WINDOW = 64;

const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(9).toString('base64url')}`;

const accountShape = (a: SandboxAccountDoc) => {
  const due = dueOf(a);
  return {
    id: a._id,
    object: 'account',
    type: 'express',
    email: a.email,
    capabilities: { transfers: due.length ? 'inactive' : 'active' },
    payouts_enabled: due.length === 0,
    charges_enabled: false,
    requirements: {
      currently_due: due,
      eventually_due: due,
      past_due: [],
      pending_verification: [],
      disabled_reason: due.length ? 'requirements.past_due' : null,
      errors: [],
    },
    metadata: { omni_payee_id: a.payeeId },
  };
};

const payoutShape = (p: PayoutDoc) => ({
  id: p._id,
  object: 'payout',
  amount: p.amount,
  currency: 'usd',
  status: p.status,
  failure_code: p.failureCode,
  failure_message: p.failureCode ? `Sandbox: ${p.failureCode}` : null,
  arrival_date: p.created + ARRIVES_AFTER,
  destination: `ba_sbx_${p.accountId.slice(-6)}`,
  metadata: { omni_payout_id: p.omniPayoutId },
});

export interface SandboxOptions {
  documents: DocumentStore;
  webhookSecret: string;
  /** Posts a signed event; resolves true when the endpoint answered 2xx. */
  send: (payload: string, signature: string) => Promise<boolean>;
  publicUrl: () => string;
  logger: Logger;
  /** Moves payouts by real time too (off in tests, which move the clock themselves). */
  tickMs?: number;
}

export interface PayoutSandbox extends PayoutsProvider {
  readonly kind: 'sandbox';
  router(): Router;
  /** Moves the sandbox's clock forward and every payout with it; the events are sent before it resolves. */
  advance(seconds: number): Promise<void>;
  /** Fills in the hosted form as a person would (tests and the bench). */
  complete(accountId: string, fields: Record<string, string>): Promise<string[]>;
  /** Sends what is waiting in the outbox (resolves when the queue is empty or every head failed once). */
  flush(): Promise<void>;
  now(): number;
}

export async function createPayoutSandbox(o: SandboxOptions): Promise<PayoutSandbox> {
  const store = o.documents;
  await store.ready();
  const accounts = store.collection<SandboxAccountDoc>('accounts', { indexes: [{ fields: { key: 1 } }] });
  const links = store.collection<LinkDoc>('links');
  const transfers = store.collection<TransferDoc>('transfers', { indexes: [{ fields: { key: 1 } }] });
  const payouts = store.collection<PayoutDoc>('payouts', { indexes: [{ fields: { status: 1 } }] });
  const outbox = store.collection<OutboxDoc>('outbox', { indexes: [{ fields: { state: 1, seq: 1 } }] });
  const clockDoc = await store.collection<Doc & { offset: number }>('clock').findById('clock');
  let offset = clockDoc?.offset ?? 0;
  const now = () => Math.floor(Date.now() / 1000) + offset;
  const logger = o.logger.child({ payouts: 'sandbox' });

  async function emit(scope: TransactionScope, type: string, account: string, object: object) {
    const created = now();
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created,
      livemode: false,
      account,
      type,
      data: { object },
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    await scope.collection<OutboxDoc>('outbox').insertOne({
      _id: event.id,
      seq: await store.nextSequence('payouts-sandbox-outbox'),
      account,
      payload: JSON.stringify(event, null, 2),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
    });
  }

  let draining: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /**
   * Delivers the pending events, a window at a time: one account's events in order (a head that fails
   * holds the ones after it, retried with backoff as Stripe retries), different accounts' side by side, as
   * Stripe sends them. One after another, every event waited for two commits in turn (bench:payouts).
   */
  async function drain() {
    for (;;) {
      if (closed) return;
      const window = await outbox.find({ state: 'pending' }, { sort: { seq: 1 }, limit: DRAIN_WINDOW });
      if (window.length === 0) return;
      const lanes = new Map<string, OutboxDoc[]>();
      for (const e of window) {
        const lane = lanes.get(e.account ?? '') ?? [];
        lane.push(e);
        lanes.set(e.account ?? '', lane);
      }
      let delivered = 0;
      let wakeAt = Number.POSITIVE_INFINITY;
      await Promise.all(
        [...lanes.values()].map(async (lane) => {
          for (const e of lane) {
            if (closed) return;
            if (e.nextAttemptAt > Date.now()) {
              wakeAt = Math.min(wakeAt, e.nextAttemptAt);
              return;
            }
            if (!(await deliver(e))) {
              wakeAt = Math.min(wakeAt, Date.now() + backoff(e.attempts + 1));
              return;
            }
            delivered += 1;
          }
        }),
      );
      if (delivered === 0) {
        if (wakeAt !== Number.POSITIVE_INFINITY) {
          clearTimeout(timer);
          timer = setTimeout(() => void flush(), Math.max(0, wakeAt - Date.now()));
          timer.unref();
        }
        return;
      }
    }
  }
  const backoff = (attempts: number) => Math.min(3_600_000, 1000 * 2 ** attempts);
  async function deliver(e: OutboxDoc): Promise<boolean> {
    let ok = false;
    try {
      ok = await o.send(e.payload, signPayload(e.payload, o.webhookSecret));
    } catch (err) {
      logger.warn({ err, event: e._id }, 'payout sandbox: webhook delivery failed');
    }
    const attempts = e.attempts + 1;
    await outbox.updateOne(
      { _id: e._id },
      ok
        ? { $set: { state: 'delivered', attempts } }
        : { $set: { attempts, nextAttemptAt: Date.now() + backoff(attempts) } },
    );
    return ok;
  }
  /** Set when a flush is asked for while a drain runs: that drain may have read the outbox before the
   * event that asked was written (an onboarding's account.updated waited for the minute's tick on the
   * cluster), so it drains once more. */
  let again = false;
  function flush(): Promise<void> {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      do {
        again = false;
        await drain();
      } while (again && !closed);
    })().finally(() => {
      draining = undefined;
    });
    return draining;
  }

  async function complete(accountId: string, fields: Record<string, string>): Promise<string[]> {
    const clean = Object.fromEntries(
      Object.entries(fields)
        .map(([k, v]) => [k, String(v).trim()] as const)
        .filter(([k, v]) =>
          (REQUIREMENTS as readonly string[]).includes(k) || k === 'routing_number' || k === 'account_number'
            ? v !== ''
            : false,
        ),
    );
    const routing = clean.routing_number;
    const number = clean.account_number;
    delete clean.routing_number;
    delete clean.account_number;
    if (routing !== undefined || number !== undefined) {
      if (routing !== ROUTING_OK)
        throw new SandboxFormError(`Use the test routing number ${ROUTING_OK} (this is a sandbox).`);
      if (!number || !/^\d{4,17}$/.test(number))
        throw new SandboxFormError('Write an account number (digits only), e.g. 000123456789.');
    }
    const due = await store.transaction(async (scope) => {
      const c = scope.collection<SandboxAccountDoc>('accounts');
      const a = await c.findById(accountId);
      if (!a) throw new SandboxFormError('No such sandbox account.');
      const byName = new Map(a.given.map((g) => [g.name, g.value]));
      for (const [name, value] of Object.entries(clean)) byName.set(name, value);
      const bank = number ? { routing: routing!, account: number } : a.bank;
      if (bank) byName.set('external_account', `ba_sbx_${bank.account.slice(-4)}`);
      const given = [...byName].map(([name, value]) => ({ name, value }));
      const next = { ...a, given, bank };
      await c.updateOne({ _id: a._id }, { $set: { given, bank } });
      await emit(scope, 'account.updated', a._id, accountShape(next));
      return dueOf(next);
    });
    void flush();
    return due;
  }

  /** Moves payouts whose time has come: pending → in transit → paid or failed (the magic accounts). */
  async function tick() {
    const t = now();
    for (const p of await payouts.find({ status: { $in: ['pending', 'in_transit'] } })) {
      await store.transaction(async (scope) => {
        const c = scope.collection<PayoutDoc>('payouts');
        let cur = (await c.findById(p._id))!;
        if (cur.status === 'pending' && t >= cur.created + IN_TRANSIT_AFTER) {
          cur = { ...cur, status: 'in_transit' };
          await c.updateOne({ _id: cur._id }, { $set: { status: 'in_transit' } });
          await emit(scope, 'payout.updated', cur.accountId, payoutShape(cur));
        }
        if (cur.status === 'in_transit' && t >= cur.created + ARRIVES_AFTER) {
          const a = await scope.collection<SandboxAccountDoc>('accounts').findById(cur.accountId);
          const code = FAILING_ACCOUNTS[a?.bank?.account ?? ''] ?? null;
          cur = { ...cur, status: code ? 'failed' : 'paid', failureCode: code };
          await c.updateOne({ _id: cur._id }, { $set: { status: cur.status, failureCode: code } });
          await emit(scope, code ? 'payout.failed' : 'payout.paid', cur.accountId, payoutShape(cur));
        }
      });
    }
    await flush();
  }

  const ticker = o.tickMs
    ? setInterval(
        () => void tick().catch((err: unknown) => logger.warn({ err }, 'payout sandbox tick')),
        o.tickMs,
      )
    : undefined;
  ticker?.unref();
  void flush();

  const sandbox: PayoutSandbox = {
    kind: 'sandbox',
    async createAccount({ payeeId, email }, key): Promise<AccountFacts> {
      const existing = await accounts.findOne({ key });
      const a: SandboxAccountDoc = existing ?? {
        _id: newId('acct'),
        key,
        payeeId,
        email,
        given: [],
        bank: null,
        created: now(),
      };
      if (!existing) await accounts.insertOne(a);
      return {
        accountId: a._id,
        payoutsEnabled: false,
        currentlyDue: dueOf(a),
        pendingVerification: [],
        disabledReason: 'requirements.past_due',
      };
    },
    async onboardingLink({ accountId, returnUrl, refreshUrl }) {
      if (!(await accounts.findById(accountId))) throw new Error(`No such account: '${accountId}'`);
      const id = newId('link');
      await links.insertOne({ _id: id, accountId, returnUrl, refreshUrl, used: false, created: now() });
      return { url: `${o.publicUrl()}${PREFIX}/onboard/${id}` };
    },
    async pay({ accountId, amountCents, payoutId }, key) {
      const existing = await transfers.findOne({ key: `${key}:transfer` });
      if (existing) return { transferId: existing._id };
      const out = await store.transaction(async (scope) => {
        const a = await scope.collection<SandboxAccountDoc>('accounts').findById(accountId);
        if (!a) throw new Error(`No such destination: '${accountId}'`);
        if (dueOf(a).length) throw new Error('The destination account cannot receive transfers yet.');
        const amount = Number(amountCents);
        const tr: TransferDoc = {
          _id: newId('tr'),
          key: `${key}:transfer`,
          accountId,
          amount,
          payoutId: newId('po'),
          omniPayoutId: payoutId,
          reversed: false,
        };
        await scope.collection<TransferDoc>('transfers').insertOne(tr);
        await emit(scope, 'transfer.created', accountId, {
          id: tr._id,
          object: 'transfer',
          amount,
          currency: 'usd',
          destination: accountId,
          transfer_group: payoutId,
          reversed: false,
          metadata: { omni_payout_id: payoutId },
        });
        // The account's automatic schedule pays the transfer out to its bank.
        const po: PayoutDoc = {
          _id: tr.payoutId,
          accountId,
          transferId: tr._id,
          amount,
          status: 'pending',
          failureCode: null,
          omniPayoutId: payoutId,
          created: now(),
        };
        await scope.collection<PayoutDoc>('payouts').insertOne(po);
        await emit(scope, 'payout.created', accountId, payoutShape(po));
        return { transferId: tr._id };
      });
      void flush();
      return out;
    },
    async reverse({ transferId }) {
      await store.transaction(async (scope) => {
        const c = scope.collection<TransferDoc>('transfers');
        const tr = await c.findById(transferId);
        if (!tr || tr.reversed) return;
        await c.updateOne({ _id: tr._id }, { $set: { reversed: true } });
        await emit(scope, 'transfer.reversed', tr.accountId, {
          id: tr._id,
          object: 'transfer',
          amount: tr.amount,
          amount_reversed: tr.amount,
          reversed: true,
          metadata: { omni_payout_id: tr.omniPayoutId },
        });
      });
      void flush();
    },
    verify: verifyConnectEvent(o.webhookSecret),
    router: () => sandboxRouter({ links, accounts, complete, advance: (s) => sandbox.advance(s), logger }),
    async advance(seconds) {
      offset += Math.max(0, Math.floor(seconds));
      await store
        .collection<Doc & { offset: number }>('clock')
        .updateOne({ _id: 'clock' }, { $set: { offset } }, { upsert: true });
      await tick();
    },
    complete,
    flush,
    now,
    async close() {
      closed = true;
      if (ticker) clearInterval(ticker);
      clearTimeout(timer);
      await draining;
    },
  };
  return sandbox;
}
