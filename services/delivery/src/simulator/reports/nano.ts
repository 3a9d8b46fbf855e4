// Money in the store reports: integer nano-units (10⁻⁹ of a currency unit) held in bigints, never floats.
// A per-stream rate of 0.0030 EUR is 3,000,000 nano; 1,234 streams × that rate is exact. A small local
// formatter rather than the royalties service's money module: services never import each other.

export const NANO = 1_000_000_000n;
const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,9}))?$/;

/** `"0.0030"` → 3_000_000n; at most nine decimals, no exponent; throws on anything else. */
export function parseNano(text: string): bigint {
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`"${text}" is not a decimal with at most nine decimals`);
  const [, sign, whole, fraction = ''] = match;
  const value = BigInt(whole as string) * NANO + BigInt(fraction.padEnd(9, '0'));
  return sign ? -value : value;
}

/**
 * A decimal string with at least `minDecimals` decimals and at most nine, trailing zeros trimmed beyond
 * the minimum: 3_000_000n → `0.003`, 12n * NANO → `12.00`, -700_000_000n → `-0.70`.
 */
export function formatNano(value: bigint, minDecimals = 2): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  // Digits sliced rather than divided: this runs several times per report line.
  const digits = abs.toString();
  const whole = digits.length > 9 ? digits.slice(0, -9) : '0';
  let fraction = digits.length > 9 ? digits.slice(-9) : digits.padStart(9, '0');
  let end = 9;
  while (end > minDecimals && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  const text = fraction ? `${whole}.${fraction}` : `${whole}`;
  return negative && abs !== 0n ? `-${text}` : text;
}

/**
 * `amount` (nano) times `rate` (nano per unit, e.g. an exchange rate of 1.085 is 1_085_000_000n), rounded
 * to the nearest nano, halves away from zero — the one rounding every report amount goes through.
 */
export function mulNano(amount: bigint, rate: bigint): bigint {
  const product = amount * rate;
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + NANO / 2n) / NANO;
  return negative ? -rounded : rounded;
}
