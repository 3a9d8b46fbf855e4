// One ledger line's money to its payees: first what the release still owes its recoupable expenses and
// advances (repaid from gross, before any split), then the rest split by the table's shares. Every piece
// is an integer of nano-units and the pieces of a line add up to the line exactly: shares are allocated by
// the largest remainder method (each payee gets floor(amount × share), the units left over go one each to
// the largest dropped fractions), never computed one by one and rounded, which loses or invents units
// (spliit#374, gumroad#5468). To the nano means to the cent too: a payee's cents are their nano-sum
// rounded once, where it is shown or paid.
import { WHOLE } from './shares';

/**
 * Splits `amount` over integer weights summing to `whole` (> 0) by largest remainder. Ties go to the
 * larger weight, then to the earlier entry, so the outcome depends only on the table. Works for negative
 * amounts (a return is split like a sale: floors toward minus infinity, then units handed back).
 */
export function splitAmount(amount: bigint, weights: readonly number[], whole = WHOLE): bigint[] {
  const d = BigInt(whole);
  const n = weights.length;
  const out = new Array<bigint>(n);
  const rem = new Array<bigint>(n);
  let given = 0n;
  for (let i = 0; i < n; i += 1) {
    const p = amount * BigInt(weights[i]!);
    let q = p / d;
    let r = p % d;
    if (r < 0n) {
      q -= 1n;
      r += d;
    }
    out[i] = q;
    rem[i] = r;
    given += q;
  }
  let left = amount - given; // 0 <= left < n
  if (left > 0n) {
    const order = [...weights.keys()].sort((a, b) => {
      const ra = rem[a]!;
      const rb = rem[b]!;
      if (ra !== rb) return ra > rb ? -1 : 1;
      if (weights[a] !== weights[b]) return weights[b]! - weights[a]!;
      return a - b;
    });
    for (const i of order) {
      if (left === 0n) break;
      if (rem[i] === 0n) break;
      out[i]! += 1n;
      left -= 1n;
    }
  }
  return out;
}

/** A recoupable expense or advance of a release, with what it still waits for. */
export interface Recoupable {
  id: string;
  /** Who is repaid (paid the expense, or gave the advance). */
  party: string;
  outstanding: bigint;
}

export interface Piece {
  party: string;
  amount: bigint;
  /** 'recoup': repaying `expenseId`; 'split': a share. */
  kind: 'recoup' | 'split';
  expenseId?: string;
}

export interface Share {
  party: string;
  units: number;
}

/**
 * A line's pieces. `recoupables` are in repayment order (expenses before advances, oldest first) and are
 * drawn down in place: the caller keeps them across the lines of a release. Only money coming in repays
 * (a positive line); a return or deduction is split by the shares, as the money it takes back was.
 */
export function allocateLine(amount: bigint, shares: readonly Share[], recoupables: Recoupable[]): Piece[] {
  const pieces: Piece[] = [];
  let rest = amount;
  if (rest > 0n)
    for (const r of recoupables) {
      if (rest === 0n) break;
      if (r.outstanding <= 0n) continue;
      // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers only)
      const take = r.outstanding < rest ? r.outstanding : rest;
      r.outstanding -= take;
      rest -= take;
      pieces.push({ party: r.party, amount: take, kind: 'recoup', expenseId: r.id });
    }
  if (rest === 0n && pieces.length > 0) return pieces;
  const parts = splitAmount(
    rest,
    shares.map((s) => s.units),
  );
  for (let i = 0; i < shares.length; i += 1)
    if (parts[i] !== 0n || shares.length === 1)
      pieces.push({ party: shares[i]!.party, amount: parts[i]!, kind: 'split' });
  return pieces;
}
