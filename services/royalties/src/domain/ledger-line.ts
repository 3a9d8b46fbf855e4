// A statement line as the ledger keeps it: the store's words (statements/line.ts) plus whose it is. The
// ledger is append-only: a line is written once, in a chunk of its import, and never changed; a
// correction is a new line (the store's adjustment, or an admin attaching waiting lines later).
import type { StatementLine } from './statements/line';

export interface LedgerLine extends StatementLine {
  ownerId: string;
  releaseId: string;
  /** Empty when the store reported the whole release (by UPC). */
  trackId: string;
}

/** Sale month (YYYY-MM) of a line: the month its sale period starts in. */
export const saleMonthOf = (line: Pick<StatementLine, 'saleStart'>) => line.saleStart.slice(0, 7);
/** Reporting month (YYYY-MM). */
export const reportMonthOf = (line: Pick<StatementLine, 'reportedAt' | 'saleEnd'>) =>
  (line.reportedAt || line.saleEnd).slice(0, 7);

/** Streams a line counts: its quantity when it is a stream (returns and deductions included), else 0. */
export const streamsOf = (line: Pick<StatementLine, 'usageType' | 'quantity'>) =>
  line.usageType === 'stream' ? line.quantity : 0;

// A page of lines at rest, one owner's: one text holding the statement fields of every line in FIELDS'
// order, each followed by DEL (U+007F), and whose each run of lines is (release, track, how many). A
// document holding a thousand lines as text is written and read as one string (the documents port turns
// every document into JSON and back), where arrays of objects or of columns cost a JSON value per field.
// DEL rather than tab and newline because JSON escapes every control character below U+0020, which takes
// JSON.stringify off its copying fast path (with tabs, the page round trips were a tenth of an import's
// time, bench:royalties). Lines need no separator of their own: every line has FIELDS.length fields. An
// import builds these texts off the service's thread (statement-reader worker) a code at a time, then
// joins them per owner: the runs say which release and track each code's lines are.
const FIELDS = [
  'lineNo',
  'saleStart',
  'saleEnd',
  'reportedAt',
  'store',
  'serviceTier',
  'territory',
  'usageType',
  'isrc',
  'upc',
  'proprietaryIds',
  'title',
  'artist',
  'quantity',
  'amountTxn',
  'currencyTxn',
  'amountAcct',
  'fxRate',
  'fxDate',
  'adjustmentType',
] as const;
const WIDTH = FIELDS.length;

/** A run of consecutive lines of one release and track ('' for a whole release). */
export type LineRun = [releaseId: string, trackId: string, lines: number];

export interface PackedLines {
  n: number;
  /** FIELDS' names, so a reader of an older page knows its layout. */
  fields: string;
  /**
   * 2: DEL after every statement field, whose lines in `owner` and `runs`. Absent: the first layout (tab
   * between fields, newline between lines, owner, release and track as the last three fields).
   */
  layout?: 2;
  owner?: string;
  /** The runs, each as release DEL track DEL count DEL (FerretDB stores no arrays inside arrays). */
  runs?: string;
  rows: string;
}

export const FIELD_NAMES = FIELDS.join(',');
const DEL = '\x7f';
/** Text a store wrote (titles, names, ids): a DEL or backslash in it is escaped; nearly none has one. */
const escapeText = (text: string) =>
  text.includes('\\') || text.includes(DEL) ? text.replace(/\\/g, '\\\\').replace(/\x7f/g, '\\d') : text;
const unescapeText = (text: string) =>
  text.includes('\\') ? text.replace(/\\(\\|d)/g, (_, c: string) => (c === 'd' ? DEL : '\\')) : text;

/**
 * Adds a line's statement fields to `cells`; `cells.join(DEL) + DEL` (rowsOf) is the page text. One array
 * for a whole page, joined once: a template or += per line allocated a string per line and cost twice
 * as much.
 */
export function pushFields(cells: Array<string | number | bigint>, l: StatementLine): void {
  cells.push(
    l.lineNo,
    l.saleStart,
    l.saleEnd,
    l.reportedAt,
    escapeText(l.store),
    escapeText(l.serviceTier),
    l.territory,
    l.usageType,
    escapeText(l.isrc),
    l.upc,
    l.proprietaryIds.length === 0 ? '' : escapeText(l.proprietaryIds.join('|')),
    escapeText(l.title),
    escapeText(l.artist),
    l.quantity,
    l.amountTxn,
    l.currencyTxn,
    l.amountAcct,
    l.fxRate,
    l.fxDate,
    escapeText(l.adjustmentType),
  );
}

/** The text of fields pushed by pushFields: DEL after each, the last one too. */
export const rowsOf = (cells: ReadonlyArray<string | number | bigint>) =>
  cells.length === 0 ? '' : `${cells.join(DEL)}${DEL}`;

/** Runs at rest (PackedLines.runs). */
export const runsText = (runs: readonly LineRun[]) => runs.map((r) => `${r.join(DEL)}${DEL}`).join('');

function runsOf(text: string): LineRun[] {
  const c = text.split(DEL);
  const out: LineRun[] = [];
  for (let i = 0; i + 3 <= c.length; i += 3) out.push([c[i]!, c[i + 1]!, Number(c[i + 2])]);
  return out;
}

/** One owner's lines as a page (all must be `owner`'s). */
export function packLines(owner: string, lines: readonly LedgerLine[]): PackedLines {
  const cells: Array<string | number | bigint> = [];
  const runs: LineRun[] = [];
  for (const l of lines) {
    pushFields(cells, l);
    const last = runs[runs.length - 1];
    if (last && last[0] === l.releaseId && last[1] === l.trackId) last[2] += 1;
    else runs.push([l.releaseId, l.trackId, 1]);
  }
  return {
    n: lines.length,
    fields: FIELD_NAMES,
    layout: 2,
    owner,
    runs: runsText(runs),
    rows: rowsOf(cells),
  };
}

const statementLine = (c: readonly string[], at: number, plain: (t: string) => string): StatementLine => {
  const ids = plain(c[at + 10]!);
  return {
    lineNo: Number(c[at]),
    saleStart: c[at + 1]!,
    saleEnd: c[at + 2]!,
    reportedAt: c[at + 3]!,
    store: plain(c[at + 4]!),
    serviceTier: plain(c[at + 5]!),
    territory: c[at + 6]!,
    usageType: c[at + 7] as StatementLine['usageType'],
    isrc: plain(c[at + 8]!),
    upc: c[at + 9]!,
    proprietaryIds: ids ? ids.split('|') : [],
    title: plain(c[at + 11]!),
    artist: plain(c[at + 12]!),
    quantity: Number(c[at + 13]),
    amountTxn: BigInt(c[at + 14]!),
    currencyTxn: c[at + 15]!,
    amountAcct: BigInt(c[at + 16]!),
    fxRate: c[at + 17]!,
    fxDate: c[at + 18]!,
    adjustmentType: plain(c[at + 19]!),
  };
};

/** The statement lines of a text made by pushFields/rowsOf (lines that matched no recording). */
export function statementLinesOf(rows: string): StatementLine[] {
  const c = rows.split(DEL);
  const out: StatementLine[] = [];
  for (let at = 0; at + WIDTH <= c.length; at += WIDTH) out.push(statementLine(c, at, unescapeText));
  return out;
}

export function unpackLines(p: PackedLines): LedgerLine[] {
  if (p.n === 0) return [];
  const out: LedgerLine[] = [];
  if (p.layout === 2) {
    const lines = statementLinesOf(p.rows);
    let i = 0;
    for (const [releaseId, trackId, n] of runsOf(p.runs ?? ''))
      for (let k = 0; k < n; k += 1, i += 1)
        out.push(Object.assign(lines[i]!, { ownerId: p.owner!, releaseId, trackId }));
    return out;
  }
  for (const row of p.rows.split('\n')) {
    const c = row.split('\t');
    out.push(
      Object.assign(statementLine(c, 0, unescapeFirstLayout), {
        ownerId: c[20]!,
        releaseId: c[21]!,
        trackId: c[22]!,
      }),
    );
  }
  return out;
}

/** The first layout wrote a backslash, tab and newline inside text as a backslash then \\, t or n. */
const unescapeFirstLayout = (text: string) =>
  text.includes('\\')
    ? text.replace(/\\(\\|t|n)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'))
    : text;
