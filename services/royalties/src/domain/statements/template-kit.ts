// What every CSV/TSV template is made of: the Template and Row shapes, and the cell readers and store-name
// rules the templates share (templates.ts holds the templates themselves).
//
// Header names are compared case-, space- and underscore-insensitively: "Earnings (USD)", "earnings
// (usd)" and "EARNINGS_(USD)" are one column, and "sale_start" is "Sale Start".
import { MoneyError, normalizeRate, parseAmount } from '../money';
import { adjustment, currency, isoPeriod, type Period, territory, wholeNumber } from './fields';
import type { StatementHeader, StatementLine, UsageType } from './line';

export type TemplateName = 'omni' | 'distrokid' | 'tunecore' | 'cdbaby' | 'apple';

export const normalizeHeading = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '');

/** A line the template cannot use; `csv.ts` turns it into a refused item. */
export class LineProblem extends Error {}

/** One data row, read by the template's column keys. */
export interface Row {
  /** The trimmed value of a column ('' when the column is absent or the row is short). */
  get(key: string): string;
  has(key: string): boolean;
  /** The column's heading as the file spells it, for messages. */
  heading(key: string): string;
  /** The USD amount once read, so a refusal after it can still say how much the line was worth. */
  usd: bigint | null;
}

export interface Template {
  name: TemplateName;
  label: string;
  /** Column key → the headings that name it. */
  columns: Record<string, string[]>;
  /** Keys a header row must have; the first row that has them all is the header. */
  required: string[];
  /** Rows before the header (Apple's "Start Date<TAB>11/30/2025") may say what period the file covers. */
  preamble?(cells: string[], header: StatementHeader): void;
  /** A row that starts a trailing block that is not lines (Apple's per-country summary). */
  endsLines?(cells: string[]): boolean;
  line(row: Row, lineNo: number): Omit<StatementLine, 'lineNo'>;
}

// ---- cell readers; each throws LineProblem with words for the sender ----------------------------------

export function money(row: Row, key: string): bigint {
  const value = row.get(key);
  try {
    return parseAmount(value);
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e;
    throw new LineProblem(`in column "${row.heading(key)}": ${e.message}`);
  }
}

export function whole(row: Row, key: string): number {
  const n = wholeNumber(row.get(key));
  if (n === null)
    throw new LineProblem(
      `the quantity "${row.get(key).slice(0, 20)}" in column "${row.heading(key)}" is not a whole number.`,
    );
  return n;
}

export function day(row: Row, key: string, parse: (t: string) => string | null, example: string): string {
  const d = parse(row.get(key));
  if (!d)
    throw new LineProblem(
      `the date "${row.get(key).slice(0, 30)}" in column "${row.heading(key)}" is not a date like ${example}.`,
    );
  return d;
}

export function period(row: Row, key: string): Period {
  const p = isoPeriod(row.get(key));
  if (!p)
    throw new LineProblem(
      `the date "${row.get(key).slice(0, 30)}" in column "${row.heading(key)}" is not a date like 2024-03-31 or a month like 2024-03.`,
    );
  return p;
}

export function country(row: Row, key: string): string {
  const t = territory(row.get(key));
  if (!t)
    throw new LineProblem(
      `the country "${row.get(key).slice(0, 20)}" in column "${row.heading(key)}" is not a two-letter country code like US.`,
    );
  return t;
}

export function code(row: Row, key: string): string {
  const c = currency(row.get(key));
  if (!c)
    throw new LineProblem(
      `the currency "${row.get(key).slice(0, 20)}" in column "${row.heading(key)}" is not a three-letter code like USD.`,
    );
  return c;
}

export function rate(row: Row, key: string): string {
  try {
    return normalizeRate(row.get(key));
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e;
    throw new LineProblem(`in column "${row.heading(key)}": ${e.message}`);
  }
}

export const noRate = (cur: string) =>
  new LineProblem(
    `its amount is in ${cur} and the file gives no exchange rate to US dollars; Omni accounts in US dollars.`,
  );

/** The optional "Adjustment Type" column any template may carry (YouTube-style values). */
export const ADJUSTMENT_COLUMN = ['Adjustment Type', 'Adjustment'];

/** Adjustments named inside a store or type name ("YouTube (Spam Adjustment)"). */
function readAdjustmentIn(name: string): string {
  const t = name.toLowerCase();
  if (t.includes('spam')) return 'spam_deduction';
  if (t.includes('backpay') || t.includes('back pay')) return 'backpay';
  if (t.includes('correction')) return 'revenue_correction';
  if (t.includes('refund') || t.includes('return') || t.includes('chargeback')) return 'return';
  return '';
}

/** Per store or type name, what it says; a file names a few dozen, so each is worked out once. */
function perName<T>(read: (name: string) => T): (name: string) => T {
  const known = new Map<string, T>();
  return (name) => {
    let v = known.get(name);
    if (v === undefined) {
      if (known.size >= 1024) known.clear();
      v = read(name);
      known.set(name, v);
    }
    return v;
  };
}

const adjustmentIn = perName(readAdjustmentIn);

export function adjustmentOf(row: Row, quantity: number, name = ''): string {
  return adjustment(row.get('adjustment')) || adjustmentIn(name) || (quantity < 0 ? 'return' : '');
}

// Store names whose lines are downloads or streams; anything else is 'other' unless its row says.
const DOWNLOAD_STORES =
  /itunes|amazon ?mp3|amazon (digital|download)|beatport|traxsource|juno|7digital|bandcamp|qobuz download|google play( music)? download/i;
const STREAM_STORES =
  /spotify|apple music|deezer|tidal|napster|youtube|amazon (unlimited|prime|music)|pandora|iheart|soundcloud|anghami|boomplay|audiomack|tiktok|facebook|instagram|saavn|gaana|kkbox|netease|tencent|yandex|vk|joox|awa|line music|claro|tim music|qobuz|medianet|snapchat|peloton|triller|shazam/i;

export const usageOfStore = perName(readUsageOfStore);

function readUsageOfStore(store: string): UsageType {
  if (DOWNLOAD_STORES.test(store)) return 'download';
  if (STREAM_STORES.test(store)) return 'stream';
  return 'other';
}

export function usageOfWord(word: string): UsageType | null {
  const t = word.toLowerCase();
  if (t.includes('stream')) return 'stream';
  if (t.includes('download') || t === 'sale' || t.includes('purchase')) return 'download';
  return null;
}

export const tierOf = perName((store: string) =>
  /\(ads?\)|ad-supported|\bfree\b/i.test(store) ? 'ad-supported' : '',
);
