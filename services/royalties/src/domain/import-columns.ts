// A chunk's lines while it is being built, as columns: typed arrays, the few dates and adjustment words
// as numbers into a list. The statement reader makes an object per line; kept
// until the chunk is handed over, those objects (or the cells of their text) were copied by every young
// collection and then promoted: half the reader's time was the collector's (bench:royalties, CPU profile).
// A line's fields here cost no object at all; its group's lines are linked through `nextOf`. The columns
// are handed to the import's thread as they are (transferred, not copied), which writes each group's
// rows in file order (ledger-line.ts RowWriter) and adds up its money: that thread waits for the
// reader most of the time, so the work is shared between the two.
import { Numbering, type RowWriter } from './ledger-line';
import type { StatementLine } from './statements/line';

// Amounts are kept as numbers when they are safe integers (nano-units: up to 9 million dollars a line),
// so the import's thread writes and adds them up without making a bigint per line. Each column is as
// narrow as its values nearly always are (a line costs 30 bytes, 56 once: a chunk's two sets of columns
// are most of a large import's memory); a line whose values do not fit goes whole to `wide`. The amount
// in the sale's currency is written only once a line's differs from the USD one (most stores report in
// USD): until then that column's pages are never touched, so they cost no memory.
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const fits = (v: bigint) => v <= SAFE && v >= -SAFE;
const fitsUint32 = (n: number) => n >= 0 && n <= 0xffffffff;
const fitsInt32 = (n: number) => (n | 0) === n;
/**
 * Dates and adjustment words, contexts, and a group's month parts a chunk may number (Uint16 columns):
 * the chunk is handed over before (`full`).
 */
export const MOST_NUMBERED = 0xffff - 3;

/** A line whose line number, quantity or amounts do not fit their columns. */
export interface WideLine {
  lineNo: number;
  quantity: number;
  amountTxn: bigint;
  amountAcct: bigint;
}

/** A chunk's columns as handed over: their buffers move to the import's thread, they are not copied. */
export interface Columns {
  size: number;
  lineNo: Uint32Array;
  context: Uint16Array;
  saleStart: Uint16Array;
  saleEnd: Uint16Array;
  quantity: Int32Array;
  /** Only once `txnApart` (else each line's is its amountAcct). */
  amountTxn: Float64Array;
  amountAcct: Float64Array;
  /** Whether a line of the chunk has an amount in its currency other than in USD. */
  txnApart: boolean;
  adjustment: Uint16Array;
  /** Which of its group's month sums the line adds to. */
  part: Uint16Array;
  /** The next line of the same group (-1: the last). */
  nextOf: Int32Array;
  /** Lines whose values do not fit their columns, by index (amounts of 9 million dollars and more). */
  wide: Map<number, WideLine>;
  /** The dates and adjustment words the lines name by number. */
  strings: string[];
}

function empty(capacity: number): Columns {
  return {
    size: 0,
    lineNo: new Uint32Array(capacity),
    context: new Uint16Array(capacity),
    saleStart: new Uint16Array(capacity),
    saleEnd: new Uint16Array(capacity),
    quantity: new Int32Array(capacity),
    amountTxn: new Float64Array(capacity),
    amountAcct: new Float64Array(capacity),
    txnApart: false,
    adjustment: new Uint16Array(capacity),
    part: new Uint16Array(capacity),
    nextOf: new Int32Array(capacity),
    wide: new Map(),
    strings: [],
  };
}

/** Sets of columns in use at most: one being filled, one handed over (LineColumns.sets). */
const SETS = 2;

/** The typed arrays of Columns (what is transferred, and copied when they grow). */
const ARRAYS = [
  'lineNo',
  'context',
  'saleStart',
  'saleEnd',
  'quantity',
  'amountTxn',
  'amountAcct',
  'adjustment',
  'part',
  'nextOf',
] as const satisfies ReadonlyArray<keyof Columns>;

/** The buffers to transfer with a chunk (postMessage's transfer list). */
export const transferables = (c: Columns): ArrayBuffer[] => ARRAYS.map((k) => c[k].buffer as ArrayBuffer);

export class LineColumns {
  private c = empty(1024);
  /**
   * Sets of columns made so far; at most SETS exist (one being filled, one handed over): the next chunk
   * waits for the one handed over to come back (`spare`) rather than a third being made. Each set is a
   * chunk's lines (42 bytes a line: 8 MB at 200,000), so a third set, or a fourth while the collector
   * had not yet freed one, was a large part of a large import's peak memory.
   */
  private sets = 1;
  /** Columns handed back after their chunk was written. */
  private readonly pool: Columns[] = [];
  /** The most lines a chunk holds: the columns grow to it, not to the next power of two past it. */
  limit = Number.POSITIVE_INFINITY;
  /**
   * How many more lines the file likely holds (the reader's estimate from the bytes left; 0 if unknown).
   * Columns that must grow grow to hold them at once: grown by doubling, a large file's columns were
   * copied a dozen times on the way to a chunk's size, and the arrays left behind (as many bytes again)
   * stayed in the reader's memory (10 MB of a 1,000,000-line import's peak, bench:royalties).
   */
  linesAhead: () => number = () => 0;
  // Dates and adjustment words: a file has a few, and its lines share the very strings (the reader's
  // caches), so the last one seen nearly always answers.
  private strings = new Numbering();
  // The last string each column interned and its number (one pair per column: a column's lines repeat
  // theirs, the three columns do not repeat each other's).
  private readonly last = [
    { text: '', index: -1 },
    { text: '', index: -1 },
    { text: '', index: -1 },
  ];

  /** Adds a line whose context is number `context`, adding to its group's month sum `part`; its index. */
  add(l: StatementLine, context: number, part: number): number {
    // Never silently cut to 16 bits: the reader hands the chunk over when `full`.
    if (context > 0xffff || part > 0xffff)
      throw new Error('a chunk numbered more contexts or month parts than its columns hold');
    if (this.c.size === this.c.lineNo.length) this.grow();
    const g = this.c;
    const i = g.size;
    g.size = i + 1;
    g.context[i] = context;
    g.saleStart[i] = this.intern(l.saleStart, 0);
    g.saleEnd[i] = this.intern(l.saleEnd, 1);
    if (fitsUint32(l.lineNo) && fitsInt32(l.quantity) && fits(l.amountTxn) && fits(l.amountAcct)) {
      g.lineNo[i] = l.lineNo;
      g.quantity[i] = l.quantity;
      g.amountAcct[i] = Number(l.amountAcct);
      if (g.txnApart) g.amountTxn[i] = Number(l.amountTxn);
      else if (l.amountTxn !== l.amountAcct) {
        // The first line whose two amounts differ: the lines before it had the same in both.
        g.amountTxn.set(g.amountAcct.subarray(0, i));
        g.amountTxn[i] = Number(l.amountTxn);
        g.txnApart = true;
      }
    } else
      g.wide.set(i, {
        lineNo: l.lineNo,
        quantity: l.quantity,
        amountTxn: l.amountTxn,
        amountAcct: l.amountAcct,
      });
    g.adjustment[i] = this.intern(l.adjustmentType, 2);
    g.part[i] = part;
    g.nextOf[i] = -1;
    return i;
  }

  /** Line `i` comes after line `prev` in their group. */
  link(prev: number, i: number): void {
    this.c.nextOf[prev] = i;
  }

  /** Whether the chunk numbers as many dates and words as its columns hold: it must be handed over. */
  get full(): boolean {
    return this.strings.list.length >= MOST_NUMBERED;
  }

  /** Whether `take` can start the next chunk now (else wait for `spare`). */
  get free(): boolean {
    return this.pool.length > 0 || this.sets < SETS;
  }

  /** Hands the columns over and starts empty ones of the same size for the next chunk (see `free`). */
  take(): Columns {
    if (!this.free) throw new Error('no columns free: wait for the chunk handed over to come back');
    const taken = this.c;
    taken.strings = this.strings.list.slice();
    let next = this.pool.pop();
    if (next) {
      next.size = 0;
      next.txnApart = false;
      next.wide = new Map();
      next.strings = [];
    } else {
      next = empty(taken.lineNo.length);
      this.sets += 1;
    }
    this.c = next;
    // A file with ever new dates (one per line) must not grow the list without end.
    if (this.strings.list.length > 10_000) {
      this.strings = new Numbering();
      for (const last of this.last) last.index = -1;
    }
    return taken;
  }

  /** The columns of a chunk written, to fill again. */
  spare(columns: Columns): void {
    this.pool.push(columns);
  }

  private intern(text: string, column: number): number {
    const last = this.last[column]!;
    if (last.index !== -1 && text === last.text) return last.index;
    const i = this.strings.of(text);
    // Never silently cut to 16 bits: the reader hands the chunk over when `full`.
    if (i > 0xffff) throw new Error('a chunk numbered more dates and words than its columns hold');
    last.text = text;
    last.index = i;
    return i;
  }

  private grow(): void {
    const old = this.c;
    const size = old.lineNo.length;
    const wanted = Math.max(size * 2, old.size + this.linesAhead());
    const next = empty(size < this.limit ? Math.min(wanted, this.limit) : size * 2);
    next.size = old.size;
    next.wide = old.wide;
    next.txnApart = old.txnApart;
    for (const k of ARRAYS) if (k !== 'amountTxn' || old.txnApart) next[k].set(old[k]);
    this.c = next;
  }
}

let scratch = new Float64Array(16);

/**
 * Adds the USD amounts of a group's lines (from `first` on) by month part: `sums[k]` becomes part k's
 * (the first `parts` of `sums` are overwritten).
 */
export function sumAmounts(c: Columns, first: number, sums: bigint[], parts: number): void {
  // Numbers while their sum stays a safe integer (exact), handed to the bigint sum before it would not.
  if (scratch.length < parts) scratch = new Float64Array(parts * 2);
  const f = scratch;
  f.fill(0, 0, parts);
  sums.fill(0n, 0, parts);
  for (let i = first; i !== -1; i = c.nextOf[i]!) {
    const k = c.part[i]!;
    const wide = c.wide.size > 0 ? c.wide.get(i) : undefined;
    if (wide) {
      sums[k]! += wide.amountAcct;
      continue;
    }
    const a = c.amountAcct[i]!;
    if (Math.abs(f[k]!) + Math.abs(a) > Number.MAX_SAFE_INTEGER) {
      sums[k]! += BigInt(f[k]!);
      f[k] = 0;
    }
    f[k]! += a;
  }
  for (let k = 0; k < parts; k += 1) if (f[k] !== 0) sums[k]! += BigInt(f[k]!);
}

/**
 * The contexts a page's rows name, each once: read from the lines as their rows are written, rather than
 * listed per group by the reader (a list per recording in every chunk handed over, most of its objects).
 */
export class NamedContexts {
  private marks = new Int32Array(256);
  private stamp = 0;
  list: number[] = [];

  /** Starts a page of a chunk that numbers `count` contexts. */
  reset(count: number): void {
    if (this.marks.length < count) {
      this.marks = new Int32Array(count * 2);
      this.stamp = 0;
    }
    this.stamp += 1;
    if (this.stamp === 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 1;
    }
    this.list = [];
  }

  add(context: number): void {
    if (this.marks[context] === this.stamp) return;
    this.marks[context] = this.stamp;
    this.list.push(context);
  }
}

/** Writes the rows of a group whose first line is `first`, in order, noting the contexts they name. */
export function writeRows(c: Columns, rows: RowWriter, first: number, named: NamedContexts): void {
  const s = c.strings;
  let startBefore = '';
  let endBefore = '';
  for (let i = first; i !== -1; i = c.nextOf[i]!) {
    const wide = c.wide.size > 0 ? c.wide.get(i) : undefined;
    const saleStart = s[c.saleStart[i]!]!;
    const saleEnd = s[c.saleEnd[i]!]!;
    const context = c.context[i]!;
    named.add(context);
    rows.row(
      wide ? wide.lineNo : c.lineNo[i]!,
      context,
      saleStart,
      saleEnd,
      wide ? wide.quantity : c.quantity[i]!,
      wide ? wide.amountTxn : c.txnApart ? c.amountTxn[i]! : c.amountAcct[i]!,
      wide ? wide.amountAcct : c.amountAcct[i]!,
      s[c.adjustment[i]!]!,
      startBefore,
      endBefore,
    );
    startBefore = saleStart;
    endBefore = saleEnd;
  }
}
