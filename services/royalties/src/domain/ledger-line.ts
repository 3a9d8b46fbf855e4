// A statement line as the ledger keeps it: the store's words (statements/line.ts) plus whose it is. The
// ledger is append-only: a line is written once, in a chunk of its import, and never changed; a
// correction is a new line (the store's adjustment, or an admin attaching waiting lines later).
import { Buffer } from 'node:buffer';
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

// A page of lines at rest, one owner's. A document holding a thousand lines as text is written and read as
// one string (the documents port turns every document into JSON and back), where arrays of objects or of
// columns cost a JSON value per field. Fields end with DEL (U+007F) rather than tab and newline because
// JSON escapes every control character below U+0020, which takes JSON.stringify off its copying fast path.
//
// Layout 3 (written now) does not repeat what lines share. A statement is a few sale contexts (a store's
// summary: store, tier, territory, use, currencies, rate) over many recordings, each line adding only its
// date, quantity and money: a page keeps each context it uses once (`ctx`, numbered), each run of lines
// of one recording as reported once (`runs`: whose release and track, the store's codes, title and
// artist), and per line only its own fields (`rows`). A line is ~40 characters instead of ~200, and the
// import writes a fifth of the bytes (bench:royalties). Layouts 2 (every field per line, DEL after each)
// and 1 (tabs and newlines) are still read.
/** A sale context: what the lines of one store summary share. */
const CONTEXT = [
  'reportedAt',
  'store',
  'serviceTier',
  'territory',
  'usageType',
  'currencyTxn',
  'fxRate',
  'fxDate',
] as const;
/** A run: consecutive lines of one recording as the store reported it, and whose it is. */
const RUN = ['releaseId', 'trackId', 'isrc', 'upc', 'proprietaryIds', 'title', 'artist', 'lines'] as const;
/**
 * A line's own fields. '=' in saleEnd is "the same as saleStart", in amountTxn "the same as amountAcct";
 * '^' in saleStart or saleEnd is "the same as the line before in this run" (a recording's lines in a
 * statement share their period: the dates were half of a row).
 */
const ROW = [
  'lineNo',
  'context',
  'saleStart',
  'saleEnd',
  'quantity',
  'amountTxn',
  'amountAcct',
  'adjustmentType',
] as const;
const CTX_WIDTH = CONTEXT.length + 1;
const RUN_WIDTH = RUN.length;
const ROW_WIDTH = ROW.length;
const SAME = '=';
const AGAIN = '^';
const SAME_BYTE = 61;
const AGAIN_BYTE = 94;
const DEL_BYTE = 0x7f;

// Layout 2's fields, each line all of them.
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

export interface PackedLines {
  n: number;
  /** The fields' names, so a reader of an older page knows its layout. */
  fields: string;
  /**
   * 3: `ctx`, `runs` and `rows` as above. 2: DEL after every statement field of every line, `runs` as
   * release DEL track DEL count DEL. Absent: the first layout (tab between fields, newline between lines,
   * owner, release and track as the last three fields).
   */
  layout?: 2 | 3;
  owner?: string;
  /** Layout 3: the contexts, each as its number then CONTEXT's fields, DEL after each. */
  ctx?: string;
  runs?: string;
  rows: string;
}

const FIELD_NAMES = `ctx:index,${CONTEXT.join(',')};runs:${RUN.join(',')};rows:${ROW.join(',')}`;
const DEL = '\x7f';
/** Text a store wrote (titles, names, ids): a DEL or backslash in it is escaped; nearly none has one. */
const escapeText = (text: string) =>
  text.includes('\\') || text.includes(DEL) ? text.replace(/\\/g, '\\\\').replace(/\x7f/g, '\\d') : text;
const unescapeText = (text: string) =>
  text.includes('\\') ? text.replace(/\\(\\|d)/g, (_, c: string) => (c === 'd' ? DEL : '\\')) : text;

/** A line's sale context at rest (CONTEXT's fields, DEL after each). */
const contextText = (l: StatementLine) =>
  `${l.reportedAt}${DEL}${escapeText(l.store)}${DEL}${escapeText(l.serviceTier)}${DEL}${l.territory}${DEL}${l.usageType}${DEL}${l.currencyTxn}${DEL}${l.fxRate}${DEL}${l.fxDate}${DEL}`;

/** Whether two lines share their sale context (lines of one summary share the very strings). */
const sameContext = (a: StatementLine, b: StatementLine) =>
  a.store === b.store &&
  a.serviceTier === b.serviceTier &&
  a.territory === b.territory &&
  a.usageType === b.usageType &&
  a.reportedAt === b.reportedAt &&
  a.currencyTxn === b.currencyTxn &&
  a.fxRate === b.fxRate &&
  a.fxDate === b.fxDate;

/** Texts numbered in the order first seen: a chunk's sale contexts, its dates and adjustment words. */
export class Numbering {
  readonly list: string[] = [];
  private readonly numbers = new Map<string, number>();

  of(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.list.push(text) - 1;
      this.numbers.set(text, n);
    }
    return n;
  }
}

/**
 * Sale contexts numbered in the order first seen (contextText). A statement lists a summary's lines
 * together, so the last line's context nearly always answers without building its text.
 */
export class Contexts {
  private readonly numbering = new Numbering();
  private last: StatementLine | null = null;
  private lastNumber = -1;

  /** The contexts' texts by number. */
  get list(): string[] {
    return this.numbering.list;
  }

  of(l: StatementLine): number {
    if (this.last && sameContext(this.last, l)) return this.lastNumber;
    this.lastNumber = this.numbering.of(contextText(l));
    this.last = l;
    return this.lastNumber;
  }
}

/** What a line says of its recording. */
type Recording = Pick<StatementLine, 'isrc' | 'upc' | 'proprietaryIds' | 'title' | 'artist'>;

/** The recording as the line reports it at rest (RUN's isrc…artist, DEL after each). */
export const recordingText = (l: Recording) =>
  `${escapeText(l.isrc)}${DEL}${l.upc}${DEL}${l.proprietaryIds.length === 0 ? '' : escapeText(l.proprietaryIds.join('|'))}${DEL}${escapeText(l.title)}${DEL}${escapeText(l.artist)}${DEL}`;

/** Whether two lines report the same recording in the same words (one run can hold both). */
export function sameRecording(a: Recording, b: Recording): boolean {
  if (a.isrc !== b.isrc || a.upc !== b.upc || a.title !== b.title || a.artist !== b.artist) return false;
  const x = a.proprietaryIds;
  const y = b.proprietaryIds;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Writes rows (ROW's fields, DEL after each) as bytes and gives them as one text. A page's rows were an
 * array of cells joined once, which made a string of every number and amount first: a million lines made
 * millions of strings on the service's thread, most of its collector's work (bench:royalties).
 */
const utf8 = new TextEncoder();

export class RowWriter {
  private buf = new Uint8Array(1 << 16);
  private pos = 0;
  private ascii = true;
  private readonly digits = new Uint8Array(24);

  /**
   * One line's row: its context is number `context`; `startBefore` and `endBefore` are the dates of the
   * line before it in its run ('' for its first line). Amounts are nano-units, as numbers when they are
   * safe integers (an import's columns) or as bigints.
   */
  row(
    lineNo: number,
    context: number,
    saleStart: string,
    saleEnd: string,
    quantity: number,
    amountTxn: number | bigint,
    amountAcct: number | bigint,
    adjustmentType: string,
    startBefore: string,
    endBefore: string,
  ): void {
    this.room(128);
    this.int(lineNo);
    this.int(context);
    if (saleStart === startBefore) this.mark(AGAIN_BYTE);
    else this.text(saleStart);
    if (saleEnd === saleStart) this.mark(SAME_BYTE);
    else if (saleEnd === endBefore) this.mark(AGAIN_BYTE);
    else this.text(saleEnd);
    this.int(quantity);
    if (amountTxn === amountAcct) this.mark(SAME_BYTE);
    else this.amount(amountTxn);
    this.amount(amountAcct);
    this.text(adjustmentType === '' ? '' : escapeText(adjustmentType));
  }

  /** The rows written since the last call, as one text. */
  take(): string {
    const b = Buffer.from(this.buf.buffer, this.buf.byteOffset, this.pos);
    const text = b.toString(this.ascii ? 'latin1' : 'utf8');
    this.pos = 0;
    this.ascii = true;
    return text;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  private mark(byte: number): void {
    this.buf[this.pos] = byte;
    this.buf[this.pos + 1] = DEL_BYTE;
    this.pos += 2;
  }

  /** A safe integer's digits, then DEL. */
  private int(v: number): void {
    const buf = this.buf;
    let p = this.pos;
    if (v < 0) {
      buf[p++] = 45;
      v = -v;
    }
    // Below 2^31 in integer arithmetic; above, eight low digits at a time (float division is slow).
    let n = 0;
    while (v >= 0x7fffffff) {
      const high = Math.floor(v / 1e8);
      let low = v - high * 1e8;
      for (let k = 0; k < 8; k += 1) {
        const q = (low / 10) | 0;
        this.digits[n++] = 48 + low - q * 10;
        low = q;
      }
      v = high;
    }
    let w = v | 0;
    do {
      const q = (w / 10) | 0;
      this.digits[n++] = 48 + w - q * 10;
      w = q;
    } while (w > 0);
    while (n > 0) buf[p++] = this.digits[--n]!;
    buf[p++] = DEL_BYTE;
    this.pos = p;
  }

  private amount(v: number | bigint): void {
    if (typeof v === 'number') this.int(v);
    else this.text(v.toString());
  }

  /** Text then DEL; ASCII byte by byte, anything else as UTF-8. */
  private text(t: string): void {
    this.room(t.length * 3 + 1);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < t.length; i += 1) {
      const c = t.charCodeAt(i);
      if (c >= 0x80) {
        this.ascii = false;
        p = this.pos + utf8.encodeInto(t, buf.subarray(this.pos)).written;
        break;
      }
      buf[p++] = c;
    }
    buf[p++] = DEL_BYTE;
    this.pos = p;
  }
}

/** A run of a page: how many of the page's rows (in order) are its lines, their recording and whose. */
export interface PageRun {
  releaseId: string;
  trackId: string;
  /** recordingText of its lines. */
  recording: string;
  n: number;
}

/**
 * A page from its runs and their rows (RowWriter, in the runs' order); `contexts` are the contexts' texts by
 * number (contextText), `used` the numbers the rows refer to.
 */
export function packRuns(
  owner: string,
  runs: readonly PageRun[],
  rows: string,
  contexts: readonly string[],
  used: Iterable<number>,
): PackedLines {
  let n = 0;
  let runText = '';
  for (const r of runs) {
    n += r.n;
    runText += `${escapeText(r.releaseId)}${DEL}${escapeText(r.trackId)}${DEL}${r.recording}${r.n}${DEL}`;
  }
  let ctx = '';
  for (const i of [...used].sort((a, b) => a - b)) ctx += `${i}${DEL}${contexts[i]}`;
  return { n, fields: FIELD_NAMES, layout: 3, owner, ctx, runs: runText, rows };
}

/** One owner's lines as a page (all must be `owner`'s). */
export function packLines(owner: string, lines: readonly LedgerLine[]): PackedLines {
  const contexts = new Contexts();
  const runs: PageRun[] = [];
  const rows = new RowWriter();
  let first: LedgerLine | null = null;
  let inRun = 0;
  let before: LedgerLine | null = null;
  const close = () => {
    if (!first) return;
    runs.push({
      releaseId: first.releaseId,
      trackId: first.trackId,
      recording: recordingText(first),
      n: inRun,
    });
    inRun = 0;
  };
  for (const l of lines) {
    const context = contexts.of(l);
    if (
      !first ||
      first.releaseId !== l.releaseId ||
      first.trackId !== l.trackId ||
      !sameRecording(first, l)
    ) {
      close();
      first = l;
      before = null;
    }
    rows.row(
      l.lineNo,
      context,
      l.saleStart,
      l.saleEnd,
      l.quantity,
      l.amountTxn,
      l.amountAcct,
      l.adjustmentType,
      before?.saleStart ?? '',
      before?.saleEnd ?? '',
    );
    inRun += 1;
    before = l;
  }
  close();
  return packRuns(owner, runs, rows.take(), contexts.list, contexts.list.keys());
}

/** Reads `n` lines of layout 3 from `rows` at `at` (cells), given their recording's cells at `rec`. */
function readRows(
  out: StatementLine[],
  rows: readonly string[],
  at: number,
  n: number,
  contextOf: (i: number) => readonly string[],
  rec: readonly string[],
  r: number,
): void {
  const isrc = unescapeText(rec[r]!);
  const upc = rec[r + 1]!;
  const ids = unescapeText(rec[r + 2]!);
  const title = unescapeText(rec[r + 3]!);
  const artist = unescapeText(rec[r + 4]!);
  let startBefore = '';
  let endBefore = '';
  for (let k = 0; k < n; k += 1, at += ROW_WIDTH) {
    const c = contextOf(Number(rows[at + 1]));
    const start = rows[at + 2]!;
    const saleStart = start === AGAIN ? startBefore : start;
    const end = rows[at + 3]!;
    const saleEnd = end === SAME ? saleStart : end === AGAIN ? endBefore : end;
    startBefore = saleStart;
    endBefore = saleEnd;
    const amountAcct = BigInt(rows[at + 6]!);
    const amountTxn = rows[at + 5]!;
    out.push({
      lineNo: Number(rows[at]),
      saleStart,
      saleEnd,
      reportedAt: c[0]!,
      store: c[1]!,
      serviceTier: c[2]!,
      territory: c[3]!,
      usageType: c[4] as StatementLine['usageType'],
      isrc,
      upc,
      proprietaryIds: ids ? ids.split('|') : [],
      title,
      artist,
      quantity: Number(rows[at + 4]),
      amountTxn: amountTxn === SAME ? amountAcct : BigInt(amountTxn),
      currencyTxn: c[5]!,
      amountAcct,
      fxRate: c[6]!,
      fxDate: c[7]!,
      adjustmentType: unescapeText(rows[at + 7]!),
    });
  }
}

/** A context's fields (CONTEXT's order, as contextText wrote them) with its text fields unescaped. */
function plainContext(c: string[]): string[] {
  c[1] = unescapeText(c[1]!);
  c[2] = unescapeText(c[2]!);
  return c;
}

/**
 * The statement lines of one recording's rows (RowWriter) with the contexts they name (texts, by
 * number): the lines of a chunk no recording matched.
 */
export function statementLinesOf(
  recording: string,
  rows: string,
  contexts: readonly string[],
): StatementLine[] {
  const cells = new Map<number, string[]>();
  const contextOf = (i: number) => {
    const known = cells.get(i);
    if (known) return known;
    const c = plainContext(contexts[i]!.split(DEL));
    cells.set(i, c);
    return c;
  };
  const r = rows.split(DEL);
  const out: StatementLine[] = [];
  readRows(out, r, 0, Math.floor(r.length / ROW_WIDTH), contextOf, recording.split(DEL), 0);
  return out;
}

function unpackLayout3(p: PackedLines): LedgerLine[] {
  const contexts = new Map<number, string[]>();
  const c = (p.ctx ?? '').split(DEL);
  for (let i = 0; i + CTX_WIDTH <= c.length; i += CTX_WIDTH) {
    contexts.set(Number(c[i]), plainContext(c.slice(i + 1, i + CTX_WIDTH)));
  }
  const contextOf = (i: number) => {
    const found = contexts.get(i);
    if (!found) throw new Error(`a ledger page names context ${i}, which it does not hold`);
    return found;
  };
  const runs = (p.runs ?? '').split(DEL);
  const rows = p.rows.split(DEL);
  const out: LedgerLine[] = [];
  let at = 0;
  for (let r = 0; r + RUN_WIDTH <= runs.length; r += RUN_WIDTH) {
    const n = Number(runs[r + 7]);
    const from = out.length;
    readRows(out, rows, at, n, contextOf, runs, r + 2);
    at += n * ROW_WIDTH;
    const releaseId = unescapeText(runs[r]!);
    const trackId = unescapeText(runs[r + 1]!);
    for (let i = from; i < out.length; i += 1)
      Object.assign(out[i]!, { ownerId: p.owner!, releaseId, trackId });
  }
  return out as LedgerLine[];
}

// Layout 2: every statement field of every line, DEL after each; runs as release DEL track DEL count DEL.
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

function runsOf(text: string): Array<[string, string, number]> {
  const c = text.split(DEL);
  const out: Array<[string, string, number]> = [];
  for (let i = 0; i + 3 <= c.length; i += 3) out.push([c[i]!, c[i + 1]!, Number(c[i + 2])]);
  return out;
}

function layout2Lines(rows: string): StatementLine[] {
  const c = rows.split(DEL);
  const out: StatementLine[] = [];
  for (let at = 0; at + WIDTH <= c.length; at += WIDTH) out.push(statementLine(c, at, unescapeText));
  return out;
}

export function unpackLines(p: PackedLines): LedgerLine[] {
  if (p.n === 0) return [];
  if (p.layout === 3) return unpackLayout3(p);
  const out: LedgerLine[] = [];
  if (p.layout === 2) {
    const lines = layout2Lines(p.rows);
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
