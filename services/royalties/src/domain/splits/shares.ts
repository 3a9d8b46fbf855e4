// Split tables: who gets which part of a track's money, from which sale month. Pure rules, no I/O.
//
// A percentage has at most 4 decimals, so it is kept as an integer count of 0.0001 % ("units"): 100 % is
// 1,000,000 units and a table's units always add up to exactly that. Sums of integers cannot drift, so
// "exactly 100" means exactly, and the owner's remainder is 1,000,000 minus the others.
//
// A party is who a share is paid to: `user:<account id>` (the release's owner, or whoever an invitation
// was bound to) or `inv:<invitation id>` (a collaborator invited by email). A collaborator's share is
// always an invitation's, accepted or not: its money is allocated to the invitation as it comes, held
// while the invitation is pending, and is the invitee's the moment they accept — whatever address they
// sign in with. Nothing is ever moved back to the owner behind anyone's back.

/** 100 % in units of 0.0001 %. */
export const WHOLE = 1_000_000;
const DECIMALS = 4;

export class SplitRefused extends Error {
  override name = 'SplitRefused';
}

/** "12.5", "33.3333", 50 → units; refuses more than 4 decimals, signs and anything over 100. */
export function parsePercent(value: string | number): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(\d{1,3})(?:\.(\d+))?$/.exec(text);
  if (!m) throw new SplitRefused(`"${text.slice(0, 20)}" is not a percentage; write a number from 0 to 100.`);
  const frac = m[2] ?? '';
  if (frac.replace(/0+$/, '').length > DECIMALS)
    throw new SplitRefused(`${text}% has more than 4 decimals; shares go down to 0.0001%.`);
  const units = Number(m[1]) * 10 ** DECIMALS + Number(frac.padEnd(DECIMALS, '0').slice(0, DECIMALS));
  if (units > WHOLE) throw new SplitRefused(`${text}% is more than 100%.`);
  return units;
}

/** Units → "12.5" (no trailing zeros; "0" and "100" whole). */
export function formatPercent(units: number): string {
  const int = Math.floor(units / 10 ** DECIMALS);
  const frac = String(units % 10 ** DECIMALS)
    .padStart(DECIMALS, '0')
    .replace(/0+$/, '');
  return frac ? `${int}.${frac}` : String(int);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export interface ShareInput {
  email: string;
  percent: string | number;
}

export interface TableEntry {
  party: string;
  /** The address the share was set for (the owner's own, or the invitation's at the time). */
  email: string;
  units: number;
  role: 'owner' | 'collaborator';
}

/**
 * Checks the shares asked for and completes them with the owner's remainder. The owner may be listed
 * (then the shares must add up to exactly 100 %) or not (then the owner gets what is left, and the
 * others may not exceed 100 %). Returns the collaborators' shares by address and the owner's units.
 */
export function planShares(
  shares: readonly ShareInput[],
  ownerEmail: string,
): { collaborators: Array<{ email: string; units: number }>; ownerUnits: number } {
  const owner = normalizeEmail(ownerEmail);
  const seen = new Set<string>();
  const collaborators: Array<{ email: string; units: number }> = [];
  let ownerUnits: number | null = null;
  let total = 0;
  for (const s of shares) {
    const email = normalizeEmail(s.email);
    if (seen.has(email)) throw new SplitRefused(`${email} is listed twice; give each person one share.`);
    seen.add(email);
    const units = parsePercent(s.percent);
    total += units;
    if (owner && email === owner) ownerUnits = units;
    else collaborators.push({ email, units });
  }
  if (ownerUnits !== null) {
    if (total !== WHOLE)
      throw new SplitRefused(`Shares must add up to exactly 100%; these add up to ${formatPercent(total)}%.`);
    return { collaborators, ownerUnits };
  }
  if (total > WHOLE)
    throw new SplitRefused(
      `Collaborators' shares add up to ${formatPercent(total)}%; together they can have at most 100%.`,
    );
  return { collaborators, ownerUnits: WHOLE - total };
}

/** YYYY-MM of a date (UTC): the sale month a change made on that day applies from at the earliest. */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The month a change applies from: sales of that month on. Never earlier than the current month, so a
 * change never reaches back into sales already made (peers' consensus: splits are not retroactive).
 */
export function effectiveMonth(asked: string | undefined, now: Date): string {
  const current = monthOf(now);
  if (!asked) return current;
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(asked))
    throw new SplitRefused('Say the month a change applies from as YYYY-MM, like 2026-10.');
  if (asked < current)
    throw new SplitRefused(
      `Splits never change the past: a change can apply from ${current} (this month) or a later month, not ${asked}.`,
    );
  return asked;
}

export interface Version {
  /** '' for the release's default (lines reported for the whole release, tracks without their own). */
  target: string;
  effectiveFrom: string;
  /** Order of writing: among versions of one target and month, the later one holds. */
  seq: number;
  entries: TableEntry[];
}

/**
 * The table that applies to a sale of `trackId` in `saleMonth`: the track's latest version effective by
 * then, else the release default's, else null (the owner takes everything).
 */
export function tableFor(
  versions: readonly Version[],
  trackId: string,
  saleMonth: string,
): TableEntry[] | null {
  let best: Version | null = null;
  let fallback: Version | null = null;
  for (const v of versions) {
    if (v.effectiveFrom > saleMonth) continue;
    const later = (than: Version | null) =>
      !than ||
      v.effectiveFrom > than.effectiveFrom ||
      (v.effectiveFrom === than.effectiveFrom && v.seq > than.seq);
    if (trackId && v.target === trackId && later(best)) best = v;
    if (v.target === '' && later(fallback)) fallback = v;
  }
  return (best ?? fallback)?.entries ?? null;
}
