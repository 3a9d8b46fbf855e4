// Every ledger line's payee pieces add up to the line, to the nano-unit (so to the cent), for random
// amounts, random share tables and random recoupable expenses: a seeded random loop (no fast-check in
// the repo), its seed printed on failure so a case can be replayed.

import { allocateLine, type Recoupable, splitAmount } from '../src/domain/splits/allocate-line';
import { formatPercent, parsePercent, planShares, SplitRefused, WHOLE } from '../src/domain/splits/shares';
import { largestRemainder } from '../src/domain/statements/allocate';

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random weights (0.0001 % units) summing to exactly 100 %, some of them 0. */
function randomTable(next: () => number): number[] {
  const n = 1 + Math.floor(next() * 8);
  const cuts = Array.from({ length: n - 1 }, () => Math.floor(next() * (WHOLE + 1))).sort((a, b) => a - b);
  const weights: number[] = [];
  let prev = 0;
  for (const c of [...cuts, WHOLE]) {
    weights.push(c - prev);
    prev = c;
  }
  return weights;
}

/** Amounts of every size a statement has: fractions of a cent, returns, large sums. */
function randomAmount(next: () => number): bigint {
  const scale = [1n, 1_000n, 1_000_000n, 1_000_000_000n, 1_000_000_000_000n][Math.floor(next() * 5)]!;
  const v = BigInt(Math.floor(next() * 1_000_000)) * scale + BigInt(Math.floor(next() * 1000));
  return next() < 0.15 ? -v : v;
}

const SEED = Number(process.env.SPLIT_SEED ?? 20260726);

describe('allocating a ledger line to its payees', () => {
  it('the pieces of a line always sum to the line, for 20,000 random lines, tables and expenses', () => {
    const next = rng(SEED);
    for (let round = 0; round < 20_000; round += 1) {
      const weights = randomTable(next);
      const shares = weights.map((units, i) => ({ party: `p${i}`, units }));
      const recoupables: Recoupable[] =
        next() < 0.3
          ? [{ id: 'e1', party: 'p0', outstanding: randomAmount(next) < 0n ? 0n : randomAmount(next) }]
          : [];
      const amount = randomAmount(next);
      const pieces = allocateLine(amount, shares, recoupables);
      const total = pieces.reduce((t, p) => t + p.amount, 0n);
      if (total !== amount)
        throw new Error(
          `seed ${SEED} round ${round}: ${amount} over ${weights.join(',')} gave ${total} (${JSON.stringify(
            pieces.map((p) => [p.party, String(p.amount)]),
          )})`,
        );
      // Each share is within one unit of its exact part of what was split.
      const split = pieces.filter((p) => p.kind === 'split');
      const splitTotal = split.reduce((t, p) => t + p.amount, 0n);
      for (const p of split) {
        const units = shares.find((s) => s.party === p.party)!.units;
        const exact = splitTotal * BigInt(units);
        const diff = p.amount * BigInt(WHOLE) - exact;
        if (diff <= -BigInt(WHOLE) || diff >= BigInt(WHOLE))
          throw new Error(`seed ${SEED} round ${round}: ${p.party} got ${p.amount} of ${splitTotal}`);
      }
    }
  });

  it('gives the same shares as the statements’ largest-remainder allocation', () => {
    const next = rng(SEED + 1);
    for (let round = 0; round < 5_000; round += 1) {
      const weights = randomTable(next).filter((w) => w > 0);
      if (weights.reduce((a, b) => a + b, 0) !== WHOLE) continue;
      const amount = randomAmount(next);
      expect(splitAmount(amount, weights)).toEqual(
        largestRemainder(
          amount,
          weights.map((w) => BigInt(w)),
        ),
      );
    }
  });

  it('repays recoupable expenses from gross before the split, and only from money coming in', () => {
    const owed: Recoupable[] = [
      { id: 'beat', party: 'user:producer', outstanding: 3_000_000_000n },
      { id: 'advance', party: 'user:label', outstanding: 1_000_000_000n },
    ];
    const shares = [
      { party: 'user:owner', units: 600_000 },
      { party: 'inv:1', units: 400_000 },
    ];
    // $2: all to the beat.
    expect(allocateLine(2_000_000_000n, shares, owed)).toEqual([
      { party: 'user:producer', amount: 2_000_000_000n, kind: 'recoup', expenseId: 'beat' },
    ]);
    // A return of $0.50 is split, repays nothing.
    expect(allocateLine(-500_000_000n, shares, owed).map((p) => [p.party, p.amount])).toEqual([
      ['user:owner', -300_000_000n],
      ['inv:1', -200_000_000n],
    ]);
    // $5: $1 finishes the beat, $1 the advance, $3 split 60/40.
    expect(allocateLine(5_000_000_000n, shares, owed).map((p) => [p.party, p.kind, p.amount])).toEqual([
      ['user:producer', 'recoup', 1_000_000_000n],
      ['user:label', 'recoup', 1_000_000_000n],
      ['user:owner', 'split', 1_800_000_000n],
      ['inv:1', 'split', 1_200_000_000n],
    ]);
    expect(owed.map((o) => o.outstanding)).toEqual([0n, 0n]);
  });

  it('one nano-unit three ways goes to one payee, not three or none', () => {
    const pieces = splitAmount(1n, [333_334, 333_333, 333_333]);
    expect(pieces).toEqual([1n, 0n, 0n]);
    expect(splitAmount(-1n, [333_334, 333_333, 333_333]).reduce((a, b) => a + b, 0n)).toBe(-1n);
  });
});

describe('share tables', () => {
  it('reads percentages to 4 decimals and no further', () => {
    expect(parsePercent('33.3333')).toBe(333_333);
    expect(parsePercent(12.5)).toBe(125_000);
    expect(parsePercent('100')).toBe(WHOLE);
    expect(formatPercent(955_000)).toBe('95.5');
    expect(() => parsePercent('33.33333')).toThrow('more than 4 decimals');
    expect(() => parsePercent('-5')).toThrow(SplitRefused);
    expect(() => parsePercent('100.0001')).toThrow('more than 100%');
  });

  it('gives the owner the remainder, or asks for exactly 100% when the owner is listed', () => {
    expect(planShares([{ email: 'A@x.test', percent: '30' }], 'owner@x.test')).toEqual({
      collaborators: [{ email: 'a@x.test', units: 300_000 }],
      ownerUnits: 700_000,
    });
    expect(() =>
      planShares(
        [
          { email: 'owner@x.test', percent: '50' },
          { email: 'a@x.test', percent: '45.5' },
        ],
        'owner@x.test',
      ),
    ).toThrow('Shares must add up to exactly 100%; these add up to 95.5%.');
    expect(() =>
      planShares(
        [
          { email: 'a@x.test', percent: '60' },
          { email: 'b@x.test', percent: '50' },
        ],
        'owner@x.test',
      ),
    ).toThrow('at most 100%');
    expect(() =>
      planShares(
        [
          { email: 'a@x.test', percent: '10' },
          { email: 'A@X.test', percent: '10' },
        ],
        'owner@x.test',
      ),
    ).toThrow('listed twice');
  });
});
