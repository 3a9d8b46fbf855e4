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

/** One line per format under the select: what the file holds, in the columns we read. */
export const SOURCE_HELP: Record<StatementSource, string> = {
  dsr: 'A DDEX DSR flat file as stores send it: tab-separated records — HEAD (sender, MessageId, reporting period), the release and resource usage blocks with ISRC, UPC, territory, use type, quantity and amount, then FOOT. Gzipped (.tsv.gz) is fine.',
  omni: 'Our own comma-separated file, one sale per line, with a header row naming the columns.',
  distrokid:
    'The tab-separated "Excruciating Detail" export: Reporting Date, Sale Month, Store, Artist, Title, ISRC, UPC, Quantity, Song/Album, Country of Sale and Earnings (USD).',
  tunecore:
    'A comma-separated sales report: sales period, posted date, store, country, artist, release and song title, UPC, ISRC, units sold and the amount earned.',
  cdbaby:
    'A tab-separated digital sales report: report date, sale period, partner (store), artist, album, track, UPC, ISRC, territory, quantity and amount.',
  apple:
    'A tab-separated financial report: Start Date, End Date, UPC, ISRC/ISBN, Quantity, Partner Share, Extended Partner Share, Partner Share Currency, Country Of Sale and the title and artist.',
};

/** The canonical CSV's columns, in order, each with what it holds. */
export const CANONICAL_COLUMNS: readonly { name: string; holds: string }[] = [
  { name: 'sale_start', holds: 'first day of the sale period (YYYY-MM-DD)' },
  { name: 'sale_end', holds: 'last day of the sale period (YYYY-MM-DD)' },
  { name: 'reported_at', holds: 'the day the store reported it (YYYY-MM-DD)' },
  { name: 'store', holds: 'the store or service' },
  { name: 'service_tier', holds: 'the store’s tier (subscription, ad-supported…)' },
  { name: 'territory', holds: 'country of sale (ISO 3166 two letters)' },
  { name: 'usage_type', holds: 'stream, download…' },
  { name: 'isrc', holds: 'the recording’s ISRC' },
  { name: 'upc', holds: 'the release’s UPC' },
  { name: 'title', holds: 'what the store calls it' },
  { name: 'artist', holds: 'the artist the store shows' },
  { name: 'quantity', holds: 'plays or units (negative for a return)' },
  { name: 'amount', holds: 'what the store pays, in its currency' },
  { name: 'currency', holds: 'that currency (ISO 4217)' },
  { name: 'amount_usd', holds: 'the amount in US dollars' },
  { name: 'fx_rate', holds: 'the rate used to convert it' },
  { name: 'fx_date', holds: 'the day of that rate' },
  { name: 'adjustment_type', holds: 'empty for a sale; a correction or return otherwise' },
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
