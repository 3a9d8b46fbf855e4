// "Why not paid": what stands between a payee and the next run, item by item, in plain words. The same
// function decides whether the run pays them, so the page can never say "ready" while the run skips them.
import { formatAmount } from '../money';
import { centsDown, type FailureReason, failureWords, nextRunDate, type TaxForm } from './payout';

export type AccountStatus = 'none' | 'incomplete' | 'pending_verification' | 'verified' | 'restricted';

export interface ChecklistInput {
  taxForm: TaxForm | null;
  account: { status: AccountStatus; currentlyDue: string[] } | null;
  /** Nano-dollars the payee may be paid now (allocated minus what is paid or on its way). */
  balance: bigint;
  minimumCents: number;
  holds: string[];
  /** A payout already on its way (one at a time per payee). */
  inFlight: boolean;
  lastFailure: FailureReason | null;
  now: Date;
}

export interface ChecklistItem {
  key: 'tax_form' | 'account' | 'threshold' | 'holds' | 'in_flight';
  ok: boolean;
  text: string;
}

const usd = (cents: bigint) => `$${formatAmount(cents * 10_000_000n, 2)}`;

export interface Checklist {
  ready: boolean;
  items: ChecklistItem[];
  nextRun: string;
  /** The last payout's failure in plain words (the money is back in the balance), or null. */
  lastFailure: string | null;
}

export function checklist(i: ChecklistInput): Checklist {
  const items: ChecklistItem[] = [];
  items.push(
    i.taxForm
      ? { key: 'tax_form', ok: true, text: `${i.taxForm.kind} given on ${i.taxForm.signedAt.slice(0, 10)}.` }
      : { key: 'tax_form', ok: false, text: 'Give a tax form (W-9 if you are a US person, W-8BEN if not).' },
  );
  const acc = i.account;
  let accountText: string;
  if (!acc || acc.status === 'none') accountText = 'Set up your payout account (bank details and identity).';
  else if (acc.status === 'verified') accountText = 'Payout account verified.';
  else if (acc.status === 'pending_verification') accountText = 'Your payout account is being verified.';
  else if (acc.status === 'restricted')
    accountText = `Your payout account needs attention: ${acc.currentlyDue.length ? `still due: ${acc.currentlyDue.join(', ')}` : 'continue the setup'}.`;
  else
    accountText = `Finish your payout account setup (still due: ${acc.currentlyDue.join(', ') || 'review'}).`;
  items.push({ key: 'account', ok: acc?.status === 'verified', text: accountText });
  const cents = centsDown(i.balance);
  const min = BigInt(i.minimumCents);
  items.push({
    key: 'threshold',
    ok: cents >= min,
    text:
      cents >= min
        ? `Your balance (${usd(cents)}) reaches your minimum of ${usd(min)}.`
        : `Your balance (${usd(cents)}) is below your minimum of ${usd(min)}.`,
  });
  items.push(
    i.holds.length
      ? { key: 'holds', ok: false, text: `On hold: ${i.holds.join('; ')}` }
      : { key: 'holds', ok: true, text: 'No holds on your payouts.' },
  );
  if (i.inFlight) items.push({ key: 'in_flight', ok: false, text: 'A payout is on its way to your bank.' });
  return {
    ready: items.every((x) => x.ok),
    items,
    nextRun: nextRunDate(i.now),
    lastFailure: i.lastFailure ? `Your last payout failed: ${failureWords(i.lastFailure)}` : null,
  };
}
