// Recording and product codes. ISRC: the spec's registrant prefix QZQDU, the two-digit year and a
// five-digit sequence allocated on the server (never the spec's client-side fallback counter, which
// hands out duplicates). UPC: prefix 899999, seven digits and the GS1 check digit — 14 digits, the
// GTIN-14 length, exactly as the spec builds it. Codes people type in may be any GTIN length (12-14).
import { randomInt } from 'node:crypto';

export const ISRC_PREFIX = 'QZQDU';
export const UPC_PREFIX = '899999';
/** The sequence is five digits: a year holds at most 99,999 allocated codes. */
export const ISRC_MAX_SEQUENCE = 99_999;

/** The documents-port counter that numbers one year's ISRCs ('isrc-26'). */
export const isrcCounter = (year2: string) => `isrc-${year2}`;

export const twoDigitYear = (date = new Date()) => String(date.getUTCFullYear() % 100).padStart(2, '0');

export function formatIsrc(year2: string, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > ISRC_MAX_SEQUENCE)
    throw new RangeError(`ISRC sequence ${sequence} is outside 1..${ISRC_MAX_SEQUENCE}`);
  return `${ISRC_PREFIX}${year2}${String(sequence).padStart(5, '0')}`;
}

/** Any well-formed ISRC: country (2 letters), registrant (3 alphanumerics), year (2), designation (5). */
const ISRC_SHAPE = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/** Uppercases and drops the dashes and spaces people type ('us-s1z-99-00001'); undefined when malformed. */
export function normalizeIsrc(input: string): string | undefined {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  return ISRC_SHAPE.test(compact) ? compact : undefined;
}

/** GS1 check digit: from the right, weights 3 and 1 alternate; the digit brings the sum to a multiple of 10. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidUpc(upc: string): boolean {
  return /^\d{12,14}$/.test(upc) && gs1CheckDigit(upc.slice(0, -1)) === Number(upc.at(-1));
}

/**
 * A fresh UPC. The seven digits are random rather than the spec's "last 7 digits of the time", which two
 * releases in the same millisecond would share; uniqueness is still enforced by the unique index (the
 * caller retries on the rare collision).
 */
export function generateUpc(): string {
  const body = `${UPC_PREFIX}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}
