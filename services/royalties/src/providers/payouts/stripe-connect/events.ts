// Stripe's Connect webhook events → royalties' PayoutEvent, checked field by field at the boundary (a
// signature proves who sent the bytes, not that each field is what the rules assume). Also used by the
// sandbox, whose events are in Stripe's shapes. Event names as in stripe@23.1.0: account.updated,
// transfer.created|updated|reversed (there is no transfer.paid/failed any more), payout.created|updated|
// paid|failed|canceled. Other types are recorded and ignored.
import Stripe from 'stripe';
import { z } from 'zod';
import { type FailureReason, type PayoutEvent, WebhookEventError, WebhookSignatureError } from '../port';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

const seconds = z
  .number({ error: 'must be a time in unix seconds' })
  .min(946_684_800, 'must be a time after 2000-01-01')
  .max(7_258_118_400, 'must be a time before 2200-01-01')
  .int('must be whole unix seconds');
const id = z.string().min(1).max(255);
const ref = z.union([id, z.object({ id })]).transform((v) => (typeof v === 'string' ? v : v.id));
const names = z.array(z.string().max(200)).max(200).nullish();
const metadata = z.record(z.string(), z.string()).nullish();

const envelope = z.object({
  id,
  type: z.string().min(1).max(200),
  created: seconds,
  livemode: z.boolean(),
  account: id.nullish(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

const account = z.object({
  id,
  payouts_enabled: z.boolean().nullish(),
  requirements: z
    .object({
      currently_due: names,
      past_due: names,
      pending_verification: names,
      disabled_reason: z.string().max(200).nullish(),
    })
    .nullish(),
});

const transfer = z.object({ id, metadata, reversed: z.boolean().nullish() });

const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
const payout = z.object({
  id,
  status: z.enum(PAYOUT_STATUSES, { error: `must be one of ${PAYOUT_STATUSES.join(', ')}` }),
  failure_code: z.string().max(100).nullish(),
  metadata,
  destination: ref.nullish(),
});

/** Stripe's payout failure_code → Omni's reason (unknown codes are 'other', said in general words). */
const FAILURES: Record<string, FailureReason> = {
  account_closed: 'account_closed',
  no_account: 'no_account',
  invalid_account_number: 'invalid_account_number',
  insufficient_funds: 'insufficient_funds',
  debit_not_authorized: 'debit_not_authorized',
  invalid_currency: 'invalid_currency',
  account_frozen: 'account_frozen',
  bank_account_restricted: 'bank_account_restricted',
  could_not_process: 'could_not_process',
  bank_ownership_changed: 'account_closed',
};

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = [where, ...issue.path.map(String)].join('.');
  throw new WebhookEventError(`The webhook event's ${path} ${issue.message}.`);
}

/** A verified event (any object) in royalties' terms. */
export function payoutEventOf(raw: unknown): PayoutEvent {
  const e = parse(envelope, raw, 'event');
  const base = { id: e.id, type: e.type, created: e.created, livemode: e.livemode };
  const obj = e.data.object;
  if (e.type === 'account.updated') {
    const a = parse(account, obj, 'data.object');
    const due = [...new Set([...(a.requirements?.past_due ?? []), ...(a.requirements?.currently_due ?? [])])];
    return {
      ...base,
      kind: 'account',
      account: {
        accountId: a.id,
        payoutsEnabled: a.payouts_enabled ?? false,
        currentlyDue: due,
        pendingVerification: a.requirements?.pending_verification ?? [],
        disabledReason: a.requirements?.disabled_reason ?? '',
      },
    };
  }
  if (e.type === 'transfer.created' || e.type === 'transfer.updated' || e.type === 'transfer.reversed') {
    const t = parse(transfer, obj, 'data.object');
    return {
      ...base,
      kind: 'transfer',
      change: e.type.slice('transfer.'.length) as 'created' | 'updated' | 'reversed',
      transferId: t.id,
      payoutId: t.metadata?.omni_payout_id ?? '',
    };
  }
  if (e.type.startsWith('payout.') && e.type !== 'payout.reconciliation_completed') {
    const p = parse(payout, obj, 'data.object');
    return {
      ...base,
      kind: 'payout',
      state: p.status,
      providerPayoutId: p.id,
      accountId: e.account ?? '',
      payoutId: p.metadata?.omni_payout_id ?? '',
      failure: p.status === 'failed' ? (FAILURES[p.failure_code ?? ''] ?? 'other') : null,
    };
  }
  return { ...base, kind: 'other' };
}

/** Stripe's verifier over the raw bytes (HMAC-SHA256 of `${t}.${body}`, tolerance 300 s), then the mapping. */
export function verifyConnectEvent(secret: string) {
  return (payload: Buffer, signature: string): PayoutEvent => {
    let event: unknown;
    try {
      event = Stripe.webhooks.constructEvent(payload, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw new WebhookSignatureError(err);
      throw new WebhookEventError('The webhook body is not a Stripe event: it is not JSON.');
    }
    return payoutEventOf(event);
  };
}

/** Signs a payload as Stripe does (the sandbox's deliveries and tests). */
export const signPayload = (payload: string, secret: string) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });
