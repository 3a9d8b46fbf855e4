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

// A chunk of lines at rest: one text, a line per row and its fields tab-separated in FIELDS' order. A
// document holding a thousand lines as text is written and read as one string (the documents port turns
// every document into JSON and back), where arrays of objects or of columns cost a JSON value per field:
// this is what made the ledger's writes twice as fast (bench:royalties).
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

export interface PackedLines {
  n: number;
  /** FIELDS' names, so a reader of an older chunk knows its layout. */
  fields: string;
  rows: string;
}

const SPECIAL = /[\\\t\n]/;
const escapeText = (text: string) =>
  SPECIAL.test(text) ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n') : text;
const unescapeText = (text: string) =>
  text.includes('\\')
    ? text.replace(/\\(\\|t|n)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'))
    : text;

export function packLines(lines: readonly LedgerLine[]): PackedLines {
  const rows = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
    rows[i] = [
      l.lineNo,
      l.saleStart,
      l.saleEnd,
      l.reportedAt,
      escapeText(l.store),
      escapeText(l.serviceTier),
      l.territory,
      l.usageType,
      l.isrc,
      l.upc,
      escapeText(l.proprietaryIds.join('|')),
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
    ].join('\t');
  }
  return { n: lines.length, fields: FIELDS.join(','), rows: rows.join('\n') };
}

export function unpackLines(p: PackedLines): LedgerLine[] {
  if (p.n === 0) return [];
  const out: LedgerLine[] = [];
  for (const row of p.rows.split('\n')) {
    const c = row.split('\t');
    const ids = unescapeText(c[10]!);
    out.push({
      lineNo: Number(c[0]),
      saleStart: c[1]!,
      saleEnd: c[2]!,
      reportedAt: c[3]!,
      store: unescapeText(c[4]!),
      serviceTier: unescapeText(c[5]!),
      territory: c[6]!,
      usageType: c[7] as LedgerLine['usageType'],
      isrc: c[8]!,
      upc: c[9]!,
      proprietaryIds: ids ? ids.split('|') : [],
      title: unescapeText(c[11]!),
      artist: unescapeText(c[12]!),
      quantity: Number(c[13]),
      amountTxn: BigInt(c[14]!),
      currencyTxn: c[15]!,
      amountAcct: BigInt(c[16]!),
      fxRate: c[17]!,
      fxDate: c[18]!,
      adjustmentType: unescapeText(c[19]!),
      ownerId: c[20]!,
      releaseId: c[21]!,
      trackId: c[22]!,
    });
  }
  return out;
}
