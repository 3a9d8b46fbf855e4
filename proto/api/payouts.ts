// Payouts: the REST contract of a payee's payouts page (/api/me/payouts): balance, the "why not paid"
// checklist, the payout account's onboarding, the tax form as given, the payee's minimum, payouts and
// monthly statements (/api/me/payouts/statements/:period, also .csv and .pdf). Money crosses the wire as
// USD decimal strings (up to 9 decimals), never a float; cents as whole numbers.
import * as z from 'zod/mini';

const amount = z.string().check(z.regex(/^-?\d+(\.\d{1,9})?$/));
const period = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Periods are written YYYY-MM.'));

export const PAYOUT_STATES = ['pending', 'in_transit', 'paid', 'failed'] as const;
export const ACCOUNT_STATES = [
  'none',
  'incomplete',
  'pending_verification',
  'verified',
  'restricted',
] as const;

/** PUT /api/me/payouts/tax-form: recorded as given (Omni checks its shape, never the IRS's records). */
export const taxFormBody = z.object({
  kind: z.enum(['W-9', 'W-8BEN']),
  legalName: z
    .string()
    .check(z.trim(), z.minLength(2, 'Write your name as on your tax return.'), z.maxLength(200)),
  country: z.string().check(z.regex(/^[A-Z]{2}$/, 'Choose a country (two letters, like US or FR).')),
  /** W-8BEN only: the treaty article and rate claimed, as the payee writes it ('' for none). */
  treatyClaim: z.optional(z.string().check(z.maxLength(200))),
  /** The payee's confirmation that what they gave is true (the form's certification). */
  certify: z.literal(true, 'Confirm that the information is correct.'),
});
export type TaxFormBody = z.infer<typeof taxFormBody>;

/** PUT /api/me/payouts/minimum: whole US cents, from the rail's minimum to $10,000. */
export const minimumBody = z.object({ minimumCents: z.number().check(z.int()) });
export type MinimumBody = z.infer<typeof minimumBody>;

export const checklistItem = z.object({
  key: z.enum(['tax_form', 'account', 'threshold', 'holds', 'in_flight']),
  ok: z.boolean(),
  text: z.string(),
});

export const payoutJson = z.object({
  id: z.string(),
  runDate: z.string(),
  attempt: z.number(),
  amount,
  state: z.enum(PAYOUT_STATES),
  /** In plain words, when it failed (the money is back in the balance). */
  failure: z.nullable(z.string()),
  /** When a failed payout is tried again, or null. */
  retryAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** GET /api/me/payouts */
export const myPayouts = z.object({
  currency: z.literal('USD'),
  /** What may be paid: allocated to the payee minus payouts on their way or paid. */
  balance: amount,
  /** The part of the balance the next payout would send (whole cents, rounded down). */
  payable: amount,
  minimumCents: z.number(),
  defaultMinimumCents: z.number(),
  railMinimumCents: z.number(),
  taxForm: z.nullable(
    z.object({
      kind: z.enum(['W-9', 'W-8BEN']),
      legalName: z.string(),
      country: z.string(),
      treatyClaim: z.string(),
      signedAt: z.string(),
    }),
  ),
  account: z.object({ status: z.enum(ACCOUNT_STATES), currentlyDue: z.array(z.string()) }),
  checklist: z.object({
    ready: z.boolean(),
    items: z.array(checklistItem),
    nextRun: z.string(),
    lastFailure: z.nullable(z.string()),
  }),
  withholdingNote: z.string(),
  payouts: z.array(payoutJson),
  statements: z.array(z.object({ period, closed: z.boolean() })),
  /** Which rail pays: the sandbox under npm start (no real money moves). */
  rail: z.enum(['stripe-connect', 'sandbox']),
});
export type MyPayouts = z.infer<typeof myPayouts>;

/** POST /api/me/payouts/onboarding: the hosted page to go to (used once). */
export const onboardingLink = z.object({ url: z.string() });

export const statementJson = z.object({
  payeeId: z.string(),
  period,
  closed: z.boolean(),
  currency: z.literal('USD'),
  opening: amount,
  income: z.array(z.object({ store: z.string(), territory: z.string(), saleMonth: z.string(), amount })),
  incomeTotal: amount,
  recoupment: amount,
  transfers: z.array(z.object({ id: z.string(), date: z.string(), amount, state: z.enum(PAYOUT_STATES) })),
  returned: z.array(z.object({ id: z.string(), date: z.string(), amount, reason: z.string() })),
  transfersTotal: amount,
  returnedTotal: amount,
  closing: amount,
});
export type PayeeStatement = z.infer<typeof statementJson>;
