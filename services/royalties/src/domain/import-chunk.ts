// A chunk of a statement as an import writes it: the reader's items grouped by the recording as reported
// (the ISRC and UPC that say whose it is, and its title, artist and ids), each group's lines kept in the
// chunk's columns (import-columns.ts) naming the chunk's sale contexts, with its month counts; plus the
// contexts and the refused lines. Built off the service's thread (the statement-reader worker), so the
// import's own thread does per code what it did per line: ask whose the code is, write the owner's
// groups' rows into a page (ledger-line.ts layout 3), add up a few month sums. A report repeats a few
// thousand codes over a million lines, so that is a fraction of the work; and each recording's codes and
// text are handed over once per file, the groups of later chunks naming it by number (ChunkGroups).
import {
  type Columns,
  LineColumns,
  MOST_NUMBERED,
  NamedContexts,
  sumAmounts,
  writeRows,
} from './import-columns';
import {
  Contexts,
  Numbering,
  RowWriter,
  recordingText,
  sameRecording,
  statementLinesOf,
  streamsOf,
} from './ledger-line';
import type { MonthSum } from './rollups';
import type { ReadItem, StatementLine } from './statements/line';

/** A recording as a chunk names it: its codes (whose it is) and its text in a run (recordingText). */
export interface RecordingText {
  isrc: string;
  upc: string;
  recording: string;
}

/**
 * A chunk's groups (one per recording it reports) as columns, like its lines: a group cost the import's
 * thread a handful of objects (its codes and text, months, sums) that lived through the chunk's
 * transaction and were promoted, 70 MB over a million lines of 10,000 recordings (bench:royalties).
 * Group `g`'s month parts are `partsAt[g]` to `partsAt[g + 1]`.
 */
export interface ChunkGroups {
  count: number;
  /** The recording's number in the reader's table (ImportChunk.recordings). */
  rec: Int32Array;
  n: Int32Array;
  /** Its first line in the chunk's columns (the others linked from it). */
  head: Int32Array;
  partsAt: Int32Array;
  /** A part's sale and reporting month, as numbers into `months`. */
  partSale: Int32Array;
  partReport: Int32Array;
  partStreams: Float64Array;
  partQuantity: Float64Array;
  months: string[];
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
  /**
   * The recordings first reported in this chunk, numbered from `recordingsFrom` on: each is sent once per
   * file, and later chunks name it by number. 0 starts the table afresh (the reader forgets a wide
   * catalogue's recordings rather than keep them all).
   */
  recordingsFrom: number;
  recordings: RecordingText[];
  groups: ChunkGroups;
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

/** A group's lines by sale and reporting month, as the reader counts them. */
interface Part {
  sale: string;
  report: string;
  streams: number;
  quantity: number;
}

interface Recording {
  // The recording as reported: independent copies of the first line's fields (see recordingOf).
  isrc: string;
  upc: string;
  title: string;
  artist: string;
  proprietaryIds: string[];
  /** Its number in the table (ImportChunk.recordings). */
  id: number;
  /** The chunk it was last reported in, and its group there. */
  chunk: number;
  n: number;
  /** Its first and last lines in the columns (the others linked between them). */
  head: number;
  tail: number;
  /**
   * Its month parts in this chunk: the first `partCount` of `parts` (few: a file's sale months × reporting
   * months; searched, not keyed by a built string). The list and its objects are filled again chunk after
   * chunk: made afresh for every recording in every chunk, they lived through the chunk, referenced from the
   * recording, and were promoted (the reader's old generation grew by them).
   */
  parts: Part[];
  partCount: number;
  /** The recording of the line that came after this one's last line. */
  followedBy: Recording | null;
}

/**
 * Recordings a reader remembers across chunks at most: past it, the table starts afresh at the next
 * chunk (each number then costs the import's thread an entry, so a file of millions of distinct
 * recordings must not grow it without end).
 */
const MOST_RECORDINGS_KEPT = 200_000;

/** Collects items into a chunk; `take()` hands it over and starts the next. */
export class ChunkBuilder {
  // By ISRC, then the recording as the store wrote it (nearly always one per ISRC): no string is built
  // per line. A recording keeps copies of its first line's fields, not the line: a field cut from the
  // file's text holds all of that 64 KB text (a third of the reader's time once, bench:royalties).
  private table = new Map<string, Recording[]>();
  private tableSize = 0;
  /** Recordings first reported since the last chunk was taken, and the first one's number. */
  private fresh: Recording[] = [];
  private freshFrom = 0;
  /** Recordings reported in this chunk, in the order first reported. */
  private touched: Recording[] = [];
  private chunkNo = 1;
  private last: Recording | null = null;
  private refused: RefusedLine[] = [];
  private lines = 0;
  private lastLineNo = 0;
  private saleStart = '';
  private saleEnd = '';
  private reportedAt = '';
  // A file has a few dates: their months are cut once, and the months' strings are the same objects.
  private readonly monthOf = new Map<string, string>();
  private contexts = new Contexts();
  /** The most month parts a group of the chunk has. */
  private mostParts = 0;
  private readonly columns = new LineColumns();

  /** `mostKept`: recordings remembered across chunks before the table starts afresh (tests use a few). */
  constructor(private readonly mostKept = MOST_RECORDINGS_KEPT) {}

  /** Items in the chunk so far. */
  get size() {
    return this.lines + this.refused.length;
  }

  /** Recordings in the chunk so far (what its memory grows with, besides its lines). */
  get recordings() {
    return this.touched.length;
  }

  /**
   * Whether the chunk must be handed over now: its columns number as many dates and words, contexts, or
   * month parts of a group as they hold.
   */
  get full(): boolean {
    return this.columns.full || this.contexts.list.length >= MOST_NUMBERED || this.mostParts >= MOST_NUMBERED;
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

  private recordingOf(l: StatementLine): Recording {
    // A store lists each summary's tracks in the same order: the recording that followed the last line's
    // before nearly always follows it again, which spares the lookup.
    const last = this.last;
    const guess = last?.followedBy;
    if (guess && sameRecording(guess, l)) return this.follow(last, guess);
    let list = this.table.get(l.isrc);
    if (list) {
      for (const r of list) if (sameRecording(r, l)) return this.follow(last, r);
    }
    // JSON's round trip gives flat strings of their own.
    const [isrc, upc, title, artist, ...proprietaryIds] = JSON.parse(
      JSON.stringify([l.isrc, l.upc, l.title, l.artist, ...l.proprietaryIds]),
    ) as string[];
    const r: Recording = {
      isrc: isrc!,
      upc: upc!,
      title: title!,
      artist: artist!,
      proprietaryIds,
      id: this.freshFrom + this.fresh.length,
      chunk: 0,
      n: 0,
      head: -1,
      tail: -1,
      parts: [],
      partCount: 0,
      followedBy: null,
    };
    this.fresh.push(r);
    this.tableSize += 1;
    if (list) list.push(r);
    else {
      list = [r];
      this.table.set(r.isrc, list);
    }
    return this.follow(last, r);
  }

  private follow(last: Recording | null, r: Recording): Recording {
    if (last) last.followedBy = r;
    this.last = r;
    if (r.chunk !== this.chunkNo) {
      r.chunk = this.chunkNo;
      r.n = 0;
      r.head = -1;
      r.tail = -1;
      r.partCount = 0;
      this.touched.push(r);
    }
    return r;
  }

  private addLine(l: StatementLine): void {
    const r = this.recordingOf(l);
    const context = this.contexts.of(l);
    r.n += 1;
    // The same month cuts as ledger-line.ts saleMonthOf and reportMonthOf.
    const sale = this.month(l.saleStart);
    const report = this.month(l.reportedAt || l.saleEnd);
    // The amounts are added up on the import's thread (import-columns.ts sumAmounts): a running BigInt
    // sum per group made an object per line that lived until the group's next line, and was promoted.
    let part = 0;
    while (part < r.partCount) {
      const m = r.parts[part]!;
      if (m.sale === sale && m.report === report) break;
      part += 1;
    }
    if (part < r.partCount) {
      const m = r.parts[part]!;
      m.streams += streamsOf(l);
      m.quantity += l.quantity;
    } else {
      const spare = r.parts[part];
      if (spare) {
        spare.sale = sale;
        spare.report = report;
        spare.streams = streamsOf(l);
        spare.quantity = l.quantity;
      } else r.parts.push({ sale, report, streams: streamsOf(l), quantity: l.quantity });
      r.partCount = part + 1;
      if (r.partCount > this.mostParts) this.mostParts = r.partCount;
    }
    const at = this.columns.add(l, context, part);
    if (r.head === -1) r.head = at;
    else this.columns.link(r.tail, at);
    r.tail = at;
    this.lines += 1;
    this.lastLineNo = l.lineNo;
    if (!this.saleStart || l.saleStart < this.saleStart) this.saleStart = l.saleStart;
    if (l.saleEnd > this.saleEnd) this.saleEnd = l.saleEnd;
    if (l.reportedAt > this.reportedAt) this.reportedAt = l.reportedAt;
  }

  /**
   * The most items a chunk will hold (the columns are sized to it), and how many more lines the file
   * likely holds (the columns grow to them at once, up to that size).
   */
  expect(items: number, linesAhead?: () => number): void {
    this.columns.limit = items;
    if (linesAhead) this.columns.linesAhead = linesAhead;
  }

  /** Columns of a chunk already written, to fill again. */
  spare(columns: Columns): void {
    this.columns.spare(columns);
  }

  /** Whether a chunk can be taken now: else the last one taken must come back first (`spare`). */
  get free(): boolean {
    return this.columns.free;
  }

  take(): ImportChunk {
    const chunk: ImportChunk = {
      lastLineNo: this.lastLineNo,
      lines: this.lines,
      recordingsFrom: this.freshFrom,
      recordings: this.fresh.map((r) => ({ isrc: r.isrc, upc: r.upc, recording: recordingText(r) })),
      groups: this.groupColumns(),
      contexts: this.contexts.list,
      refused: this.refused,
      columns: this.columns.take(),
      saleStart: this.saleStart,
      saleEnd: this.saleEnd,
      reportedAt: this.reportedAt,
    };
    this.freshFrom += this.fresh.length;
    this.fresh = [];
    if (this.tableSize > this.mostKept) {
      this.table = new Map();
      this.tableSize = 0;
      this.freshFrom = 0;
      this.last = null;
    }
    this.touched = [];
    this.chunkNo += 1;
    this.contexts = new Contexts();
    this.mostParts = 0;
    this.refused = [];
    this.lines = 0;
    this.saleStart = '';
    this.saleEnd = '';
    this.reportedAt = '';
    return chunk;
  }

  private groupColumns(): ChunkGroups {
    const groups = this.touched;
    let parts = 0;
    for (const r of groups) parts += r.partCount;
    const g: ChunkGroups = {
      count: groups.length,
      rec: new Int32Array(groups.length),
      n: new Int32Array(groups.length),
      head: new Int32Array(groups.length),
      partsAt: new Int32Array(groups.length + 1),
      partSale: new Int32Array(parts),
      partReport: new Int32Array(parts),
      partStreams: new Float64Array(parts),
      partQuantity: new Float64Array(parts),
      months: [],
    };
    const months = new Numbering();
    let k = 0;
    groups.forEach((r, i) => {
      g.rec[i] = r.id;
      g.n[i] = r.n;
      g.head[i] = r.head;
      g.partsAt[i] = k;
      for (let j = 0; j < r.partCount; j += 1) {
        const p = r.parts[j]!;
        g.partSale[k] = months.of(p.sale);
        g.partReport[k] = months.of(p.report);
        g.partStreams[k] = p.streams;
        g.partQuantity[k] = p.quantity;
        k += 1;
      }
    });
    g.partsAt[groups.length] = k;
    g.months = months.list;
    return g;
  }
}

/** A month part of a group as the import adds it to its owner's sums (amount in USD nano). */
export type PartSum = Omit<MonthSum, 'ownerId'>;

let partAmounts: bigint[] = [];

/**
 * Adds up group `g`'s money (on the import's thread, from the columns): calls `each` with each of its
 * month parts, and gives the group's sum (USD nano).
 */
export function settleGroup(chunk: ImportChunk, g: number, each?: (part: PartSum) => void): bigint {
  const G = chunk.groups;
  const from = G.partsAt[g]!;
  const count = G.partsAt[g + 1]! - from;
  if (partAmounts.length < count) partAmounts = new Array<bigint>(count * 2).fill(0n);
  sumAmounts(chunk.columns, G.head[g]!, partAmounts, count);
  let sum = 0n;
  for (let k = 0; k < count; k += 1) {
    const amount = partAmounts[k]!;
    sum += amount;
    each?.({
      saleMonth: G.months[G.partSale[from + k]!]!,
      reportMonth: G.months[G.partReport[from + k]!]!,
      streams: G.partStreams[from + k]!,
      quantity: G.partQuantity[from + k]!,
      amount,
    });
  }
  return sum;
}

const rows = new RowWriter();
const named = new NamedContexts();

/**
 * The rows at rest (ledger-line.ts layout 3) of groups, one after the other, each in file order; and the
 * numbers of the chunk's contexts they name, each once.
 */
export function groupsRows(
  chunk: ImportChunk,
  groups: Iterable<number>,
): { rows: string; contexts: number[] } {
  named.reset(chunk.contexts.length);
  for (const g of groups) writeRows(chunk.columns, rows, chunk.groups.head[g]!, named);
  return { rows: rows.take(), contexts: named.list };
}

/** Group `g`'s lines as the store reported them (lines no recording matched wait as these); `recording` its text. */
export const groupLines = (chunk: ImportChunk, g: number, recording: string): StatementLine[] =>
  statementLinesOf(recording, groupsRows(chunk, [g]).rows, chunk.contexts);
