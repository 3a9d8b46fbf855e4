// Money crosses the API as decimal strings in USD with up to 9 decimals ("12.34567890", "-0.00789993").
// It is never turned into a float: comparing and rounding are done on integer nano-dollars (bigint), the
// totals are the server's (nothing is summed here), and the exact string is what a CSV export carries.
// Number() is for chart bar heights only.

const NANO_PER_DOLLAR = 1_000_000_000n;
const NANO_PER_CENT = 10_000_000n;
const AMOUNT = /^(-?)(\d+)(?:\.(\d{1,9}))?$/;

/** Integer nano-dollars of a decimal amount string; throws on anything else. */
export function toNano(amount: string): bigint {
  const match = AMOUNT.exec(amount.trim());
  if (!match) throw new Error(`Not a decimal amount: "${amount}"`);
  const [, sign, whole = '0', fraction = ''] = match;
  const nano = BigInt(whole) * NANO_PER_DOLLAR + BigInt(fraction.padEnd(9, '0'));
  return sign === '-' ? -nano : nano;
}

/**
 * "$1,234.57": rounded to the cent, half away from zero, with grouping. The rounding is done on the
 * exact value, so "0.005" is "$0.01" and "-0.004" is "$0.00" (no negative zero).
 */
export function formatUsd(amount: string): string {
  const nano = toNano(amount);
  const abs = nano < 0n ? -nano : nano;
  const cents = (abs + NANO_PER_CENT / 2n) / NANO_PER_CENT;
  const dollars = (cents / 100n).toLocaleString('en-US');
  const body = `$${dollars}.${(cents % 100n).toString().padStart(2, '0')}`;
  return nano < 0n && cents > 0n ? `-${body}` : body;
}

/** A bar's height for a chart (the only place a float of money is acceptable). */
export const chartValue = (amount: string): number => Number(amount);
