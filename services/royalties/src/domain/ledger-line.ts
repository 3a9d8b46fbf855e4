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

// Columnar form of a chunk of lines: one array per field, so a chunk of a thousand lines is one document
// of repeated short strings instead of a thousand objects with the same keys (about half the bytes).
const TEXT = [
  'saleStart',
  'saleEnd',
  'reportedAt',
  'store',
  'serviceTier',
  'territory',
  'usageType',
  'isrc',
  'upc',
  'title',
  'artist',
  'currencyTxn',
  'fxRate',
  'fxDate',
  'adjustmentType',
  'ownerId',
  'releaseId',
  'trackId',
] as const;

export interface PackedLines {
  n: number;
  lineNo: number[];
  quantity: number[];
  /** Nano-units as decimal integer strings (bigint does not survive JSON). */
  amountTxn: string[];
  amountAcct: string[];
  proprietaryIds: string[][];
  text: Record<(typeof TEXT)[number], string[]>;
}

export function packLines(lines: readonly LedgerLine[]): PackedLines {
  const text = Object.fromEntries(TEXT.map((k) => [k, lines.map((l) => l[k])])) as PackedLines['text'];
  return {
    n: lines.length,
    lineNo: lines.map((l) => l.lineNo),
    quantity: lines.map((l) => l.quantity),
    amountTxn: lines.map((l) => l.amountTxn.toString()),
    amountAcct: lines.map((l) => l.amountAcct.toString()),
    proprietaryIds: lines.map((l) => l.proprietaryIds),
    text,
  };
}

export function unpackLines(p: PackedLines): LedgerLine[] {
  const out: LedgerLine[] = [];
  for (let i = 0; i < p.n; i += 1) {
    const line = {
      lineNo: p.lineNo[i],
      quantity: p.quantity[i],
      amountTxn: BigInt(p.amountTxn[i] ?? '0'),
      amountAcct: BigInt(p.amountAcct[i] ?? '0'),
      proprietaryIds: p.proprietaryIds[i] ?? [],
    } as Record<string, unknown>;
    for (const k of TEXT) line[k] = p.text[k][i];
    out.push(line as unknown as LedgerLine);
  }
  return out;
}
