// The play-count CSV an artist supplies (finder.md: non-interactive plays are not in a distributor's
// statements). A header naming isrc, territory, plays and optionally year and service_type, in any order;
// one row per ISRC, territory (and year, service type). Every bad line is counted, the first
// NAMED_BAD_LINES are named with their line numbers, and nothing is kept unless the whole file is good.
//
// A file is up to 5 MB (285,000 rows): the reader works a bounded number of records per `read(budget)`,
// so its caller can let other work run between slices (one service's import must not hold the event loop
// every service shares under `npm start`). Records are split here, where a newline inside quotes belongs
// to its value (RFC 4180), so each record knows the line it starts on; a record without quotes is its
// commas, and only one with quotes is handed to csv-parse.
import { PLAY_SERVICE_TYPE_RULE, PLAY_SERVICE_TYPES, type PlayServiceType } from '@omni/proto/api';
import { CsvError, parse } from 'csv-parse/sync';
import type { PlayCount } from '../scan-model';

const REQUIRED = ['isrc', 'territory', 'plays'] as const;
const OPTIONAL = ['year', 'service_type'] as const;
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;
const SERVICE_TYPES: readonly string[] = PLAY_SERVICE_TYPES.map((type) => type.value);
/** How many bad lines one refusal names (the rest are counted). */
export const NAMED_BAD_LINES = 20;
/** The most of a bad value a refusal quotes: enough to recognise it, never a whole 100 KB cell. */
export const QUOTED_CHARS = 32;

type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];

/** A value as a refusal quotes it: at most QUOTED_CHARS characters (then "…"), on one line. */
export function quoteValue(text: string): string {
  let cut = Math.min(text.length, QUOTED_CHARS);
  // Never split a surrogate pair (an emoji) in two.
  if (cut < text.length && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1;
  const shown = text.slice(0, cut).replace(/\p{Cc}/gu, ' ');
  return `"${shown}${cut < text.length ? '…' : ''}"`;
}

/** A record's text and the line it starts on; `closed` is false when a quote opened in it never closes. */
interface RawRecord {
  text: string;
  line: number;
  closed: boolean;
}

/** Splits CSV text into records in one pass: a newline ends a record unless it falls inside quotes. */
class RecordSplitter {
  private pos = 0;
  private line = 1;
  /** The next quote at or after `pos` (-1: none left); only moves forward, so the text is scanned once. */
  private nextQuote: number;

  constructor(private readonly text: string) {
    this.nextQuote = text.indexOf('"');
  }

  next(): RawRecord | undefined {
    const { text } = this;
    if (this.pos >= text.length) return undefined;
    const start = this.pos;
    const line = this.line;
    let quotes = 0;
    let end = text.length;
    while (this.pos < text.length) {
      const newline = text.indexOf('\n', this.pos);
      const stop = newline === -1 ? text.length : newline;
      while (this.nextQuote !== -1 && this.nextQuote < stop) {
        quotes += 1;
        this.nextQuote = text.indexOf('"', this.nextQuote + 1);
      }
      this.pos = stop + 1;
      if (newline !== -1) this.line += 1;
      // An escaped quote is doubled (""), so an even count means every quoted value has closed.
      if (quotes % 2 === 0 || newline === -1) {
        end = stop;
        break;
      }
    }
    const raw = text.slice(start, end);
    return { text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, line, closed: quotes % 2 === 0 };
  }
}

export type PlaysCsvOutcome =
  | { ok: true; rows: PlayCount[]; recordings: number }
  | { ok: false; message: string };

export class PlaysCsvReader {
  private readonly records: RecordSplitter;
  private readonly rows: PlayCount[] = [];
  /** The distinct ISRCs of the good rows, counted as they are read (not in one pass at the end). */
  private readonly isrcs = new Set<string>();
  /** Each column's position, once the header is read (-1: an optional column the file does not have). */
  private columns: Record<Column, number> | undefined;
  private width = 0;
  /** A refusal of the whole file (its header, or a line that is not CSV before it). */
  private refusal: string | undefined;
  private bad = 0;
  private readonly named: string[] = [];
  private readonly rules = new Set<string>();

  constructor(
    text: string,
    private readonly now = new Date(),
  ) {
    const body = text.replace(/^\uFEFF/, '');
    // Spreadsheets' "CSV (Macintosh)" ends lines with a bare CR: read those as newlines.
    this.records = new RecordSplitter(
      !body.includes('\n') && body.includes('\r') ? body.replaceAll('\r', '\n') : body,
    );
  }

  /** Reads up to `budget` records; false once the file is read to its end (or refused at its header). */
  read(budget: number): boolean {
    for (let i = 0; i < budget; i += 1) {
      if (this.refusal !== undefined) return false;
      const record = this.records.next();
      if (!record) return false;
      this.take(record);
    }
    return this.refusal === undefined;
  }

  /** The rows, or the refusal that says which lines are wrong and why (after `read` has returned false). */
  outcome(): PlaysCsvOutcome {
    if (this.refusal !== undefined) return { ok: false, message: this.refusal };
    if (!this.columns)
      return { ok: false, message: 'The file is empty. Send a CSV with the header isrc,territory,plays.' };
    if (this.bad > 0) return { ok: false, message: this.badLinesMessage() };
    if (this.rows.length === 0) return { ok: false, message: 'The file has a header but no rows of plays.' };
    return { ok: true, rows: this.rows, recordings: this.isrcs.size };
  }

  private take(record: RawRecord) {
    if (record.text.trim() === '') return;
    const fields = splitFields(record);
    if (!this.columns) {
      if (typeof fields === 'string') this.refusal = `Line ${record.line}: ${fields}`;
      else this.readHeader(fields, record.line);
      return;
    }
    const problem = typeof fields === 'string' ? fields : this.rowProblem(fields, this.columns);
    if (typeof problem === 'string') this.badLine(record.line, problem);
    else {
      this.rows.push(problem);
      this.isrcs.add(problem.isrc);
    }
  }

  private readHeader(fields: string[], line: number) {
    const names = fields.map((h) => h.toLowerCase());
    const known = (n: string) =>
      (REQUIRED as readonly string[]).includes(n) || (OPTIONAL as readonly string[]).includes(n);
    const unknown = names.filter((n) => !known(n));
    const missing = REQUIRED.filter((r) => !names.includes(r));
    if (missing.length > 0 || unknown.length > 0) {
      this.refusal = `Line ${line}: the header must name isrc, territory and plays (and optionally year, service_type)${
        missing.length ? `; missing ${missing.join(', ')}` : ''
      }${unknown.length ? `; unknown ${unknown.slice(0, 5).map(quoteValue).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}` : ''}.`;
      return;
    }
    const at = (column: Column) => names.indexOf(column);
    this.columns = {
      isrc: at('isrc'),
      territory: at('territory'),
      plays: at('plays'),
      year: at('year'),
      service_type: at('service_type'),
    };
    this.width = names.length;
  }

  private badLine(line: number, problem: string) {
    this.bad += 1;
    if (this.named.length < NAMED_BAD_LINES) this.named.push(`Line ${line}: ${problem}`);
  }

  private badLinesMessage(): string {
    const count = this.bad.toLocaleString('en-US');
    const more = this.bad - this.named.length;
    // The count and the rules come first: if anything must give, it is the tail of the list.
    return [
      `Nothing was imported: ${this.bad === 1 ? '1 line has a problem' : `${count} lines have problems`}.`,
      ...this.rules,
      ...this.named,
      ...(more > 0 ? [`…and ${more.toLocaleString('en-US')} more bad line${more === 1 ? '' : 's'}.`] : []),
    ].join('\n');
  }

  // Called once per row (285,000 in a full file): plain indexes, no closure made per row.
  private rowProblem(row: string[], columns: Record<Column, number>): PlayCount | string {
    if (row.length !== this.width) return `expected ${this.width} values, found ${row.length}.`;
    const isrcText = row[columns.isrc] ?? '';
    const isrc = isrcText.toUpperCase().replace(/[\s-]/g, '');
    if (!ISRC.test(isrc)) return `${quoteValue(isrcText)} is not an ISRC (12 characters like USRC17607839).`;
    const territoryText = row[columns.territory] ?? '';
    const territory = territoryText.toUpperCase();
    if (!/^[A-Z]{2}$/.test(territory))
      return `territory ${quoteValue(territoryText)} is not a two-letter country code like US or GB.`;
    const playsText = (row[columns.plays] ?? '').replace(/[_,]/g, '');
    const plays = Number(playsText);
    if (!/^\d+$/.test(playsText) || !Number.isSafeInteger(plays))
      return 'plays must be a whole number of 0 or more.';
    const count: PlayCount = { isrc, territory, plays };
    const yearText = row[columns.year] ?? '';
    if (yearText) {
      const year = Number(yearText);
      const latest = this.now.getUTCFullYear();
      if (!/^\d{4}$/.test(yearText) || year < 1900 || year > latest)
        return `year must be a four-digit year no later than ${latest}.`;
      count.year = year;
    }
    const serviceTypeText = row[columns.service_type] ?? '';
    const serviceType = serviceTypeText.toLowerCase();
    if (serviceType) {
      if (!SERVICE_TYPES.includes(serviceType)) {
        // What each allowed value means is said once for the file, not on every line.
        this.rules.add(PLAY_SERVICE_TYPE_RULE);
        return `service_type ${quoteValue(serviceTypeText)} is not one of ${SERVICE_TYPES.join(', ')}.`;
      }
      count.serviceType = serviceType as PlayServiceType;
    }
    return count;
  }
}

/** A record's values (trimmed), or what is wrong with it as CSV. */
function splitFields(record: RawRecord): string[] | string {
  if (!record.closed) return 'a quoted value is never closed.';
  if (!record.text.includes('"')) return record.text.split(',').map((value) => value.trim());
  try {
    const parsed = parse(record.text, { trim: true, relax_column_count: true }) as string[][];
    return parsed.length === 1 ? parsed[0]! : 'the line is not valid CSV.';
  } catch (err) {
    if (err instanceof CsvError) return csvProblem(err);
    throw err;
  }
}

function csvProblem(err: CsvError): string {
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted value is never closed.';
  if (err.code === 'CSV_INVALID_CLOSING_QUOTE') return 'a quote is followed by something other than a comma.';
  return 'the line is not valid CSV.';
}
