// Splitting a summary's money over its lines pro rata by usages, by the largest remainder method at
// nano precision, so the lines add up to the summary exactly (shares computed one by one lose or invent
// units: spliit#374, gumroad#5468). Used for the Basic Audio Profile, whose SU lines carry no money.
//
// Each line first gets floor(total × w / W); the R units left over (0 ≤ R < number of lines) go one each
// to the lines whose dropped fractions are largest, ties to the earlier line. Weights may be negative
// (returns) as long as their sum is not zero.

/** Allocates `total` over `weights` (in memory; for one summary's lines or for tests). */
export function largestRemainder(total: bigint, weights: readonly bigint[]): bigint[] {
  const plan = planAllocation(total, countWeights(weights));
  const seen = new Map<bigint, number>();
  return weights.map((w) => {
    const nth = seen.get(w) ?? 0;
    seen.set(w, nth + 1);
    return plan.share(w, nth);
  });
}

/** How many lines have each weight: a line's share depends only on its weight and its order among equals. */
export function countWeights(weights: Iterable<bigint>): Map<bigint, number> {
  const counts = new Map<bigint, number>();
  for (const w of weights) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

export interface AllocationPlan {
  /** The share of the `nth` (0-based, in file order) line of weight `w`. */
  share(w: bigint, nth: number): bigint;
}

/**
 * Plans the allocation from the count of lines per weight, so a reader needs memory per distinct weight
 * (a few thousand distinct stream counts), not per line. Throws when the weights sum to zero.
 */
export function planAllocation(total: bigint, counts: ReadonlyMap<bigint, number>): AllocationPlan {
  let W = 0n;
  for (const [w, n] of counts) W += w * BigInt(n);
  if (W === 0n) throw new RangeError('Cannot allocate over weights that sum to zero.');
  // Work with a positive divisor: flipping the signs of total and W leaves every share the same.
  const sign = W < 0n ? -1n : 1n;
  const t = total * sign;
  const d = W * sign;
  const floorOf = (w: bigint) => {
    const n = t * w;
    const q = n / d;
    return n % d < 0n ? q - 1n : q;
  };
  const remainderOf = (w: bigint) => {
    const r = (t * w) % d;
    return r < 0n ? r + d : r;
  };

  let floors = 0n;
  for (const [w, n] of counts) floors += floorOf(w) * BigInt(n);
  let left = total - floors; // lines that get one more unit; 0 <= left < number of lines

  // Weights by remainder, largest first; ties between different weights to the larger weight, so the
  // outcome never depends on the order the map was filled in.
  const order = [...counts.keys()].sort((a, b) => {
    const ra = remainderOf(a);
    const rb = remainderOf(b);
    if (ra !== rb) return ra > rb ? -1 : 1;
    return a === b ? 0 : a > b ? -1 : 1;
  });
  const extra = new Map<bigint, number>(); // weight → how many of its lines (the first ones) get +1
  for (const w of order) {
    if (left === 0n) break;
    if (remainderOf(w) === 0n) break; // an exact share never takes a leftover unit
    const n = counts.get(w)!;
    const give = left < BigInt(n) ? Number(left) : n;
    extra.set(w, give);
    left -= BigInt(give);
  }
  return {
    share: (w, nth) => floorOf(w) + (nth < (extra.get(w) ?? 0) ? 1n : 0n),
  };
}
