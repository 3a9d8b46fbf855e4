// Money in royalties is never a float: a statement line of 0.00789993 USD summed a million times must
// give the same cents on every machine. Amounts are bigint nano-units (1e-9 of the currency): stores
// report up to 8 decimals (DistroKid) and 9 leaves one digit to spare for conversions. Rounding is always
// half-even (banker's), so rounding many lines does not drift one way.

export const NANO = 1_000_000_000n;
const SCALE = 9;

/** A refusal about a number, in words a person who sent the file understands. */
export class MoneyError extends Error {
  override name = 'MoneyError';
}

export interface ParseAmountOptions {
  /** Accept "1,234.56" (commas between groups of three digits). Only templates that say so pass true. */
  thousands?: boolean;
}

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const GROUPED = /^([+-]?)(\d{1,3}(?:,\d{3})*)(?:\.(\d*))?$/;

/**
 * Reads a decimal amount as nano-units: "12", "-0.00789993", "+3.5", ".5". Surrounding spaces are
 * ignored. Exponent notation ("1.5E-3", what a spreadsheet writes for small numbers) is refused rather
 * than guessed at, as are thousands separators unless `thousands` is set.
 *
 * More than 9 decimals are rounded half-even to 9 ("0.0998269974" → 0.099826997): the tenth decimal is
 * below anything Omni pays out, and rounding here keeps every later sum exact.
 */
export function parseAmount(text: string, options: ParseAmountOptions = {}): bigint {
  const fast = parseShort(text);
  if (fast !== null) return fast;
  const t = text.trim();
  const m = (options.thousands ? GROUPED : PLAIN).exec(t) ?? (options.thousands ? PLAIN.exec(t) : null);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new MoneyError(describeBadAmount(t));
  const [, sign, int, frac = ''] = m;
  const value = scaleDigits((int ?? '').replaceAll(',', ''), frac);
  return sign === '-' ? -value : value;
}

/**
 * The common case without regex or string BigInt: at most 6 integer and 9 decimal digits, so the nano
 * value stays below 2^53 and Number arithmetic on it is exact. A statement has several amounts a line and
 * this is most of their parsing time. Anything else (spaces, long numbers, errors) returns null.
 */
function parseShort(t: string): bigint | null {
  const n = t.length;
  let i = 0;
  let negative = false;
  const first = t.charCodeAt(0);
  if (first === 45 /* - */) {
    negative = true;
    i = 1;
  } else if (first === 43 /* + */) i = 1;
  let int = 0;
  const intStart = i;
  for (; i < n; i += 1) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    int = int * 10 + d;
  }
  const intDigits = i - intStart;
  let frac = 0;
  let fracDigits = 0;
  if (i < n && t.charCodeAt(i) === 46 /* . */) {
    i += 1;
    for (; i < n; i += 1) {
      const d = t.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      frac = frac * 10 + d;
      fracDigits += 1;
    }
  }
  if (i !== n || intDigits + fracDigits === 0 || intDigits > 6 || fracDigits > SCALE) return null;
  const nano = int * 1e9 + frac * 10 ** (SCALE - fracDigits);
  return BigInt(negative ? -nano : nano);
}

function describeBadAmount(t: string): string {
  if (t === '') return 'The amount is empty.';
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(t)) {
    return `The amount "${t}" is written in exponent notation; write it as a plain decimal number (like 0.0015).`;
  }
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) {
    return `The amount "${t}" has thousands separators; write it without commas (like 1234.56).`;
  }
  return `"${t.slice(0, 40)}" is not an amount; amounts are plain decimal numbers like 12.30 or -0.00789993.`;
}

/** Integer and fraction digit strings → nano-units, rounding half-even past 9 decimals. */
function scaleDigits(int: string, frac: string): bigint {
  const whole = BigInt(int === '' ? '0' : int) * NANO;
  if (frac.length <= SCALE) return whole + BigInt(frac.padEnd(SCALE, '0'));
  const kept = BigInt(frac.slice(0, SCALE));
  const rest = frac.slice(SCALE);
  // Compare the dropped digits with one half: "5" followed by zeros is exactly half.
  const first = rest.charCodeAt(0) - 48;
  const exactlyHalf = first === 5 && /^0*$/.test(rest.slice(1));
  const up = first > 5 || (first === 5 && !exactlyHalf) || (exactlyHalf && kept % 2n === 1n);
  return whole + kept + (up ? 1n : 0n);
}

/** n / d rounded half-even (d ≠ 0; either sign). */
export function divRoundHalfEven(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new MoneyError('Cannot divide an amount by zero.');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d; // truncates toward zero
  let r = n % d; // same sign as n
  if (r < 0n) {
    q -= 1n;
    r += d;
  }
  // Now n = q*d + r with 0 <= r < d: compare 2r with d.
  const twice = 2n * r;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  return q;
}

/**
 * Formats nano-units as a decimal string: rounded half-even to `decimals` places, trailing zeros
 * trimmed but never below two decimals ("12.30", "-0.00789993", "0.00").
 */
export function formatAmount(nano: bigint, decimals = SCALE): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > SCALE) {
    throw new MoneyError(`An amount can be shown with 0 to 9 decimals, not ${decimals}.`);
  }
  const unit = 10n ** BigInt(SCALE - decimals);
  const v = divRoundHalfEven(nano, unit);
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  let frac = digits.slice(digits.length - decimals);
  const keep = Math.min(2, decimals);
  while (frac.length > keep && frac.endsWith('0')) frac = frac.slice(0, -1);
  const text = frac === '' ? int : `${int}.${frac}`;
  return negative ? `-${text}` : text;
}

const RATE = /^\+?(\d*)(?:\.(\d*))?$/;

/** A rate as [integer digits, scale]: "0.79" → [79n, 2]. Refuses signs, exponents and zero. */
function parseRate(rate: string): [bigint, number] {
  const t = rate.trim();
  const m = RATE.exec(t);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) {
    if (/[eE]/.test(t)) {
      throw new MoneyError(
        `The exchange rate "${t}" is written in exponent notation; write it as a plain decimal.`,
      );
    }
    throw new MoneyError(
      `"${t.slice(0, 40)}" is not an exchange rate; rates are positive decimals like 1.0842.`,
    );
  }
  const frac = m[2] ?? '';
  const digits = BigInt(`${m[1] ?? ''}${frac}` || '0');
  if (digits === 0n) throw new MoneyError(`The exchange rate "${t}" is zero; a rate must be above zero.`);
  return [digits, frac.length];
}

/** The rate as the canonical line keeps it: no sign, no leading or trailing zeros ("0.790" → "0.79"). */
export function normalizeRate(rate: string): string {
  const [digits, scale] = parseRate(rate);
  const s = digits.toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = s.slice(s.length - scale).replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/** nano × rate, computed exactly and rounded half-even to a nano-unit. The rate may have any precision. */
export function convert(nano: bigint, rate: string): bigint {
  const [digits, scale] = parseRate(rate);
  return divRoundHalfEven(nano * digits, 10n ** BigInt(scale));
}

export function sumAmounts(amounts: Iterable<bigint>): bigint {
  let total = 0n;
  for (const a of amounts) total += a;
  return total;
}

/** Nano-units → cents, rounded half-even (what a payee statement shows once it is closed). */
export const toCents = (nano: bigint): bigint => divRoundHalfEven(nano, 10_000_000n);
