// RFC 4180 records from physical lines: a field in double quotes may hold the delimiter, doubled quotes
// ("") and line breaks, so a record can span lines; it is named by the line it starts on. A record with
// no quote at all (nearly all of them) is one String.split. Written here rather than taken from a CSV
// package because records must come from the same line batches the DSR reader uses and keep their
// physical line numbers; csv-parse would need its own pass over the bytes.
//
// Lenient where stores are sloppy: a quote inside an unquoted field is kept as a character (5" vinyl),
// spaces after a closing quote are ignored. A closing quote followed by anything else is a bad record.
import { count } from './fields';
import { StatementRefused } from './line';

/** A quoted value may span at most this many lines: more means a quote that never closes. */
export const MAX_RECORD_LINES = 1000;

const OPEN = Symbol('open');
const BAD = Symbol('bad');

/** Splits one record's text; OPEN when a quoted field is not closed yet, BAD for a stray quote. */
export function splitRecord(text: string, delimiter: string): string[] | typeof OPEN | typeof BAD {
  if (!text.includes('"')) return text.split(delimiter);
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) !== 34 /* " */) {
      const d = text.indexOf(delimiter, i);
      if (d === -1) {
        fields.push(text.slice(i));
        return fields;
      }
      fields.push(text.slice(i, d));
      i = d + 1;
      continue;
    }
    let value = '';
    let from = i + 1;
    for (;;) {
      const q = text.indexOf('"', from);
      if (q === -1) return OPEN;
      value += text.slice(from, q);
      if (text.charCodeAt(q + 1) === 34) {
        value += '"';
        from = q + 2;
        continue;
      }
      i = q + 1;
      break;
    }
    while (text[i] === ' ') i += 1;
    fields.push(value);
    if (i >= text.length) return fields;
    if (text.startsWith(delimiter, i)) {
      i += delimiter.length;
      if (i === text.length) {
        fields.push('');
        return fields;
      }
      continue;
    }
    return BAD;
  }
}

export type CsvRecord = { lineNo: number; fields: string[] } | { lineNo: number; bad: true };

/** Feeds physical lines; gives back each record once its last line has come. */
export class CsvRecords {
  private pending = '';
  private startLine = 0;
  private spanned = 0;

  constructor(private readonly delimiter: string) {}

  push(line: string, lineNo: number): CsvRecord | null {
    const text = this.spanned > 0 ? `${this.pending}\n${line}` : line;
    const start = this.spanned > 0 ? this.startLine : lineNo;
    const fields = splitRecord(text, this.delimiter);
    if (fields === OPEN) {
      if (this.spanned === 0) this.startLine = lineNo;
      this.pending = text;
      this.spanned += 1;
      if (this.spanned > MAX_RECORD_LINES) throw this.neverCloses();
      return null;
    }
    this.pending = '';
    this.spanned = 0;
    return fields === BAD ? { lineNo: start, bad: true } : { lineNo: start, fields };
  }

  /** At the end of the file: a record still open is a quote that never closes. */
  end(): void {
    if (this.spanned > 0) throw this.neverCloses();
  }

  private neverCloses(): StatementRefused {
    return new StatementRefused(
      `Line ${count(this.startLine)} opens a quoted value (") that never closes, so the lines after it cannot be told apart. Fix the quote or export the file again.`,
    );
  }
}
