// Largest-remainder allocation: shares add up to the total exactly, each within one nano of its exact
// pro-rata value, and the leftover units go to the largest fractions.
import { countWeights, largestRemainder, planAllocation } from '../src/domain/statements/allocate';

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('largestRemainder', () => {
  it('gives the leftover units to the largest fractions, ties to the earlier line', () => {
    // 10 over 3 equal weights: 3.33 each, one unit left, to the first line.
    expect(largestRemainder(10n, [1n, 1n, 1n])).toEqual([4n, 3n, 3n]);
    // 100 over 1,2,3 (W=6): 16.67, 33.33, 50 → floors 16, 33, 50 (99), the 16.67 line gets the unit.
    expect(largestRemainder(100n, [1n, 2n, 3n])).toEqual([17n, 33n, 50n]);
    // Negative totals round the same way (a refund split over the same usages).
    expect(largestRemainder(-100n, [1n, 2n, 3n])).toEqual([-17n, -33n, -50n]);
    expect(largestRemainder(7n, [5n])).toEqual([7n]);
    expect(largestRemainder(0n, [3n, 9n])).toEqual([0n, 0n]);
  });

  it('splits with returns among the weights, as long as they do not cancel out', () => {
    const shares = largestRemainder(1_000n, [10n, -2n, 5n]);
    expect(shares.reduce((a, b) => a + b, 0n)).toBe(1_000n);
    // Exact: 769.23, −153.85, 384.62 → floors 769, −154, 384 (999); the .62 takes the unit.
    expect(shares).toEqual([769n, -154n, 385n]);
    expect(() => largestRemainder(5n, [2n, -2n])).toThrow(RangeError);
  });

  it('sums to the summary to the nano for any usages and amounts (property)', () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 400; seed += 1) {
      const next = random(seed);
      const n = 1 + Math.floor(next() * 60);
      const weights = Array.from({ length: n }, () =>
        BigInt(Math.floor(next() * (next() < 0.3 ? 5 : 100_000))),
      );
      if (!weights.some((w) => w !== 0n)) weights[0] = 1n;
      // Up to ±1,000,000 USD in nano, with odd last digits.
      const total = BigInt(Math.floor((next() - 0.2) * 1e15)) + BigInt(Math.floor(next() * 1000));
      const shares = largestRemainder(total, weights);
      const W = weights.reduce((a, b) => a + b, 0n);
      const sum = shares.reduce((a, b) => a + b, 0n);
      if (sum !== total) failures.push(`seed ${seed}: lines sum to ${sum}, summary is ${total}`);
      shares.forEach((share, i) => {
        // Each share is the floor or the ceiling of its exact value total × w / W.
        const diff = share * W - total * weights[i]!;
        if (diff <= -W || diff >= W) failures.push(`seed ${seed}: line ${i} got ${share}`);
      });
    }
    expect(failures).toEqual([]);
  });

  it('needs only the count of lines per weight, not the lines', () => {
    const weights = [3n, 1n, 3n, 2n, 3n, 1n];
    const plan = planAllocation(1_000_000_001n, countWeights(weights));
    const seen = new Map<bigint, number>();
    const streamed = weights.map((w) => {
      const nth = seen.get(w) ?? 0;
      seen.set(w, nth + 1);
      return plan.share(w, nth);
    });
    expect(streamed).toEqual(largestRemainder(1_000_000_001n, weights));
    expect(streamed.reduce((a, b) => a + b, 0n)).toBe(1_000_000_001n);
  });
});
