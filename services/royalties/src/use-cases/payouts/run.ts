// The payout run (every 30 days) and the retries of failed payouts (1, 3 and 7 days after the first
// failure). A payee is paid when the checklist says ready: tax form given, payout account verified, no
// hold, nothing on its way, and a balance whose whole cents reach their minimum. The payout is written
// (with the money taken out of the balance) in one transaction BEFORE the rail is asked, under an id that
// is also the rail's idempotency key (`${runDate}|${payee}|${attempt}`): a rerun of the same run finds
// the id and pays nobody twice, and a crash between the two leaves a payout whose retry repeats the same
// key, which the rail answers with the same transfer.
import { DuplicateKeyError, type TransactionScope } from '@omni/platform';
import { checklist } from '../../domain/payouts/checklist';
import {
  centsDown,
  DEFAULT_MINIMUM_CENTS,
  type FailureReason,
  NANO_PER_CENT,
  RAIL_MINIMUM_CENTS,
  retryAt,
  runDateOf,
} from '../../domain/payouts/payout';
import type { PayoutDoc, PayoutPayeeDoc } from '../../store/payouts';
import { balanceOf, earnedOf, nowOf, type PayoutDeps, partiesOf } from './context';

const PAGE = 500;
/**
 * Payees paid at once: each payout is a write, a call to the rail and a write, and one after another they
 * waited for the disk (or the network) in turn — 10,000 payees took 63 s in bench:payouts. A few at once
 * share the store's commits; Stripe allows far more requests per second than this.
 */
const AT_ONCE = 8;

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachAtOnce<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export interface RunResult {
  runDate: string;
  payees: number;
  paid: number;
  skipped: number;
  amountCents: bigint;
}

const minimumOf = (p: PayoutPayeeDoc) =>
  Math.max(RAIL_MINIMUM_CENTS, p.minimumCents || DEFAULT_MINIMUM_CENTS);

/** Whether the payee may be paid now, and how much (whole cents). */
function payable(payee: PayoutPayeeDoc, balance: bigint, inFlight: boolean, now: Date) {
  const list = checklist({
    taxForm: payee.taxForm,
    account: payee.account,
    balance,
    minimumCents: minimumOf(payee),
    holds: payee.holds,
    inFlight,
    lastFailure: null,
    now,
  });
  return list.ready ? centsDown(balance) : 0n;
}

/** Pays every ready payee of the run of `runDate` (default: the run the present moment belongs to). */
export async function runPayouts(deps: PayoutDeps, runDate = runDateOf(nowOf(deps))): Promise<RunResult> {
  const now = nowOf(deps);
  const result: RunResult = { runDate, payees: 0, paid: 0, skipped: 0, amountCents: 0n };
  await deps.payouts.runs.updateOne(
    { _id: runDate },
    {
      $setOnInsert: { startedAt: now.toISOString(), finishedAt: null, paid: 0, skipped: 0, amountCents: '0' },
    },
    { upsert: true },
  );
  const busy = new Set((await deps.payouts.inFlight()).map((p) => p.payeeId));
  let after = '';
  for (;;) {
    const page = await deps.payouts.payees.find(
      { _id: { $gt: after }, 'account.status': 'verified' },
      { sort: { _id: 1 }, limit: PAGE },
    );
    if (page.length === 0) break;
    after = page[page.length - 1]!._id;
    const earned = await earnedOf(
      deps,
      await partiesOf(
        deps,
        page.map((p) => p._id),
      ),
    );
    await eachAtOnce(page, AT_ONCE, async (payee) => {
      result.payees += 1;
      const cents = payable(payee, balanceOf(earned.get(payee._id) ?? 0n, payee), busy.has(payee._id), now);
      if (cents === 0n) {
        result.skipped += 1;
        return;
      }
      const made = await startPayout(deps, payee, cents, {
        runDate,
        attempt: 1,
        retryOf: '',
        firstFailedAt: null,
      });
      if (made) {
        result.paid += 1;
        result.amountCents += cents;
      } else result.skipped += 1;
    });
  }
  await deps.payouts.runs.updateOne(
    { _id: runDate },
    {
      $set: {
        finishedAt: nowOf(deps).toISOString(),
        paid: result.paid,
        skipped: result.skipped,
        amountCents: result.amountCents.toString(),
      },
    },
  );
  return result;
}

/**
 * Writes the payout and takes its money out of the balance (one transaction), then asks the rail. False
 * when this payout exists already (a rerun). A refusal or an outage of the rail fails the payout at once:
 * the money goes back and the retry schedule starts.
 */
async function startPayout(
  deps: PayoutDeps,
  payee: PayoutPayeeDoc,
  cents: bigint,
  o: { runDate: string; attempt: number; retryOf: string; firstFailedAt: string | null },
): Promise<boolean> {
  const at = nowOf(deps).toISOString();
  const id = `${o.runDate}|${payee._id}|${o.attempt}`;
  const nano = cents * NANO_PER_CENT;
  const doc: PayoutDoc = {
    _id: id,
    payeeId: payee._id,
    runId: o.runDate,
    attempt: o.attempt,
    accountId: payee.account!.accountId,
    amountCents: cents.toString(),
    amountNano: nano.toString(),
    state: 'pending',
    transferId: '',
    providerPayoutId: '',
    failure: null,
    firstFailedAt: o.firstFailedAt,
    retryAt: null,
    retryOf: o.retryOf,
    createdAt: at,
    updatedAt: at,
    history: [{ at, state: 'pending', by: o.retryOf ? `retry of ${o.retryOf}` : `run ${o.runDate}` }],
  };
  try {
    await deps.documents.transaction(async (scope) => {
      const c = deps.payouts.scoped(scope);
      await c.payouts.insertOne(doc);
      const p = await c.payees.findById(payee._id);
      await c.payees.updateOne(
        { _id: payee._id },
        { $set: { outNano: (BigInt(p?.outNano ?? '0') + nano).toString() } },
      );
    });
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
  try {
    const { transferId } = await deps.provider.pay(
      { accountId: doc.accountId, amountCents: cents, payoutId: id, payeeId: payee._id },
      id,
    );
    await deps.payouts.payouts.updateOne({ _id: id, transferId: '' }, { $set: { transferId } });
  } catch (err) {
    deps.logger.warn({ err, payoutId: id }, 'royalties: the payout rail refused or failed a transfer');
    await failPayout(deps, id, 'transfer_failed', 'the rail refused the transfer');
  }
  return true;
}

/**
 * Marks a payout failed (if it was not already), returns its money to the balance and schedules its
 * retry, in the caller's transaction. The payout as it was, or null when nothing changed.
 */
export async function failIn(
  deps: Pick<PayoutDeps, 'payouts'>,
  scope: TransactionScope,
  id: string,
  reason: FailureReason,
  by: string,
  at: string,
): Promise<PayoutDoc | null> {
  const { payouts, payees } = deps.payouts.scoped(scope);
  const p = await payouts.findById(id);
  if (!p || p.state === 'failed') return null;
  const first = p.firstFailedAt ?? at;
  await payouts.updateOne(
    { _id: id },
    {
      $set: {
        state: 'failed',
        failure: reason,
        firstFailedAt: first,
        retryAt: retryAt(first, p.attempt),
        updatedAt: at,
        history: [...p.history, { at, state: 'failed', by }],
      },
    },
  );
  const payee = await payees.findById(p.payeeId);
  await payees.updateOne(
    { _id: p.payeeId },
    { $set: { outNano: (BigInt(payee?.outNano ?? '0') - BigInt(p.amountNano)).toString() } },
  );
  return p;
}

export const failPayout = (deps: PayoutDeps, id: string, reason: FailureReason, by: string) =>
  deps.documents.transaction((scope) => failIn(deps, scope, id, reason, by, nowOf(deps).toISOString()));

/** Tries again the failed payouts whose time has come: the payee's whole payable balance, if still ready. */
export async function retryDue(deps: PayoutDeps): Promise<number> {
  const now = nowOf(deps);
  let made = 0;
  for (const failed of await deps.payouts.dueRetries(now.toISOString())) {
    // Claimed first: two sweeps never retry one payout twice.
    const claimed = await deps.payouts.payouts.updateOne(
      { _id: failed._id, retryAt: failed.retryAt },
      { $set: { retryAt: null } },
    );
    if (claimed.modified === 0) continue;
    const payee = await deps.payouts.payee(failed.payeeId);
    if (!payee?.account) continue;
    const busy = (await deps.payouts.inFlight()).some((p) => p.payeeId === payee._id);
    const earned = await earnedOf(deps, await partiesOf(deps, [payee._id]));
    const cents = payable(payee, balanceOf(earned.get(payee._id) ?? 0n, payee), busy, now);
    const next = retryAt(failed.firstFailedAt ?? now.toISOString(), failed.attempt + 1);
    if (cents === 0n) {
      // Not ready now (the account still needs something, a hold…): the next try keeps its schedule.
      if (next)
        await deps.payouts.payouts.updateOne(
          { _id: failed._id },
          { $set: { retryAt: next, attempt: failed.attempt + 1 } },
        );
      continue;
    }
    if (
      await startPayout(deps, payee, cents, {
        runDate: failed.runId,
        attempt: failed.attempt + 1,
        retryOf: failed._id,
        firstFailedAt: failed.firstFailedAt,
      })
    )
      made += 1;
  }
  return made;
}
