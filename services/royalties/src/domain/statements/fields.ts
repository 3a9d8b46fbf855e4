// Cell values → the canonical line's forms (dates, territories, identifiers, adjustment names), shared by
// the DSR and CSV readers. A parser returns null for a value it cannot read; the reader says why, with
// the line number, in a refused item.

/** A count as people read it in a message: 1,204. */
export const count = (n: number | bigint) => n.toLocaleString('en-US');

export interface Period {
  start: string;
  end: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => (m === 2 && leap(y) ? 29 : DAYS[m - 1]!);

function ymd(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/**
 * ISO dates as DDEX writes them (YYYY[-MM[-DD]], also a dateTime whose date part is taken) → the period
 * they name: "2024-03" is March 2024, "2024" the year. YYYYMMDD (seen in DSR samples) is read as a day.
 */
/**
 * A file's lines share a handful of dates: answers are kept (a few hundred at most), as a regex per date
 * per line adds up. The cached periods are frozen, as every caller gets the same object.
 */
function cached<T>(read: (text: string) => T | null): (text: string) => T | null {
  const answers = new Map<string, T | null>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      if (answers.size >= 512) answers.clear();
      answer = read(text);
      if (answer) Object.freeze(answer);
      answers.set(text, answer);
    }
    return answer;
  };
}

export const isoPeriod = cached(readIsoPeriod);

function readIsoPeriod(text: string): Period | null {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(t) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  if (m) {
    const day = ymd(Number(m[1]), Number(m[2]), Number(m[3]));
    return day ? { start: day, end: day } : null;
  }
  m = /^(\d{4})-(\d{2})$/.exec(t);
  if (m) {
    const y = Number(m[1]);
    const mo = Number(m[2]);
    const start = ymd(y, mo, 1);
    return start ? { start, end: ymd(y, mo, daysIn(y, mo))! } : null;
  }
  m = /^(\d{4})$/.exec(t);
  if (m) {
    const y = Number(m[1]);
    return ymd(y, 1, 1) ? { start: `${m[1]}-01-01`, end: `${m[1]}-12-31` } : null;
  }
  return null;
}

/** One ISO day (YYYY-MM-DD, or a dateTime's date), or null. */
export function isoDay(text: string): string | null {
  const p = isoPeriod(text);
  return p && p.start === p.end ? p.start : null;
}

/** The month a day falls in, as a period: TuneCore's "Sales Period" 2020-04-01 is April 2020. */
export function monthOf(day: string): Period {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  return { start: `${day.slice(0, 7)}-01`, end: `${day.slice(0, 7)}-${pad(daysIn(y, m))}` };
}

/** US dates: M/D/YYYY, with or without a time ("10/15/2023 12:00:00 AM", CD Baby; "08/02/2021", Apple). */
export const usDay = cached(readUsDay);

function readUsDay(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s.*)?$/.exec(text.trim());
  return m ? ymd(Number(m[3]), Number(m[1]), Number(m[2])) : null;
}

const WORLD = new Set(['WW', 'WORLD', 'WORLDWIDE', 'XW', 'ALL', 'GLOBAL']);

/** 'US', 'us' → 'US'; '' and worldwide spellings → 'WW'; anything else (a TIS number, 'USA') → null. */
export function territory(text: string): string | null {
  if (text.length === 2) {
    const a = text.charCodeAt(0);
    const b = text.charCodeAt(1);
    if (a >= 65 && a <= 90 && b >= 65 && b <= 90 && text !== 'WW') return text; // 'US': no allocation
  }
  const t = text.trim().toUpperCase();
  if (t === '' || WORLD.has(t)) return 'WW';
  return /^[A-Z]{2}$/.test(t) ? t : null;
}

const SEPARATORS = /[\s-]/g;
const hasSeparator = (t: string) => t.includes('-') || t.includes(' ') || t.includes('\t');

/** Upper case without the hyphens and spaces people type ("us-s1z-99-00001" → "USS1Z9900001"). */
export const isrc = (text: string) =>
  isPlainIsrc(text) ? text : (hasSeparator(text) ? text.replace(SEPARATORS, '') : text).toUpperCase();

/** Twelve upper-case letters and digits, as nearly every store writes it: nothing to change. */
function isPlainIsrc(text: string): boolean {
  if (text.length !== 12) return false;
  for (let i = 0; i < 12; i += 1) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
  }
  return true;
}

/** Digits only; a value that is not digits (a spreadsheet's 8.8E+11) is no UPC at all. */
export function upc(text: string): string {
  const t = hasSeparator(text) ? text.replace(SEPARATORS, '') : text;
  for (let i = 0; i < t.length; i += 1) {
    const c = t.charCodeAt(i);
    if (c < 48 || c > 57) return '';
  }
  return t;
}

/** A quantity as a whole number; "1.0" is 1, "1.5" and "" are null. */
export function wholeNumber(text: string): number | null {
  // Plain digits (nearly every quantity) without a regex.
  if (text.length > 0 && text.length < 16) {
    let n = 0;
    let i = 0;
    for (; i < text.length; i += 1) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (i === text.length) return n;
  }
  const m = /^\s*([+-]?\d+)(?:\.0*)?\s*$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : null;
}

/** ISO 4217 code, upper case, or null. */
export function currency(text: string): string | null {
  const t = text.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(t) ? t : null;
}

// Adjustment names as stores write them (YouTube's adjustment_type values, DistroKid store suffixes) →
// the canonical snake_case ones. Unknown names are kept, snake_cased, rather than dropped: a person sees
// them on the line.
const ADJUSTMENTS: Record<string, string> = {
  none: '',
  sale: '',
  normal: '',
  backpay: 'backpay',
  'spam adjustment': 'spam_deduction',
  'spam deduction': 'spam_deduction',
  spam: 'spam_deduction',
  'revenue correction': 'revenue_correction',
  'conflict resolution': 'conflict_resolution',
  'dispute resolution': 'dispute_resolution',
  'dispute conflict resolution': 'dispute_conflict_resolution',
  return: 'return',
  refund: 'return',
  chargeback: 'chargeback',
};

export function adjustment(text: string): string {
  if (text === '') return '';
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  if (t in ADJUSTMENTS) return ADJUSTMENTS[t]!;
  return t.replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** A DDEX UseType (OnDemandStream, PermanentDownload, Webcast…) → the canonical usage type. */
export function usageOfUseType(useType: string): 'stream' | 'download' | 'other' {
  const t = useType.toLowerCase();
  if (t.includes('download')) return 'download';
  if (t.includes('stream') || t.includes('webcast')) return 'stream';
  return 'other';
}
