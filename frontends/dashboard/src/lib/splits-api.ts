// Clients for splits and collaborators (issue 26; REST contract proto/api/splits.ts): a release's share
// tables, the owner's choices on an invitation, expenses, the invitation link's page and /api/me/earnings.
// Answers are parsed with the contract's schemas; percents and money stay decimal strings.
import {
  type ExpenseBody,
  type InvitationActionBody,
  invitationView,
  myEarnings,
  mySplits,
  releaseSplits,
  type SetSplitsBody,
  splitsChanged,
} from '@omni/proto/api';
import { apiFetch } from '@omni/ui';
import type * as z from 'zod/mini';

export type ReleaseSplits = z.infer<typeof releaseSplits>;
export type SplitsChanged = z.infer<typeof splitsChanged>;
export type InvitationView = z.infer<typeof invitationView>;
export type MyEarnings = z.infer<typeof myEarnings>;

const releasePath = (id: string) => `/api/releases/${encodeURIComponent(id)}`;

export async function fetchSplits(releaseId: string): Promise<ReleaseSplits> {
  return releaseSplits.parse(await apiFetch(`${releasePath(releaseId)}/splits`));
}

export async function saveSplits(releaseId: string, body: SetSplitsBody): Promise<SplitsChanged> {
  return splitsChanged.parse(
    await apiFetch(`${releasePath(releaseId)}/splits`, { method: 'PUT', body: JSON.stringify(body) }),
  );
}

export async function actOnInvitation(
  releaseId: string,
  invitationId: string,
  body: InvitationActionBody,
): Promise<ReleaseSplits> {
  return releaseSplits.parse(
    await apiFetch(`${releasePath(releaseId)}/splits/invitations/${encodeURIComponent(invitationId)}`, {
      method: 'POST',
      body: JSON.stringify(body),
    }),
  );
}

export async function addExpense(releaseId: string, body: ExpenseBody): Promise<ReleaseSplits> {
  return releaseSplits.parse(
    await apiFetch(`${releasePath(releaseId)}/expenses`, { method: 'POST', body: JSON.stringify(body) }),
  );
}

/** What the link shows, signed in or not (the token is the proof). */
export async function fetchInvitation(token: string): Promise<InvitationView> {
  return invitationView.parse(
    await apiFetch(`/api/splits/invitations/${encodeURIComponent(token)}`, {}, { auth: false }),
  );
}

export async function acceptInvitation(token: string): Promise<InvitationView> {
  return invitationView.parse(
    await apiFetch(`/api/splits/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST' }),
  );
}

export async function fetchEarnings(): Promise<MyEarnings> {
  return myEarnings.parse(await apiFetch('/api/me/earnings'));
}

/** Percent text → whole 0.0001 % units, or null when it is not a number with at most 4 decimals. */
export function percentUnits(text: string): number | null {
  const m = /^\s*(\d{1,3})(?:\.(\d{1,4}))?\s*$/.exec(text);
  if (!m) return null;
  // Over 100 is a number all the same: the sum's words say what is wrong with it.
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
}

/** Whole units → "33.3333" (trailing zeros dropped). */
export function unitsText(units: number): string {
  const whole = Math.floor(units / 10_000);
  const frac = String(units % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export type MySplits = z.infer<typeof mySplits>;

/** /app/splits: the caller's releases' split state and the shares offered to them, in one call. */
export async function fetchMySplits(): Promise<MySplits> {
  return mySplits.parse(await apiFetch('/api/me/splits'));
}
