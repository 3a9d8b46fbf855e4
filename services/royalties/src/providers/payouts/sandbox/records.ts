// The payout sandbox's accounts and the test values it mirrors from Stripe (shared by its logic and pages).
import type { Doc } from '@omni/platform';

export const PREFIX = '/payouts-sandbox';
export const ROUTING_OK = '110000000';
/** Stripe's test US bank accounts (docs.stripe.com/connect/testing): each fails its payouts this way. */
export const FAILING_ACCOUNTS: Record<string, string> = {
  '000111111116': 'no_account',
  '000111111113': 'account_closed',
  '000222222227': 'insufficient_funds',
  '000333333335': 'debit_not_authorized',
  '000444444440': 'invalid_currency',
};
export const GOOD_ACCOUNT = '000123456789';
/** What a new recipient account must give, in Stripe's requirement names. */
export const REQUIREMENTS = [
  'individual.first_name',
  'individual.last_name',
  'individual.dob.day',
  'individual.address.line1',
  'individual.ssn_last_4',
  'external_account',
  'tos_acceptance.date',
] as const;

export interface SandboxAccountDoc extends Doc {
  key: string;
  payeeId: string;
  email: string;
  /** What the form was given, as { name, value } entries: Stripe's requirement names hold dots, which
   * MongoDB refuses in a field name (the cluster's onboarding failed on "individual.first_name"), and
   * FerretDB refuses [name, value] pairs (arrays inside an array). */
  given: Array<{ name: string; value: string }>;
  bank: { routing: string; account: string } | null;
  created: number;
}
/** Input the hosted form refuses; the message is shown on the form. */
export class SandboxFormError extends Error {
  override name = 'SandboxFormError';
}

export const dueOf = (a: SandboxAccountDoc) => {
  const given = new Set(a.given.map((g) => g.name));
  return REQUIREMENTS.filter((r) => !given.has(r));
};
