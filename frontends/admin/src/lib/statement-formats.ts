// What the statements screen says about report formats, and how it writes money, sizes and periods.
import { type ImportState, STATEMENT_SOURCES, type StatementSource } from '@omni/proto/api';
import { formatPublished } from '@omni/ui';

/** Short names for the table (the select shows the contract's full labels). */
export const SOURCE_SHORT: Record<StatementSource, string> = {
  dsr: 'DDEX DSR',
  omni: 'Omni CSV',
  distrokid: 'DistroKid-style',
  tunecore: 'TuneCore-style',
  cdbaby: 'CD Baby-style',
  apple: 'Apple-style',
};

export const sourceShort = (source: string): string => SOURCE_SHORT[source as StatementSource] ?? source;

export const sourceLabel = (source: string): string =>
  STATEMENT_SOURCES.find((s) => s.value === source)?.label ?? source;

/**
 * The format a file's name gives away, or null to keep the admin's choice. Stores name DDEX DSR flat
 * files DSR_<sender>_<recipient>_<service>_<period>…, tab-separated, often gzipped.
 */
export function guessSource(fileName: string): StatementSource | null {
  return /^DSR_.*\.tsv(\.gz)?$/i.test(fileName) ? 'dsr' : null;
}

/**
 * One paragraph per format under the select: the columns royalties' templates need (found by their
 * heading, in any order, case and spaces aside; extra columns are ignored) and what else they read
 * (services/royalties/src/domain/statements/templates.ts).
 */
export const SOURCE_HELP: Record<StatementSource, string> = {
  dsr: 'A DDEX DSR flat file as stores send it, tab-separated, plain or gzipped: the HEAD record (sender, MessageId, period), then Financial Reporting (SY10/SR08) or Basic Audio (SY/RE/AS/SU) blocks, each line with its ISRC or UPC, territory, use type, quantity and amount, checked against the file’s own totals.',
  omni: 'Comma-separated, one sale per line, a header row naming the columns. Required: sale_start, sale_end, store, territory, usage_type (stream, download or other), quantity, amount and currency; dates as YYYY-MM-DD (a month YYYY-MM is its first or last day). A line not in USD also needs amount_usd or fx_rate.',
  distrokid:
    'DistroKid’s tab-separated “Excruciating Detail” export. Required: Reporting Date, Sale Month, Store, Quantity, Country of Sale and Earnings (USD); Artist, Title, ISRC, UPC and Song/Album are read when present.',
  tunecore:
    'TuneCore’s comma-separated sales report. Required: Sales Period, Posted Date, Store Name, Country Of Sale, Sales Type, Units Sold, Net Sales, Net Sales Currency, Total Earned and Currency; a line is refused when neither amount is in USD.',
  cdbaby:
    'CD Baby’s tab-separated sales report. Required: Report Date, Sales Date, Quantity, Subtotal (USD), Partner Name, Transaction Type and Delivery Country; Isrc, Barcode, Album Name, Artist Name and Track Name are read when present.',
  apple:
    'Apple’s tab-separated finance report. Required: Start Date, End Date, Quantity, Extended Partner Share, Partner Share Currency and Country Of Sale; a line not in USD needs an added Exchange Rate column (to USD). “R” rows are returns.',
};

/** The canonical CSV's columns, in order, each with what it holds. */
export const CANONICAL_COLUMNS: readonly { name: string; holds: string }[] = [
  { name: 'sale_start', holds: 'first day of the sale period (YYYY-MM-DD, or a month YYYY-MM)' },
  { name: 'sale_end', holds: 'last day of the sale period' },
  { name: 'reported_at', holds: 'the day the store reported it (optional)' },
  { name: 'store', holds: 'the store or service' },
  { name: 'service_tier', holds: 'the store’s tier, e.g. ad-supported (optional)' },
  { name: 'territory', holds: 'country of sale, two letters (US)' },
  { name: 'usage_type', holds: 'stream, download or other' },
  { name: 'isrc', holds: 'the recording’s ISRC (optional)' },
  { name: 'upc', holds: 'the release’s UPC (optional)' },
  { name: 'title', holds: 'what the store calls it (optional)' },
  { name: 'artist', holds: 'the artist the store shows (optional)' },
  { name: 'quantity', holds: 'plays or units, a whole number (negative for a return)' },
  { name: 'amount', holds: 'what the store pays, in its currency (up to 9 decimals)' },
  { name: 'currency', holds: 'that currency, three letters (USD)' },
  { name: 'amount_usd', holds: 'the amount in US dollars (when not USD)' },
  { name: 'fx_rate', holds: 'the rate from the currency to USD (when not USD)' },
  { name: 'fx_date', holds: 'the day of that rate (optional)' },
  { name: 'adjustment_type', holds: 'empty for a sale; return, backpay, spam deduction… otherwise' },
];

/** An import still moving: its page polls it. */
export const isActive = (state: ImportState): boolean => state !== 'done' && state !== 'refused';

export const STATE_LABEL: Record<ImportState, string> = {
  receiving: 'Receiving',
  queued: 'Queued',
  importing: 'Importing',
  publishing: 'Publishing',
  done: 'Done',
  refused: 'Refused',
};

const NANO = 1_000_000_000n;

/** A contract amount ("-0.00789993", up to 9 decimals) as integer nano-dollars. */
export function toNano(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace(/^[-+]/, '').split('.');
  const nano = BigInt(whole) * NANO + BigInt(fraction.padEnd(9, '0').slice(0, 9));
  return negative ? -nano : nano;
}

/**
 * US dollars: cents by default ("$1,234.57", rounded half away from zero), or `exact` — every decimal the
 * amount has, at least two ("$0.00789993"), for a sum checked to the nano-dollar.
 */
export function formatUsd(value: string | bigint, { exact = false, sign = true } = {}): string {
  const nano = typeof value === 'bigint' ? value : toNano(value);
  const negative = nano < 0n;
  const abs = negative ? -nano : nano;
  let whole: bigint;
  let fraction: string;
  if (exact) {
    whole = abs / NANO;
    fraction = (abs % NANO).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0');
  } else {
    const cents = (abs + 5_000_000n) / 10_000_000n;
    whole = cents / 100n;
    fraction = (cents % 100n).toString().padStart(2, '0');
  }
  const text = `${whole.toLocaleString('en-US')}.${fraction}`;
  return `${negative && /[1-9]/.test(text) ? '-' : ''}${sign ? '$' : ''}${text}`;
}

const count = new Intl.NumberFormat('en-US');
export const formatCount = (n: number): string => count.format(n);

/** Bytes as a person reads them: "312 MB", "1.4 GB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** A YYYY-MM-DD day as "Mar 5, 2025" (the day as written: no time zone moves it). */
export const formatDay = (day: string): string => formatPublished(`${day}T00:00:00`) || day;

/** A sale period: "January 2025" for a whole calendar month, else "Jan 1, 2025 – Feb 15, 2025". */
export function formatPeriod(period: { start: string; end: string } | null): string {
  if (!period) return '—';
  const start = /^(\d{4})-(\d{2})-01$/.exec(period.start);
  if (start) {
    const [, year, month] = start;
    const last = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
    if (period.end === `${year}-${month}-${String(last).padStart(2, '0')}`) {
      return new Date(Date.UTC(Number(year), Number(month) - 1, 1)).toLocaleDateString('en-US', {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
    }
  }
  return period.start === period.end
    ? formatDay(period.start)
    : `${formatDay(period.start)} – ${formatDay(period.end)}`;
}
