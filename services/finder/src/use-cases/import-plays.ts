// ImportPlays: the play-count CSV an artist supplies (finder.md: non-interactive plays are not in a
// distributor's statements). Format: a header naming isrc, territory, plays and optionally year and
// service_type, in any order; one row per ISRC, territory (and year, service type). Every bad line is
// refused with its line number, and nothing is kept unless the whole file is good; a good file replaces
// the account's previous import.
import { invalidArgument } from '@omni/platform';
import { CsvError, parse } from 'csv-parse/sync';
import type { PlayCount } from '../domain/scan-model';
import type { PlaysRepository } from '../store/plays';

const REQUIRED = ['isrc', 'territory', 'plays'] as const;
const OPTIONAL = ['year', 'service_type'] as const;
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;
const SERVICE_TYPES = ['non_subscription', 'subscription'] as const;
/** How many bad lines one refusal names (the rest are counted). */
const NAMED_ERRORS = 5;

type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];

export function parsePlaysCsv(text: string, now = new Date()): PlayCount[] {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (err) {
    if (err instanceof CsvError)
      throw invalidArgument(
        `Line ${(err as CsvError & { lines?: number }).lines ?? '?'}: ${csvProblem(err)}`,
      );
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) throw invalidArgument('The file is empty. Send a CSV with the header isrc,territory,plays.');
  const names = header.record.map((h) => h.toLowerCase());
  const unknown = names.filter(
    (n) => !(REQUIRED as readonly string[]).includes(n) && !(OPTIONAL as readonly string[]).includes(n),
  );
  const missing = REQUIRED.filter((r) => !names.includes(r));
  if (missing.length > 0 || unknown.length > 0)
    throw invalidArgument(
      `Line 1: the header must name isrc, territory and plays (and optionally year, service_type)${
        missing.length ? `; missing ${missing.join(', ')}` : ''
      }${unknown.length ? `; unknown ${unknown.map((u) => `"${u}"`).join(', ')}` : ''}.`,
    );
  const at = (row: string[], column: Column) => row[names.indexOf(column)] ?? '';
  const out: PlayCount[] = [];
  const errors: string[] = [];
  for (const { record, info } of rows) {
    const problem = rowProblem(record, names.length, at, now);
    if (typeof problem === 'string') errors.push(`Line ${info.lines}: ${problem}`);
    else out.push(problem);
  }
  if (errors.length > 0) {
    const more = errors.length > NAMED_ERRORS ? ` (and ${errors.length - NAMED_ERRORS} more bad lines)` : '';
    throw invalidArgument(`${errors.slice(0, NAMED_ERRORS).join(' ')}${more} Nothing was imported.`);
  }
  if (out.length === 0) throw invalidArgument('The file has a header but no rows of plays.');
  return out;
}

function rowProblem(
  row: string[],
  width: number,
  at: (row: string[], column: Column) => string,
  now: Date,
): PlayCount | string {
  if (row.length !== width) return `expected ${width} values, found ${row.length}.`;
  const isrc = at(row, 'isrc').toUpperCase().replace(/[\s-]/g, '');
  if (!ISRC.test(isrc)) return `"${at(row, 'isrc')}" is not an ISRC (12 characters like USRC17607839).`;
  const territory = at(row, 'territory').toUpperCase();
  if (!/^[A-Z]{2}$/.test(territory)) return `territory must be a two-letter country code like US or GB.`;
  const playsText = at(row, 'plays').replace(/[_,]/g, '');
  const plays = Number(playsText);
  if (!/^\d+$/.test(playsText) || !Number.isSafeInteger(plays))
    return `plays must be a whole number of 0 or more.`;
  const count: PlayCount = { isrc, territory, plays };
  const yearText = at(row, 'year');
  if (yearText) {
    const year = Number(yearText);
    if (!/^\d{4}$/.test(yearText) || year < 1900 || year > now.getUTCFullYear())
      return `year must be a four-digit year no later than ${now.getUTCFullYear()}.`;
    count.year = year;
  }
  const serviceType = at(row, 'service_type').toLowerCase();
  if (serviceType) {
    if (!(SERVICE_TYPES as readonly string[]).includes(serviceType))
      return `service_type must be non_subscription or subscription.`;
    count.serviceType = serviceType as PlayCount['serviceType'];
  }
  return count;
}

function csvProblem(err: CsvError): string {
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted value is never closed.';
  if (err.code === 'CSV_INVALID_CLOSING_QUOTE') return 'a quote is followed by something other than a comma.';
  return 'the line is not valid CSV.';
}

export async function importPlays(plays: PlaysRepository, accountId: string, csv: Buffer) {
  const rows = parsePlaysCsv(csv.toString('utf8'));
  await plays.replace(accountId, rows);
  return { rows: rows.length, recordings: new Set(rows.map((r) => r.isrc)).size };
}
