// A chunk of a statement as an import writes it: the reader's items grouped by the recording as reported
// (the ISRC and UPC that say whose it is, and its title, artist and ids), each group's lines kept in the
// chunk's columns (import-columns.ts) naming the chunk's sale contexts, with its month counts; plus the
// contexts and the refused lines. Built off the service's thread (the statement-reader worker), so the
// import's own thread does per code what it did per line: ask whose the code is, write the owner's
// groups' rows into a page (ledger-line.ts layout 3), add up a few month sums. A report repeats a few
// thousand codes over a million lines, so that is a fraction of the work.
import { type Columns, LineColumns, NamedContexts, sumAmounts, writeRows } from './import-columns';
import {
  Contexts,
  RowWriter,
  recordingText,
  sameRecording,
  statementLinesOf,
  streamsOf,
} from './ledger-line';
import type { ReadItem, StatementLine } from './statements/line';

/** [saleMonth, reportMonth, streams, quantity, amount]. */
export type MonthPart = [string, string, number, number, bigint];

export interface CodeGroup {
  isrc: string;
  upc: string;
  n: number;
  /** The recording as its lines report it (ledger-line.ts recordingText). */
  recording: string;
  /** Its first line in the chunk's columns (groupsRows gives its rows' text and the contexts they name). */
  head: number;
  /** Its lines' sums by sale and reporting month; the amounts are added by `settle`. */
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
  /** The sale contexts the groups' rows name by number (ledger-line.ts contextText). */
  contexts: string[];
  refused: RefusedLine[];
  /** The lines' own fields (import-columns.ts). */
  columns: Columns;
  /** Earliest sale start, latest sale end and latest reporting date among the lines ('' if none). */
  saleStart: string;
  saleEnd: string;
  reportedAt: string;
}

interface Building {
  // The recording as reported: independent copies of the first line's fields (see groupOf).
  isrc: string;
  upc: string;
  title: string;
  artist: string;
  proprietaryIds: string[];
  n: number;
  /** Its first and last lines in the columns (the others linked between them). */
  head: number;
  tail: number;
  /** Few per group (a file's sale months × reporting months): searched, not keyed by a built string. */
  months: MonthPart[];
  /** The group of the line that came after this group's last line. */
  followedBy: Building | null;
}

/** Collects items into a chunk; `take()` hands it over and starts the next. */
export class ChunkBuilder {
  // By ISRC, then the recording as the store wrote it (nearly always one per ISRC): no string is built
  // per line. A group keeps copies of its first line's fields, not the line: a field cut from the file's
  // text holds all of that 64 KB text, and 10,000 first lines held until the chunk was taken were promoted
  // and collected again (a third of the reader's time, bench:royalties).
  private groups = new Map<string, Building[]>();
  private recordingCount = 0;
  private lastGroup: Building | null = null;
  private refused: RefusedLine[] = [];
  private lines = 0;
  private lastLineNo = 0;
  private saleStart = '';
  private saleEnd = '';
  private reportedAt = '';
  // A file has a few dates: their months are cut once, and the months' strings are the same objects.
  private readonly monthOf = new Map<string, string>();
  private contexts = new Contexts();
  private readonly columns = new LineColumns();

  /** Items in the chunk so far. */
  get size() {
    return this.lines + this.refused.length;
  }

  /** Recordings in the chunk so far (what its memory grows with, besides its lines). */
  get recordings() {
    return this.recordingCount;
  }

  add(item: ReadItem): void {
    if (item.kind === 'refused') {
      this.refused.push({ lineNo: item.lineNo, reason: item.reason, amountAcct: item.amountAcct });
      this.lastLineNo = item.lineNo;
      return;
    }
    this.addLine(item.line);
  }

  private month(date: string): string {
    let m = this.monthOf.get(date);
    if (m === undefined) {
      m = date.slice(0, 7);
      this.monthOf.set(date, m);
    }
    return m;
  }

  private groupOf(l: StatementLine): Building {
    // A store lists each summary's tracks in the same order: the group that followed the last line's
    // group before nearly always follows it again, which spares the lookup.
    const last = this.lastGroup;
    const guess = last?.followedBy;
    if (guess && sameRecording(guess, l)) return this.follow(last, guess);
    let list = this.groups.get(l.isrc);
    if (list) {
      for (const g of list) if (sameRecording(g, l)) return this.follow(last, g);
    }
    // JSON's round trip gives flat strings of their own.
    const [isrc, upc, title, artist, ...proprietaryIds] = JSON.parse(
      JSON.stringify([l.isrc, l.upc, l.title, l.artist, ...l.proprietaryIds]),
    ) as string[];
    const g: Building = {
      isrc: isrc!,
      upc: upc!,
      title: title!,
      artist: artist!,
      proprietaryIds,
      n: 0,
      head: -1,
      tail: -1,
      months: [],
      followedBy: null,
    };
    this.recordingCount += 1;
    if (list) list.push(g);
    else {
      list = [g];
      this.groups.set(g.isrc, list);
    }
    return this.follow(last, g);
  }

  private follow(last: Building | null, g: Building): Building {
    if (last) last.followedBy = g;
    this.lastGroup = g;
    return g;
  }

  private addLine(l: StatementLine): void {
    const g = this.groupOf(l);
    const context = this.contexts.of(l);
    g.n += 1;
    // The same month cuts as ledger-line.ts saleMonthOf and reportMonthOf.
    const saleMonth = this.month(l.saleStart);
    const reportMonth = this.month(l.reportedAt || l.saleEnd);
    const streams = streamsOf(l);
    // The amounts are added up when the chunk is taken (LineColumns.sumAmounts): a running BigInt sum per
    // group made an object per line that lived until the group's next line, and was promoted.
    let part = 0;
    while (part < g.months.length) {
      const m = g.months[part]!;
      if (m[0] === saleMonth && m[1] === reportMonth) break;
      part += 1;
    }
    const m = g.months[part];
    if (m) {
      m[2] += streams;
      m[3] += l.quantity;
    } else g.months.push([saleMonth, reportMonth, streams, l.quantity, 0n]);
    const at = this.columns.add(l, context, part);
    if (g.head === -1) g.head = at;
    else this.columns.link(g.tail, at);
    g.tail = at;
    this.lines += 1;
    this.lastLineNo = l.lineNo;
    if (!this.saleStart || l.saleStart < this.saleStart) this.saleStart = l.saleStart;
    if (l.saleEnd > this.saleEnd) this.saleEnd = l.saleEnd;
    if (l.reportedAt > this.reportedAt) this.reportedAt = l.reportedAt;
  }

  /** The most items a chunk will hold (the columns are sized to it). */
  expect(items: number): void {
    this.columns.limit = items;
  }

  /** Columns of a chunk already written, to fill again. */
  spare(columns: Columns): void {
    this.columns.spare(columns);
  }

  /** Whether the chunk must be handed over now (its columns number as many dates and words as they hold). */
  get full(): boolean {
    return this.columns.full;
  }

  /** Whether a chunk can be taken now: else the last one taken must come back first (`spare`). */
  get free(): boolean {
    return this.columns.free;
  }

  take(): ImportChunk {
    const groups: CodeGroup[] = [];
    for (const list of this.groups.values())
      for (const g of list)
        groups.push({
          isrc: g.isrc,
          upc: g.upc,
          n: g.n,
          recording: recordingText(g),
          head: g.head,
          months: g.months,
        });
    const chunk: ImportChunk = {
      lastLineNo: this.lastLineNo,
      lines: this.lines,
      groups,
      contexts: this.contexts.list,
      refused: this.refused,
      columns: this.columns.take(),
      saleStart: this.saleStart,
      saleEnd: this.saleEnd,
      reportedAt: this.reportedAt,
    };
    this.groups = new Map();
    this.recordingCount = 0;
    this.lastGroup = null;
    this.contexts = new Contexts();
    this.refused = [];
    this.lines = 0;
    this.saleStart = '';
    this.saleEnd = '';
    this.reportedAt = '';
    return chunk;
  }
}

/**
 * Adds up the chunk's money (on the import's thread): each group's month amounts, and the sums of each
 * group and of the whole chunk (USD nano), one addition per line.
 */
export function settle(chunk: ImportChunk): { groups: bigint[]; amount: bigint } {
  const sums: bigint[] = [];
  let amount = 0n;
  for (const g of chunk.groups) {
    sumAmounts(chunk.columns, g.head, g.months);
    let sum = 0n;
    for (const m of g.months) sum += m[4];
    sums.push(sum);
    amount += sum;
  }
  return { groups: sums, amount };
}

const rows = new RowWriter();
const named = new NamedContexts();

/**
 * The rows at rest (ledger-line.ts layout 3) of groups, one after the other, each in file order; and the
 * numbers of the chunk's contexts they name, each once.
 */
export function groupsRows(
  chunk: ImportChunk,
  groups: readonly CodeGroup[],
): { rows: string; contexts: number[] } {
  named.reset(chunk.contexts.length);
  for (const g of groups) writeRows(chunk.columns, rows, g.head, named);
  return { rows: rows.take(), contexts: named.list };
}

/** A group's lines as the store reported them (lines no recording matched wait as these). */
export const groupLines = (chunk: ImportChunk, g: CodeGroup): StatementLine[] =>
  statementLinesOf(g.recording, groupsRows(chunk, [g]).rows, chunk.contexts);
