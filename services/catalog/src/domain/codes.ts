// Recording and product codes. ISRC: the spec's registrant prefix QZQDU, the two-digit year and a
// five-digit sequence allocated on the server (never the spec's client-side fallback counter, which
// hands out duplicates). UPC: prefix 899999, seven digits and the GS1 check digit — 14 digits, the
// GTIN-14 length, exactly as the spec builds it. Codes people type in may be any GTIN length (12-14).
import { randomInt } from 'node:crypto';
import { gs1CheckDigit } from '@omni/proto/api';

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

// The shapes of typed codes are the API contract's (the web app checks them before sending, with the same
// rules and words).
export { gs1CheckDigit, ISRC_RULE, isValidUpc, normalizeIsrc, UPC_RULE } from '@omni/proto/api';

/**
 * A fresh UPC. The seven digits are random rather than the spec's "last 7 digits of the time", which two
 * releases in the same millisecond would share; uniqueness is still enforced by the unique index (the
 * caller retries on the rare collision).
 */
export function generateUpc(): string {
  const body = `${UPC_PREFIX}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}
