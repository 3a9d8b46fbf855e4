// A verified webhook event → royalties' records, exactly once. The event id is the inbox row's id: the
// dedupe check, the change and the row commit in one transaction, so a redelivery (or two racing) changes
// nothing and answers applied: false. A payout's state only moves forward (pending → in transit → paid,
// failed outranks paid: Stripe may say paid before failed); an account's facts are kept from the newest
// event. A failed payout's money goes back to the balance in the same transaction, and its transfer is
// reversed at the rail afterwards (keyed, so a repeat reverses nothing twice).
import { fail, invalidArgument } from '@omni/platform';
import { advances, type PayoutState } from '../../domain/payouts/payout';
import { type PayoutEvent, WebhookEventError, WebhookSignatureError } from '../../providers/payouts/port';
import type { PayoutDoc, PayoutEventDoc } from '../../store/payouts';
import { accountStatusOf, nowOf, type PayoutDeps } from './context';
import { failIn } from './run';

export const BAD_SIGNATURE = 'The webhook signature did not verify.';

export function verifiedEvent(deps: PayoutDeps, payload: Buffer, signature: string): PayoutEvent {
  try {
    return deps.provider.verify(payload, signature);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw fail('bad_signature', BAD_SIGNATURE);
    if (err instanceof WebhookEventError) throw invalidArgument(err.message);
    throw err;
  }
}

export type Outcome = PayoutEventDoc['outcome'];

export async function applyEvent(
  deps: PayoutDeps,
  event: PayoutEvent,
): Promise<{ applied: boolean; outcome: Outcome }> {
  const at = nowOf(deps).toISOString();
  let failed: PayoutDoc | null = null;
  const result = await deps.documents.transaction(async (scope) => {
    const c = deps.payouts.scoped(scope);
    const inbox = c.events;
    if (await inbox.findById(event.id)) return { applied: false, outcome: 'recorded' as Outcome };
    let outcome: Outcome = 'ignored';
    if (event.livemode !== deps.livemode) outcome = 'ignored';
    else if (event.kind === 'account') {
      const payees = c.payees;
      const payee = await payees.findOne({ 'account.accountId': event.account.accountId });
      if (!payee?.account) outcome = 'recorded';
      else if (payee.account.eventCreated > event.created) outcome = 'stale';
      else {
        const f = event.account;
        await payees.updateOne(
          { _id: payee._id },
          {
            $set: {
              account: {
                accountId: f.accountId,
                status: accountStatusOf(f, payee.account.status),
                currentlyDue: f.currentlyDue,
                disabledReason: f.disabledReason,
                eventCreated: event.created,
                updatedAt: at,
              },
              updatedAt: at,
            },
          },
        );
        outcome = 'applied';
      }
    } else if (event.kind === 'payout') {
      const payouts = c.payouts;
      const payout = await payoutFor(deps, payouts, event);
      const next: PayoutState = event.state === 'canceled' ? 'failed' : event.state;
      if (!payout) outcome = 'recorded';
      else if (!advances(payout.state, next)) outcome = 'stale';
      else if (next === 'failed') {
        await payouts.updateOne({ _id: payout._id }, { $set: { providerPayoutId: event.providerPayoutId } });
        failed = await failIn(deps, scope, payout._id, event.failure ?? 'other', event.type, at);
        outcome = 'applied';
      } else {
        await payouts.updateOne(
          { _id: payout._id },
          {
            $set: {
              state: next,
              providerPayoutId: event.providerPayoutId,
              updatedAt: at,
              history: [...payout.history, { at, state: next, by: event.type }],
            },
          },
        );
        outcome = 'applied';
      }
    } else if (event.kind === 'transfer') {
      const payouts = c.payouts;
      const payout = event.payoutId ? await payouts.findById(event.payoutId) : null;
      if (payout && !payout.transferId) {
        await payouts.updateOne({ _id: payout._id }, { $set: { transferId: event.transferId } });
        outcome = 'applied';
      } else outcome = 'recorded';
    }
    await inbox.insertOne({
      _id: event.id,
      type: event.type,
      created: event.created,
      receivedAt: at,
      outcome,
    });
    return { applied: true, outcome };
  });
  // The money is back in Omni's balance (above, with the inbox row); at the rail the transfer is reversed.
  const done = failed as PayoutDoc | null;
  if (done) {
    if (done.transferId)
      await deps.provider
        .reverse({ transferId: done.transferId, amountCents: BigInt(done.amountCents) }, done._id)
        .catch((err: unknown) =>
          deps.logger.warn(
            { err, payoutId: done._id },
            'royalties: reversing a failed payout’s transfer failed',
          ),
        );
  }
  return result;
}

/** The Omni payout a rail payout is about: by its metadata, by the rail's id, or the account's one in flight. */
async function payoutFor(
  _deps: PayoutDeps,
  payouts: {
    findById(id: string): Promise<PayoutDoc | null>;
    findOne(f: object, o?: object): Promise<PayoutDoc | null>;
  },
  event: Extract<PayoutEvent, { kind: 'payout' }>,
): Promise<PayoutDoc | null> {
  if (event.payoutId) return payouts.findById(event.payoutId);
  const linked = await payouts.findOne({ providerPayoutId: event.providerPayoutId });
  if (linked) return linked;
  if (!event.accountId) return null;
  return payouts.findOne(
    { accountId: event.accountId, state: { $in: ['pending', 'in_transit'] } },
    { sort: { createdAt: -1 } },
  );
}
