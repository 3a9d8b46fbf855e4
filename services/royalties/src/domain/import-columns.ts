// A chunk's lines while it is being built, as columns: typed arrays reused chunk after chunk, the few
// dates and adjustment words as numbers into a list. The statement reader makes an object per line; kept
// until the chunk is handed over, those objects (or the cells of their text) were copied by every young
// collection and then promoted: half the reader's time was the collector's (bench:royalties, CPU profile).
// A line's fields here cost no object at all; its group's lines are linked through `next`, so a group's
// rows are written in file order when the chunk is taken (ledger-line.ts pushRowValues).
import type { MonthPart } from './import-chunk';
import { pushRowValues } from './ledger-line';
import type { StatementLine } from './statements/line';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const fits = (v: bigint) => v >= INT64_MIN && v <= INT64_MAX;

export class LineColumns {
  private capacity = 0;
  private size = 0;
  private lineNo = new Float64Array(0);
  private context = new Int32Array(0);
  private saleStart = new Int32Array(0);
  private saleEnd = new Int32Array(0);
  private quantity = new Float64Array(0);
  private amountTxn = new BigInt64Array(0);
  private amountAcct = new BigInt64Array(0);
  private adjustment = new Int32Array(0);
  /** Which of its group's month sums the line adds to. */
  private part = new Int32Array(0);
  /** The next line of the same group (-1: the last). */
  private nextOf = new Int32Array(0);
  /** Amounts beyond 64 bits (9.2 billion dollars in nano-units; no store sends one), by line. */
  private wide = new Map<number, [bigint, bigint]>();
  // Dates and adjustment words: a file has a few, and its lines share the very strings (the reader's
  // caches), so the last one seen nearly always answers.
  private strings: string[] = [];
  private stringIndex = new Map<string, number>();
  private lastString = '';
  private lastIndex = -1;

  /** Adds a line whose context is number `context`, adding to its group's month sum `part`; its index. */
  add(l: StatementLine, context: number, part: number): number {
    const i = this.size;
    if (i === this.capacity) this.grow();
    this.size = i + 1;
    this.lineNo[i] = l.lineNo;
    this.context[i] = context;
    this.saleStart[i] = this.intern(l.saleStart);
    this.saleEnd[i] = this.intern(l.saleEnd);
    this.quantity[i] = l.quantity;
    if (fits(l.amountTxn) && fits(l.amountAcct)) {
      this.amountTxn[i] = l.amountTxn;
      this.amountAcct[i] = l.amountAcct;
    } else this.wide.set(i, [l.amountTxn, l.amountAcct]);
    this.adjustment[i] = this.intern(l.adjustmentType);
    this.part[i] = part;
    this.nextOf[i] = -1;
    return i;
  }

  /** Line `i` comes after line `prev` in their group. */
  link(prev: number, i: number): void {
    this.nextOf[prev] = i;
  }

  /** Adds the USD amounts of a group's lines (from `first` on) into its month sums. */
  sumAmounts(first: number, parts: MonthPart[]): void {
    for (let i = first; i !== -1; i = this.nextOf[i]!) {
      const wide = this.wide.size > 0 ? this.wide.get(i) : undefined;
      parts[this.part[i]!]![4] += wide ? wide[1] : this.amountAcct[i]!;
    }
  }

  /** Pushes the rows of a group whose first line is `first`, in order. */
  pushRows(cells: Array<string | number | bigint>, first: number): void {
    const s = this.strings;
    for (let i = first; i !== -1; i = this.nextOf[i]!) {
      const wide = this.wide.size > 0 ? this.wide.get(i) : undefined;
      pushRowValues(
        cells,
        this.lineNo[i]!,
        this.context[i]!,
        s[this.saleStart[i]!]!,
        s[this.saleEnd[i]!]!,
        this.quantity[i]!,
        wide ? wide[0] : this.amountTxn[i]!,
        wide ? wide[1] : this.amountAcct[i]!,
        s[this.adjustment[i]!]!,
      );
    }
  }

  /** Empties the columns for the next chunk (their memory is kept). */
  clear(): void {
    this.size = 0;
    this.wide.clear();
    // A file with ever new dates (one per line) must not grow this without end.
    if (this.strings.length > 10_000) {
      this.strings = [];
      this.stringIndex.clear();
      this.lastString = '';
      this.lastIndex = -1;
    }
  }

  private intern(text: string): number {
    if (text === this.lastString && this.lastIndex !== -1) return this.lastIndex;
    let i = this.stringIndex.get(text);
    if (i === undefined) {
      i = this.strings.push(text) - 1;
      this.stringIndex.set(text, i);
    }
    this.lastString = text;
    this.lastIndex = i;
    return i;
  }

  private grow(): void {
    const capacity = Math.max(1024, this.capacity * 2);
    const grown = <T extends { set(a: T): void }>(old: T, make: (n: number) => T) => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.lineNo = grown(this.lineNo, (n) => new Float64Array(n));
    this.context = grown(this.context, (n) => new Int32Array(n));
    this.saleStart = grown(this.saleStart, (n) => new Int32Array(n));
    this.saleEnd = grown(this.saleEnd, (n) => new Int32Array(n));
    this.quantity = grown(this.quantity, (n) => new Float64Array(n));
    this.amountTxn = grown(this.amountTxn, (n) => new BigInt64Array(n));
    this.amountAcct = grown(this.amountAcct, (n) => new BigInt64Array(n));
    this.adjustment = grown(this.adjustment, (n) => new Int32Array(n));
    this.part = grown(this.part, (n) => new Int32Array(n));
    this.nextOf = grown(this.nextOf, (n) => new Int32Array(n));
    this.capacity = capacity;
  }
}
