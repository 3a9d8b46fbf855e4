// Payouts in Omni's own terms: what a payout is, the states it moves through, why one failed in plain
// words, when the runs happen and when a failed one is tried again. No provider's shapes here: the
// Stripe Connect adapter (providers/payouts/stripe-connect) maps Stripe's into these.
//
// Money: balances are integer nano-dollars (domain/money.ts); a transfer is whole cents, rounded DOWN, and
// the sub-cent remainder stays in the payee's balance for the next run (never rounded up: Omni would pay
// money that is not there; never dropped: the payee would lose it).

import type { FailureReason } from '../../providers/payouts/port';

export const NANO_PER_CENT = 10_000_000n;

/** Whole cents of a nano amount, rounded down (the remainder stays in the balance). */
export const centsDown = (nano: bigint): bigint => (nano <= 0n ? 0n : nano / NANO_PER_CENT);

/** The spec's minimum: $100. */
export const DEFAULT_MINIMUM_CENTS = 10_000;
/**
 * The lowest minimum a payee may choose: the rail's. Stripe's smallest payout to a US bank account is
 * $1.00 (Stripe's "minimum payout amounts" page, USD); below it the payout itself is refused.
 */
export const RAIL_MINIMUM_CENTS = 100;

/** Every 30 days from this day (UTC), the spec's cadence. */
export const RUN_EPOCH = Date.UTC(2026, 0, 5);
export const RUN_EVERY_DAYS = 30;
const DAY = 86_400_000;

/** The run date (YYYY-MM-DD) a moment belongs to: the latest run day at or before it. */
export function runDateOf(at: Date): string {
  const k = Math.floor((at.getTime() - RUN_EPOCH) / (RUN_EVERY_DAYS * DAY));
  return new Date(RUN_EPOCH + k * RUN_EVERY_DAYS * DAY).toISOString().slice(0, 10);
}

/** The next run day strictly after a moment. */
export function nextRunDate(at: Date): string {
  const k = Math.floor((at.getTime() - RUN_EPOCH) / (RUN_EVERY_DAYS * DAY)) + 1;
  return new Date(RUN_EPOCH + k * RUN_EVERY_DAYS * DAY).toISOString().slice(0, 10);
}

/**
 * Where a payout is. `pending`: the transfer is asked for and the payout to the bank created;
 * `in_transit`: the bank has it; `paid`: it arrived; `failed`: it did not, and the money is back in the
 * payee's balance (the transfer is reversed). A failed payout may first have said paid (Stripe's note), so
 * failed outranks paid; nothing else goes back.
 */
export const PAYOUT_STATES = ['pending', 'in_transit', 'paid', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];
const RANK: Record<PayoutState, number> = { pending: 0, in_transit: 1, paid: 2, failed: 3 };

/** Whether an event saying `next` moves a payout that is `held` (older or repeated news never moves it back). */
export const advances = (held: PayoutState, next: PayoutState) => RANK[next] > RANK[held];

/** Whether a payout in this state keeps its money out of the balance. */
export const holdsMoney = (state: PayoutState) => state !== 'failed';

/** Why a payout failed, in Omni's words (the rail's codes are mapped into FailureReason by its adapter). */
export const FAILURE_REASONS: Record<FailureReason, string> = {
  account_closed: 'The bank account is closed. Add another bank account.',
  no_account: 'The bank could not find this account number. Check the account and routing numbers.',
  invalid_account_number: 'The account number is not valid. Check it and save it again.',
  insufficient_funds:
    'The bank refused the payment (insufficient funds on the paying side). Omni will try again.',
  debit_not_authorized: 'The bank did not authorise the payment. Ask your bank, or add another account.',
  invalid_currency: 'This bank account cannot receive US dollars. Add an account in USD.',
  account_frozen: 'The bank account is frozen. Ask your bank, or add another account.',
  bank_account_restricted: 'The bank account cannot receive this payment. Ask your bank.',
  could_not_process: 'The bank could not process the payment. Omni will try again.',
  transfer_failed: 'Omni could not send the money to your payout account. Omni will try again.',
  other: 'The payment did not go through. Omni will try again.',
};
export type { FailureReason };

export const failureWords = (reason: FailureReason) => FAILURE_REASONS[reason];

/** A failed payout is tried again 1, 3 and 7 days after its first failure; then the payee is asked to act. */
export const RETRY_AFTER_DAYS = [1, 3, 7] as const;

/** When attempt `attempt` (1 = the first) may be tried again after it failed, or null: no more tries. */
export function retryAt(firstFailedAt: string, attempt: number): string | null {
  const days = RETRY_AFTER_DAYS[attempt - 1];
  if (days === undefined) return null;
  return new Date(Date.parse(firstFailedAt) + days * DAY).toISOString();
}

/** Tax forms as the payee gives them: recorded, never checked against the IRS, never guessed. */
export type TaxFormKind = 'W-9' | 'W-8BEN';
export interface TaxForm {
  kind: TaxFormKind;
  /** The name as on the tax return (the most common rejection when it differs). */
  legalName: string;
  /** ISO 3166 alpha-2. */
  country: string;
  /** W-8BEN: whether the payee claims a treaty rate (and which article), as given. */
  treatyClaim: string;
  signedAt: string;
}

/**
 * Withholding: Omni does NOT compute any. A W-8BEN without a treaty claim may owe 30 % US withholding on
 * US-source royalties; which lines are US-source and which rate applies is an accountant's decision, not
 * a guess in code. The payee's page says so in these words.
 */
export const WITHHOLDING_NOTE =
  'Omni does not withhold tax from payouts. If you gave a W-8BEN without a treaty claim, US withholding of up to 30 % may apply to US royalties; ask a tax adviser.';
