// CSV/TSV statements read through a template (templates.ts). The header row is the first row, within
// the first lines, that names every column the template needs (Apple's reports have a block of
// "Start Date<TAB>…" rows before it); its delimiter, tab, comma or semicolon, is taken from that row and
// used for the whole file. Rows are split per RFC 4180 (csv-records.ts). Blank rows are skipped; a row
// the template cannot use is a refused item; a file without the template's columns is refused whole.
//
// Speed (200,000 DistroKid lines, bundled, same machine as in dsr.ts): readline + split 300–350 ms, this
// reader 580–660 ms, 0.51–0.58 of it. Store names are looked up once per distinct store (templates.ts).
import type { Readable } from 'node:stream';
import { type CsvRecord, CsvRecords, splitRecord } from './csv-records';
import { count } from './fields';
import { headerFirst } from './header-first';
import {
  canonicalLine,
  type ReadItem,
  refused,
  type Statement,
  type StatementHeader,
  StatementRefused,
} from './line';
import { textLines } from './open-text';
import {
  LineProblem,
  normalizeHeading,
  type Row,
  TEMPLATES,
  type Template,
  type TemplateName,
} from './templates';

/** The header row must be within this many lines of the top. */
export const MAX_PREAMBLE_LINES = 50;

function sniffDelimiter(line: string): string {
  if (line.includes('\t')) return '\t';
  let commas = 0;
  let semicolons = 0;
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    if (c === 44) commas += 1;
    else if (c === 59) semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

interface Columns {
  index: Map<string, number>;
  headings: string[];
  missing: string[];
}

function columnsOf(cells: string[], template: Template): Columns {
  const byHeading = new Map<string, number>();
  cells.forEach((c, i) => {
    const h = normalizeHeading(c.trim());
    if (!byHeading.has(h)) byHeading.set(h, i);
  });
  const index = new Map<string, number>();
  for (const [key, names] of Object.entries(template.columns)) {
    for (const name of names) {
      const i = byHeading.get(normalizeHeading(name));
      if (i !== undefined) {
        index.set(key, i);
        break;
      }
    }
  }
  return {
    index,
    headings: cells.map((c) => c.trim()),
    missing: template.required.filter((k) => !index.has(k)),
  };
}

class CsvRow implements Row {
  usd: bigint | null = null;
  constructor(
    private readonly fields: string[],
    private readonly columns: Columns,
    private readonly template: Template,
  ) {}
  get(key: string): string {
    const i = this.columns.index.get(key);
    return i === undefined ? '' : (this.fields[i] ?? '').trim();
  }
  has(key: string): boolean {
    return this.columns.index.has(key);
  }
  heading(key: string): string {
    const i = this.columns.index.get(key);
    return i === undefined ? (this.template.columns[key]?.[0] ?? key) : (this.columns.headings[i] ?? key);
  }
}

function noHeader(template: Template, best: { lineNo: number; missing: string[] } | null): StatementRefused {
  if (!best) return new StatementRefused('The file is empty.');
  const names = best.missing.map((k) => `"${template.columns[k]![0]}"`);
  return new StatementRefused(
    `This file does not have the columns of a ${template.label}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} missing from its heading row${best.lineNo > 1 ? ` (the closest is line ${count(best.lineNo)})` : ''}. Check that you chose the right format for this file.`,
  );
}

function itemOf(record: CsvRecord, columns: Columns, template: Template): ReadItem | null {
  if ('bad' in record) {
    return refused(
      record.lineNo,
      `Line ${count(record.lineNo)} cannot be used: a quoted value is followed by other text before the next column.`,
    );
  }
  if (record.fields.every((f) => f.trim() === '')) return null;
  const row = new CsvRow(record.fields, columns, template);
  try {
    return { kind: 'line', line: canonicalLine(record.lineNo, template.line(row, record.lineNo)) };
  } catch (e) {
    if (!(e instanceof LineProblem)) throw e;
    return refused(record.lineNo, `Line ${count(record.lineNo)} cannot be used: ${e.message}`, row.usd);
  }
}

export function readCsvStatement(input: Readable, name: TemplateName): Statement {
  const template = TEMPLATES[name];
  return headerFirst(async function* (setHeader) {
    const header: StatementHeader = {
      sender: null,
      messageId: null,
      periodStart: null,
      periodEnd: null,
      reportedAt: null,
    };
    let columns: Columns | null = null;
    let records: CsvRecords | null = null;
    let best: { lineNo: number; missing: string[] } | null = null;
    let ended = false;
    let lineNo = 0;
    for await (const batch of textLines(input)) {
      const out: ReadItem[] = [];
      for (const line of batch) {
        lineNo += 1;
        if (records && columns) {
          if (ended) continue;
          const record = records.push(line, lineNo);
          if (!record) continue;
          if ('fields' in record && template.endsLines?.(record.fields)) {
            ended = true; // a trailing summary block: its rows are totals of the lines above, not lines
            continue;
          }
          const item = itemOf(record, columns, template);
          if (item) out.push(item);
          continue;
        }
        if (line.trim() === '') continue;
        if (lineNo > MAX_PREAMBLE_LINES) throw noHeader(template, best);
        const delimiter = sniffDelimiter(line);
        const cells = splitRecord(line, delimiter);
        if (!Array.isArray(cells)) continue;
        const found = columnsOf(cells, template);
        if (found.missing.length === 0) {
          columns = found;
          records = new CsvRecords(delimiter);
          setHeader(header);
          continue;
        }
        if (!best || found.missing.length < best.missing.length) best = { lineNo, missing: found.missing };
        template.preamble?.(cells, header);
      }
      if (out.length > 0) yield out;
    }
    if (!records) throw noHeader(template, best);
    records.end();
  });
}
