// /app/payouts' calls (proto/api/payouts.ts): GET /api/me/payouts, the payout account's hosted onboarding,
// the tax form, the minimum, and the monthly statements (JSON on screen, CSV and PDF downloaded with the
// session's token, so not plain links). Answers are parsed with the contract.
import {
  type MinimumBody,
  type MyPayouts,
  myPayouts,
  onboardingLink,
  type PayeeStatement,
  statementJson,
  type TaxFormBody,
} from '@omni/proto/api';
import { ApiError, apiFetch, apiResponse } from '@omni/ui';
import * as z from 'zod/mini';

export { parseMinimum } from './payout-minimum';
export type { MyPayouts, PayeeStatement, TaxFormBody };

export const payoutsQueryKey = (userId: string | undefined) => ['payouts', userId] as const;

function contract<T>(schema: z.ZodMiniType<T>, raw: unknown, what: string): T {
  const parsed = z.safeParse(schema, raw);
  if (!parsed.success) {
    console.error(`${what} answered outside the contract`, parsed.error);
    throw new Error('The answer was not understood. Try again in a moment.');
  }
  return parsed.data;
}

export async function fetchPayouts(): Promise<MyPayouts> {
  return contract(myPayouts, await apiFetch('/api/me/payouts'), 'GET /api/me/payouts');
}

/** The hosted page where the payout account is set up (the payout sandbox's form under `npm start`). */
export async function startOnboarding(): Promise<string> {
  const raw = await apiFetch('/api/me/payouts/onboarding', { method: 'POST' });
  return contract(onboardingLink, raw, 'POST /api/me/payouts/onboarding').url;
}

export async function saveTaxForm(body: TaxFormBody): Promise<MyPayouts> {
  const raw = await apiFetch('/api/me/payouts/tax-form', { method: 'PUT', body: JSON.stringify(body) });
  return contract(myPayouts, raw, 'PUT /api/me/payouts/tax-form');
}

export async function saveMinimum(body: MinimumBody): Promise<MyPayouts> {
  const raw = await apiFetch('/api/me/payouts/minimum', { method: 'PUT', body: JSON.stringify(body) });
  return contract(myPayouts, raw, 'PUT /api/me/payouts/minimum');
}

export async function fetchStatement(period: string): Promise<PayeeStatement> {
  const raw = await apiFetch(`/api/me/payouts/statements/${encodeURIComponent(period)}`);
  return contract(statementJson, raw, 'GET /api/me/payouts/statements');
}

/** Downloads the statement as CSV or PDF under the server's file name. */
export async function downloadStatement(period: string, format: 'csv' | 'pdf'): Promise<void> {
  const res = await apiResponse(`/api/me/payouts/statements/${encodeURIComponent(period)}.${format}`, {
    headers: { accept: format === 'csv' ? 'text/csv' : 'application/pdf' },
  });
  if (!res.ok) throw new ApiError(`The ${format.toUpperCase()} could not be downloaded.`, res.status);
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
    `omni-statement-${period}.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
