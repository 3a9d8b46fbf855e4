// What a payee does and sees on their payouts page: balance, the "why not paid" checklist, the payout
// account's hosted onboarding, the tax form (recorded as given), their minimum, their payouts.
import { invalidArgument } from '@omni/platform';
import type { MinimumBody, MyPayouts, TaxFormBody } from '@omni/proto/api';
import { checklist } from '../../domain/payouts/checklist';
import {
  centsDown,
  DEFAULT_MINIMUM_CENTS,
  failureWords,
  NANO_PER_CENT,
  RAIL_MINIMUM_CENTS,
  WITHHOLDING_NOTE,
} from '../../domain/payouts/payout';
import {
  accountStatusOf,
  balanceOf,
  earnedOf,
  nowOf,
  type PayoutCaller,
  type PayoutDeps,
  partiesOf,
  usd,
} from './context';
import { statementPeriods } from './statements';

const MAX_MINIMUM_CENTS = 1_000_000;

export async function myPayouts(deps: PayoutDeps, caller: PayoutCaller): Promise<MyPayouts> {
  const now = nowOf(deps);
  const payee = await deps.payouts.payee(caller.userId);
  const earned = (await earnedOf(deps, await partiesOf(deps, [caller.userId]))).get(caller.userId) ?? 0n;
  const balance = balanceOf(earned, payee);
  const list = payee ? await deps.payouts.payoutsOf(caller.userId) : [];
  const inFlight = list.some((p) => p.state === 'pending' || p.state === 'in_transit');
  const last = list[0];
  const minimumCents = Math.max(RAIL_MINIMUM_CENTS, payee?.minimumCents || DEFAULT_MINIMUM_CENTS);
  return {
    currency: 'USD',
    balance: usd(balance),
    payable: usd(centsDown(balance) * NANO_PER_CENT),
    minimumCents,
    defaultMinimumCents: DEFAULT_MINIMUM_CENTS,
    railMinimumCents: RAIL_MINIMUM_CENTS,
    taxForm: payee?.taxForm ?? null,
    account: {
      status: payee?.account?.status ?? 'none',
      currentlyDue: payee?.account?.currentlyDue ?? [],
    },
    checklist: checklist({
      taxForm: payee?.taxForm ?? null,
      account: payee?.account ?? null,
      balance,
      minimumCents,
      holds: payee?.holds ?? [],
      inFlight,
      lastFailure: last?.state === 'failed' ? last.failure : null,
      now,
    }),
    withholdingNote: WITHHOLDING_NOTE,
    payouts: list.slice(0, 50).map((p) => ({
      id: p._id,
      runDate: p.runId,
      attempt: p.attempt,
      amount: usd(BigInt(p.amountNano)),
      state: p.state,
      failure: p.failure ? failureWords(p.failure) : null,
      retryAt: p.retryAt,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    })),
    statements: await statementPeriods(deps, caller.userId),
    rail: deps.provider.kind,
  };
}

/** POST /api/me/payouts/onboarding: the payee's recipient account (made once) and a hosted page to fill in. */
export async function startOnboarding(deps: PayoutDeps, caller: PayoutCaller): Promise<{ url: string }> {
  let payee = await deps.payouts.ensurePayee(caller.userId, caller.email);
  if (!payee.account) {
    const facts = await deps.provider.createAccount(
      { payeeId: caller.userId, email: caller.email },
      `account:${caller.userId}`,
    );
    const at = nowOf(deps).toISOString();
    await deps.payouts.payees.updateOne(
      { _id: caller.userId, account: null },
      {
        $set: {
          account: {
            accountId: facts.accountId,
            status: accountStatusOf(facts, undefined),
            currentlyDue: facts.currentlyDue,
            disabledReason: facts.disabledReason,
            eventCreated: 0,
            updatedAt: at,
          },
        },
      },
    );
    payee = (await deps.payouts.payee(caller.userId))!;
  }
  const back = new URL('/app/payouts', deps.publicUrl).toString();
  return deps.provider.onboardingLink({
    accountId: payee.account!.accountId,
    returnUrl: `${back}?onboarding=returned`,
    refreshUrl: `${back}?onboarding=expired`,
  });
}

/** PUT /api/me/payouts/tax-form: recorded as the payee gave it; a new form replaces the old one. */
export async function setTaxForm(deps: PayoutDeps, caller: PayoutCaller, body: TaxFormBody) {
  if (body.kind === 'W-9' && body.country !== 'US')
    throw invalidArgument('A W-9 is for US persons: choose W-8BEN if you are not one.');
  if (body.kind === 'W-8BEN' && body.country === 'US')
    throw invalidArgument('A W-8BEN is for people who are not US persons: choose W-9.');
  await deps.payouts.ensurePayee(caller.userId, caller.email);
  await deps.payouts.setPayee(caller.userId, {
    taxForm: {
      kind: body.kind,
      legalName: body.legalName.trim(),
      country: body.country,
      treatyClaim: body.kind === 'W-8BEN' ? (body.treatyClaim ?? '').trim() : '',
      signedAt: nowOf(deps).toISOString(),
    },
  });
  return myPayouts(deps, caller);
}

/** PUT /api/me/payouts/minimum: from the rail's minimum ($1) to $10,000; the default is $100. */
export async function setMinimum(deps: PayoutDeps, caller: PayoutCaller, body: MinimumBody) {
  const c = body.minimumCents;
  if (!Number.isInteger(c) || c < RAIL_MINIMUM_CENTS || c > MAX_MINIMUM_CENTS)
    throw invalidArgument(
      `Choose a minimum between $${RAIL_MINIMUM_CENTS / 100} (the lowest payout the bank transfer allows) and $${MAX_MINIMUM_CENTS / 100}.`,
    );
  await deps.payouts.ensurePayee(caller.userId, caller.email);
  await deps.payouts.setPayee(caller.userId, { minimumCents: c });
  return myPayouts(deps, caller);
}
