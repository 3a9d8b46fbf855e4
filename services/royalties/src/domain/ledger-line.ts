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

// A chunk of lines at rest: one text holding every field of every line in FIELDS' order, each followed by
// DEL (U+007F). A document holding a thousand lines as text is written and read as one string (the
// documents port turns every document into JSON and back), where arrays of objects or of columns cost a
// JSON value per field: this made the ledger's writes twice as fast. DEL rather than tab and newline
// because JSON escapes every control character below U+0020 and JSON.stringify then leaves its copying
// fast path: with tabs, the JSON round trips of a page were a tenth of an import's time (bench:royalties).
// Lines need no separator of their own: every line has FIELDS.length fields.
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
  'ownerId',
  'releaseId',
  'trackId',
] as const;
const WIDTH = FIELDS.length;

export interface PackedLines {
  n: number;
  /** FIELDS' names, so a reader of an older chunk knows its layout. */
  fields: string;
  /** 2: DEL after every field. Absent: the first layout (tab between fields, newline between lines). */
  layout?: 2;
  rows: string;
}

const DEL = '\x7f';
/** Text a store wrote (titles, names, ids): a DEL or backslash in it is escaped; nearly none has one. */
const escapeText = (text: string) =>
  text.includes('\\') || text.includes(DEL) ? text.replace(/\\/g, '\\\\').replace(/\x7f/g, '\\d') : text;
const unescapeText = (text: string) =>
  text.includes('\\') ? text.replace(/\\(\\|d)/g, (_, c: string) => (c === 'd' ? DEL : '\\')) : text;

export function packLines(lines: readonly LedgerLine[]): PackedLines {
  // One array of every field, joined once: a template or += per line allocated a string per line and
  // cost twice as much (bench:royalties).
  const cells: Array<string | number | bigint> = [];
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
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
      l.ownerId,
      l.releaseId,
      l.trackId,
    );
  }
  // Every field is followed by DEL, the last one too.
  if (cells.length > 0) cells.push('');
  return { n: lines.length, fields: FIELDS.join(','), layout: 2, rows: cells.join(DEL) };
}

const lineFrom = (c: readonly string[], at: number, plain: (t: string) => string): LedgerLine => {
  const ids = plain(c[at + 10]!);
  return {
    lineNo: Number(c[at]),
    saleStart: c[at + 1]!,
    saleEnd: c[at + 2]!,
    reportedAt: c[at + 3]!,
    store: plain(c[at + 4]!),
    serviceTier: plain(c[at + 5]!),
    territory: c[at + 6]!,
    usageType: c[at + 7] as LedgerLine['usageType'],
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
    ownerId: c[at + 20]!,
    releaseId: c[at + 21]!,
    trackId: c[at + 22]!,
  };
};

export function unpackLines(p: PackedLines): LedgerLine[] {
  if (p.n === 0) return [];
  const out: LedgerLine[] = [];
  if (p.layout === 2) {
    const c = p.rows.split(DEL);
    for (let at = 0; at + WIDTH <= c.length; at += WIDTH) out.push(lineFrom(c, at, unescapeText));
    return out;
  }
  for (const row of p.rows.split('\n')) out.push(lineFrom(row.split('\t'), 0, unescapeFirstLayout));
  return out;
}

/** The first layout wrote a backslash, tab and newline inside text as a backslash then \\, t or n. */
const unescapeFirstLayout = (text: string) =>
  text.includes('\\')
    ? text.replace(/\\(\\|t|n)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'))
    : text;
