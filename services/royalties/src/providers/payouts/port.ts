// The payouts port: what royalties asks of a payout rail, in Omni's terms. Two adapters sit beside it:
//   stripe-connect/  Stripe Connect through the `stripe` package: one recipient account per payee
//                    (transfers capability only, the recipient service agreement), hosted onboarding links,
//                    a transfer to the account and a payout from it to the bank, each with an idempotency key.
//   sandbox/         the embedded payout sandbox for `npm start` and tests (PAYOUTS=embedded, refused in
//                    production): accounts whose requirements shrink as its hosted form is filled in, Stripe's
//                    magic test bank accounts that fail, a clock moving payouts pending → in transit → paid,
//                    and the SAME signed events, in Stripe's shapes, through the same webhook route.
// Neither changes royalties' records: only verified webhook events do (use-cases/payouts.ts applyEvent),
// so the sandbox exercises production's path. Stripe's shapes stay inside stripe-connect/ (events.ts maps
// them into PayoutEvent; tests/architecture holds it).

/** Why a payout failed, as Omni names it (domain/payouts/payout.ts says each in plain words). */
export type FailureReason =
  | 'account_closed'
  | 'no_account'
  | 'invalid_account_number'
  | 'insufficient_funds'
  | 'debit_not_authorized'
  | 'invalid_currency'
  | 'account_frozen'
  | 'bank_account_restricted'
  | 'could_not_process'
  | 'transfer_failed'
  | 'other';

/** Where a payee's account stands at the rail. */
export interface AccountFacts {
  accountId: string;
  payoutsEnabled: boolean;
  /** The rail's names of what is still needed now (Stripe's requirements.currently_due). */
  currentlyDue: string[];
  /** Fields submitted and being checked. */
  pendingVerification: string[];
  /** Why payouts are off, in the rail's terms ('' when they are not). */
  disabledReason: string;
}

/** A verified webhook event in royalties' terms. */
export type PayoutEvent = {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  livemode: boolean;
} & (
  | { kind: 'account'; account: AccountFacts }
  | {
      kind: 'transfer';
      change: 'created' | 'updated' | 'reversed';
      transferId: string;
      /** Omni's payout id (the transfer's metadata), or ''. */
      payoutId: string;
    }
  | {
      kind: 'payout';
      state: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
      providerPayoutId: string;
      accountId: string;
      /** Omni's payout id when the rail's payout carries it in metadata (the sandbox's do), else ''. */
      payoutId: string;
      failure: FailureReason | null;
    }
  | { kind: 'other' }
);

export interface TransferInput {
  accountId: string;
  amountCents: bigint;
  /** Omni's payout id: the transfer's and the payout's metadata, and the transfer group. */
  payoutId: string;
  payeeId: string;
}

export interface PayoutsProvider {
  readonly kind: 'stripe-connect' | 'sandbox';
  /** One recipient account per payee; the same key returns the same account. */
  createAccount(input: { payeeId: string; email: string }, idempotencyKey: string): Promise<AccountFacts>;
  /** A hosted onboarding (or update) page for the account, used once. */
  onboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string }>;
  /**
   * Moves the money to the payee's account (a transfer); the rail pays it out to their bank and says so
   * in payout.* events. The same key never moves it twice (`${key}:transfer` at Stripe).
   */
  pay(input: TransferInput, idempotencyKey: string): Promise<{ transferId: string }>;
  /** A failed payout's money back to the platform (the transfer reversed), once per key. */
  reverse(input: { transferId: string; amountCents: bigint }, idempotencyKey: string): Promise<void>;
  /** The signed bytes → an event in royalties' terms (WebhookSignatureError / WebhookEventError otherwise). */
  verify(payload: Buffer, signature: string): PayoutEvent;
  close(): Promise<void>;
}

export class WebhookSignatureError extends Error {
  constructor(cause: unknown) {
    super('webhook signature refused', { cause });
    this.name = 'WebhookSignatureError';
  }
}

/** Signed bytes that are not an event royalties can read; the message names the field. */
export class WebhookEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookEventError';
  }
}

/** The rail could not be reached or failed on its side: the payout is failed and tried again. */
export class PayoutsUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PayoutsUnavailableError';
  }
}
