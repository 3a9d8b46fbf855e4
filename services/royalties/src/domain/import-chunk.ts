// A chunk of a statement as an import writes it: the reader's items grouped by the code that says whose
// they are (ISRC and UPC), each group's lines already packed as ledger text (ledger-line.ts) with its
// month sums, plus the refused lines and the chunk's totals. Built off the service's thread (the
// statement-reader worker), so the import's own thread does per code what it did per line: ask whose the
// code is, join the owner's groups into a page, add up a few month sums. A report repeats a few thousand
// codes over a million lines, so that is a fraction of the work.
import { pushFields, reportMonthOf, rowsOf, saleMonthOf, streamsOf } from './ledger-line';
import type { ReadItem, StatementLine } from './statements/line';

/** [saleMonth, reportMonth, streams, quantity, amount]. */
export type MonthPart = [string, string, number, number, bigint];

export interface CodeGroup {
  isrc: string;
  upc: string;
  n: number;
  /** The lines' statement fields (ledger-line.ts rowsOf), in file order. */
  rows: string;
  /** Sum of the lines' USD amounts (nano). */
  amount: bigint;
  months: MonthPart[];
}

export interface RefusedLine {
  lineNo: number;
  reason: string;
  amountAcct: bigint | null;
}

export interface ImportChunk {
  /** The last line number the chunk holds (an import resumes after it). */
  lastLineNo: number;
  /** Statement lines (not counting refused ones). */
  lines: number;
  groups: CodeGroup[];
  refused: RefusedLine[];
  /** Sum of the statement lines' USD amounts (nano). */
  amount: bigint;
  /** Earliest sale start, latest sale end and latest reporting date among the lines ('' if none). */
  saleStart: string;
  saleEnd: string;
  reportedAt: string;
}

interface Building {
  isrc: string;
  upc: string;
  n: number;
  cells: Array<string | number | bigint>;
  amount: bigint;
  months: Map<string, MonthPart>;
}

/** Collects items into a chunk; `take()` hands it over and starts the next. */
export class ChunkBuilder {
  private groups = new Map<string, Building>();
  private refused: RefusedLine[] = [];
  private lines = 0;
  private amount = 0n;
  private lastLineNo = 0;
  private saleStart = '';
  private saleEnd = '';
  private reportedAt = '';

  /** Items in the chunk so far. */
  get size() {
    return this.lines + this.refused.length;
  }

  add(item: ReadItem): void {
    if (item.kind === 'refused') {
      this.refused.push({ lineNo: item.lineNo, reason: item.reason, amountAcct: item.amountAcct });
      this.lastLineNo = item.lineNo;
      return;
    }
    this.addLine(item.line);
  }

  private addLine(l: StatementLine): void {
    const key = `${l.isrc}\x7f${l.upc}`;
    let g = this.groups.get(key);
    if (!g) {
      g = { isrc: l.isrc, upc: l.upc, n: 0, cells: [], amount: 0n, months: new Map() };
      this.groups.set(key, g);
    }
    pushFields(g.cells, l);
    g.n += 1;
    g.amount += l.amountAcct;
    const saleMonth = saleMonthOf(l);
    const reportMonth = reportMonthOf(l);
    const mk = `${saleMonth}|${reportMonth}`;
    const m = g.months.get(mk);
    if (m) {
      m[2] += streamsOf(l);
      m[3] += l.quantity;
      m[4] += l.amountAcct;
    } else g.months.set(mk, [saleMonth, reportMonth, streamsOf(l), l.quantity, l.amountAcct]);
    this.lines += 1;
    this.amount += l.amountAcct;
    this.lastLineNo = l.lineNo;
    if (!this.saleStart || l.saleStart < this.saleStart) this.saleStart = l.saleStart;
    if (l.saleEnd > this.saleEnd) this.saleEnd = l.saleEnd;
    if (l.reportedAt > this.reportedAt) this.reportedAt = l.reportedAt;
  }

  take(): ImportChunk {
    const chunk: ImportChunk = {
      lastLineNo: this.lastLineNo,
      lines: this.lines,
      groups: [...this.groups.values()].map((g) => ({
        isrc: g.isrc,
        upc: g.upc,
        n: g.n,
        rows: rowsOf(g.cells),
        amount: g.amount,
        months: [...g.months.values()],
      })),
      refused: this.refused,
      amount: this.amount,
      saleStart: this.saleStart,
      saleEnd: this.saleEnd,
      reportedAt: this.reportedAt,
    };
    this.groups = new Map();
    this.refused = [];
    this.lines = 0;
    this.amount = 0n;
    this.saleStart = '';
    this.saleEnd = '';
    this.reportedAt = '';
    return chunk;
  }
}
