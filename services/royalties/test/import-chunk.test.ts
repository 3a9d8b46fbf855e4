// A chunk as the statement reader hands it over: every line comes back from its group's rows exactly as it
// was read (contexts, codes, words, money beyond 64 bits), grouped by the recording as reported, with sums
// that are the lines' sums.
import {
  ChunkBuilder,
  groupLines,
  type ImportChunk,
  type PartSum,
  type RecordingText,
  settleGroup,
} from '../src/domain/import-chunk';
import type { StatementLine } from '../src/domain/statements/line';
import { aStatementLine } from './support/statements';

// A day's streams in US dollars, its period one day.
const line = (lineNo: number, over: Partial<StatementLine> = {}): StatementLine =>
  aStatementLine({
    lineNo,
    saleEnd: '2026-09-01',
    proprietaryIds: ['omni:track:1'],
    quantity: 10,
    amountTxn: 30_000_000n,
    currencyTxn: 'USD',
    amountAcct: 30_000_000n,
    fxRate: '1',
    fxDate: '',
    adjustmentType: '',
    ...over,
  });

/** The recordings' texts by number, as the import's thread keeps them from chunk to chunk. */
class Recordings {
  texts: RecordingText[] = [];
  add(chunk: ImportChunk): ImportChunk {
    if (chunk.recordingsFrom === 0) this.texts = [];
    expect(chunk.recordingsFrom).toBe(this.texts.length);
    this.texts.push(...chunk.recordings);
    return chunk;
  }
}

const groupsOf = (chunk: ImportChunk) => Array.from({ length: chunk.groups.count }, (_, g) => g);
/** Every line of the chunk, group after group, its recordings' texts from `table` (kept from the first chunk). */
const linesOf = (chunk: ImportChunk, table: Recordings) =>
  groupsOf(chunk).flatMap((g) => groupLines(chunk, g, table.texts[chunk.groups.rec[g]!]!.recording));
const byLineNo = (a: StatementLine, b: StatementLine) => a.lineNo - b.lineNo;
const chunkSum = (chunk: ImportChunk) => groupsOf(chunk).reduce((s, g) => s + settleGroup(chunk, g), 0n);

describe('a statement chunk', () => {
  const lines = [
    line(2),
    line(3, { isrc: 'QZOMN2600002', title: 'Second \x7f song \\ here', quantity: 4 }),
    line(4, {
      territory: 'DE',
      currencyTxn: 'EUR',
      amountTxn: 25_000_000n,
      fxRate: '1.2',
      fxDate: '2026-09-30',
    }),
    line(5, {
      isrc: '',
      upc: '190000000009',
      title: 'Whole release',
      proprietaryIds: [],
      quantity: -2,
      // A return past 2^31 nano-dollars: the rows' digits are written in two parts.
      amountTxn: -4_000_000_007n,
      amountAcct: -4_000_000_007n,
    }),
    line(6, {
      saleEnd: '2026-09-30',
      adjustmentType: 'spam_deduction',
      amountAcct: -(10n ** 20n),
      amountTxn: -(10n ** 20n),
    }),
    line(7, { title: 'Night Drive (Remastered)' }),
    line(8, {
      store: 'Tidal',
      serviceTier: '',
      usageType: 'download',
      saleStart: '2026-08-01',
      saleEnd: '2026-08-31',
    }),
  ];

  it('gives every line back from its group, grouped by the recording as the store wrote it', () => {
    const builder = new ChunkBuilder();
    for (const l of lines) builder.add({ kind: 'line', line: l });
    builder.add({ kind: 'refused', lineNo: 9, reason: 'bad', amountAcct: 5n });
    expect(builder.size).toBe(8);
    const table = new Recordings();
    const chunk = table.add(builder.take());
    expect(chunk.lastLineNo).toBe(9);
    expect(chunk.lines).toBe(7);
    expect(chunk.refused).toEqual([{ lineNo: 9, reason: 'bad', amountAcct: 5n }]);
    expect(linesOf(chunk, table).sort(byLineNo)).toEqual(lines);
    // By ISRC as first seen: lines 2, 4, 6 and 8 report one recording in the same words; 7 retitles it,
    // so it is a run of its own.
    expect(
      groupsOf(chunk).map((g) => {
        const r = table.texts[chunk.groups.rec[g]!]!;
        return [r.isrc, r.upc, chunk.groups.n[g]];
      }),
    ).toEqual([
      ['QZOMN2600001', '190000000001', 4],
      ['QZOMN2600002', '190000000001', 1],
      ['', '190000000009', 1],
      ['QZOMN2600001', '190000000001', 1],
    ]);
    expect(chunkSum(chunk)).toBe(lines.reduce((s, l) => s + l.amountAcct, 0n));
    expect(groupsOf(chunk).map((g) => settleGroup(chunk, g))).toEqual([
      30_000_000n * 3n - 10n ** 20n,
      30_000_000n,
      -4_000_000_007n,
      30_000_000n,
    ]);
    const months: PartSum[] = [];
    settleGroup(chunk, 0, (m) => months.push(m));
    expect(months).toEqual([
      {
        saleMonth: '2026-09',
        reportMonth: '2026-11',
        streams: 30,
        quantity: 30,
        amount: 60_000_000n - 10n ** 20n,
      },
      { saleMonth: '2026-08', reportMonth: '2026-11', streams: 0, quantity: 10, amount: 30_000_000n },
    ]);
    expect([chunk.saleStart, chunk.saleEnd, chunk.reportedAt]).toEqual([
      '2026-08-01',
      '2026-09-30',
      '2026-11-15',
    ]);
  });

  it('sends a recording once per file and names it by number in the chunks after', () => {
    const builder = new ChunkBuilder();
    const table = new Recordings();
    for (const l of lines) builder.add({ kind: 'line', line: l });
    const first = table.add(builder.take());
    expect(first.recordingsFrom).toBe(0);
    expect(first.recordings).toHaveLength(4);
    builder.spare(first.columns);
    const again = [
      line(20, { isrc: 'QZOMN2600002', title: 'Second \x7f song \\ here' }),
      line(21, { isrc: 'QZOMN2600003' }),
    ];
    for (const l of again) builder.add({ kind: 'line', line: l });
    const second = table.add(builder.take());
    // Only the recording not reported before is sent; the other is named by its number.
    expect(second.recordingsFrom).toBe(4);
    expect(second.recordings.map((r) => r.isrc)).toEqual(['QZOMN2600003']);
    expect(Array.from(second.groups.rec)).toEqual([1, 4]);
    expect(linesOf(second, table)).toEqual(again);
  });

  it('starts its table of recordings afresh past the most it keeps, and says so', () => {
    const builder = new ChunkBuilder(2);
    const table = new Recordings();
    const isrcs = ['QZOMN2600001', 'QZOMN2600002', 'QZOMN2600003'];
    for (const [n, isrc] of isrcs.entries()) builder.add({ kind: 'line', line: line(n + 2, { isrc }) });
    const first = table.add(builder.take());
    expect(first.recordings).toHaveLength(3);
    builder.spare(first.columns);
    // Three kept is past two: the next chunk numbers from 0 again and sends every recording it names.
    const again = [line(10, { isrc: 'QZOMN2600002' }), line(11, { isrc: 'QZOMN2600004' })];
    for (const l of again) builder.add({ kind: 'line', line: l });
    const second = table.add(builder.take());
    expect(second.recordingsFrom).toBe(0);
    expect(second.recordings.map((r) => r.isrc)).toEqual(['QZOMN2600002', 'QZOMN2600004']);
    expect(linesOf(second, table)).toEqual(again);
  });

  it('adds up amounts past what a number holds exactly, to the nano', () => {
    const big = BigInt(Number.MAX_SAFE_INTEGER) - 1n;
    const many = [
      line(2, { amountAcct: big, amountTxn: big }),
      line(3, { amountAcct: big, amountTxn: big }),
      line(4, { amountAcct: 7n, amountTxn: 7n }),
    ];
    const builder = new ChunkBuilder();
    for (const l of many) builder.add({ kind: 'line', line: l });
    const table = new Recordings();
    const chunk = table.add(builder.take());
    expect(chunkSum(chunk)).toBe(big * 2n + 7n);
    expect(linesOf(chunk, table)).toEqual(many);
  });

  it('keeps line numbers, quantities and amounts past what their columns hold, exactly', () => {
    const odd = [
      line(2, { quantity: 2 ** 31 }),
      line(2 ** 32 + 5, { quantity: -(2 ** 31) - 1 }),
      line(2 ** 40, { amountTxn: 2n ** 70n, amountAcct: -(2n ** 70n) }),
      line(2 ** 40 + 1, { quantity: -3, amountTxn: -5n, amountAcct: -5n }),
    ];
    const builder = new ChunkBuilder();
    for (const l of odd) builder.add({ kind: 'line', line: l });
    const table = new Recordings();
    const chunk = table.add(builder.take());
    expect(linesOf(chunk, table)).toEqual(odd);
    expect(chunkSum(chunk)).toBe(odd.reduce((s, l) => s + l.amountAcct, 0n));
  });

  it('is full before it numbers more dates and words than its columns hold, and loses none of them', () => {
    const builder = new ChunkBuilder();
    const words: StatementLine[] = [];
    for (let n = 1; !builder.full; n += 1) {
      const l = line(n, { adjustmentType: `adjustment ${n}` });
      words.push(l);
      builder.add({ kind: 'line', line: l });
    }
    // Three strings a line at most (sale start, sale end, adjustment): 16-bit numbers hold them all.
    expect(words.length).toBeGreaterThan(60_000);
    expect(words.length).toBeLessThan(65_536);
    const table = new Recordings();
    const chunk = table.add(builder.take());
    expect(linesOf(chunk, table).sort(byLineNo)).toEqual(words);
    builder.spare(chunk.columns);
    expect(builder.full).toBe(false);
  });

  it('is full before it numbers more contexts or month parts than its columns hold, and loses none', () => {
    // A context per line (a store of its own each), then a group with a month part per line.
    for (const vary of [
      (n: number) => ({ store: `store ${n}` }),
      (n: number) => ({
        saleStart: `${1000 + (n % 9000)}-01-01`,
        reportedAt: `${1000 + Math.floor(n / 9000)}-01-01`,
      }),
    ]) {
      const builder = new ChunkBuilder();
      const many: StatementLine[] = [];
      for (let n = 1; !builder.full; n += 1) {
        const l = line(n, vary(n));
        many.push(l);
        builder.add({ kind: 'line', line: l });
      }
      expect(many.length).toBeGreaterThan(60_000);
      expect(many.length).toBeLessThan(65_536);
      const table = new Recordings();
      const chunk = table.add(builder.take());
      expect(linesOf(chunk, table).sort(byLineNo)).toEqual(many);
      expect(chunkSum(chunk)).toBe(many.reduce((sum, l) => sum + l.amountAcct, 0n));
    }
  });

  it('keeps amounts in the sale currency apart only from the first line whose differ, exactly', () => {
    const same = [line(1), line(2, { amountTxn: 7n, amountAcct: 7n })];
    const mixed = [
      line(11),
      line(12, { currencyTxn: 'EUR', fxRate: '1.25', amountTxn: 24_000_000n, amountAcct: 30_000_000n }),
      line(13, { amountTxn: 9n, amountAcct: 9n }),
    ];
    const builder = new ChunkBuilder();
    const table = new Recordings();
    for (const l of same) builder.add({ kind: 'line', line: l });
    const first = table.add(builder.take());
    // USD only: the column of amounts in the sale's currency was never written.
    expect(first.columns.txnApart).toBe(false);
    expect(first.columns.amountTxn.every((v) => v === 0)).toBe(true);
    expect(linesOf(first, table).sort(byLineNo)).toEqual(same);
    builder.spare(first.columns);
    for (const l of mixed) builder.add({ kind: 'line', line: l });
    const second = table.add(builder.take());
    expect(second.columns.txnApart).toBe(true);
    expect(linesOf(second, table).sort(byLineNo)).toEqual(mixed);
    // Filled again, the second's columns keep the amounts together until a line's differ.
    builder.spare(second.columns);
    builder.add({ kind: 'line', line: line(30) });
    builder.spare(table.add(builder.take()).columns);
    builder.add({ kind: 'line', line: line(40) });
    const fourth = table.add(builder.take());
    expect(fourth.columns).toBe(second.columns);
    expect(fourth.columns.txnApart).toBe(false);
    expect(linesOf(fourth, table)).toEqual([line(40)]);
  });

  it("counts a recording's months afresh in every chunk, nothing of the chunk before left in them", () => {
    const builder = new ChunkBuilder();
    const table = new Recordings();
    const monthsOf = (chunk: ImportChunk) => {
      const months: PartSum[] = [];
      settleGroup(chunk, 0, (m) => months.push(m));
      return months;
    };
    // Two months, then one other, then one of the first two again: each chunk's sums are its own lines'.
    const sep = { saleStart: '2026-09-01', saleEnd: '2026-09-30', reportedAt: '2026-11-15' };
    const oct = { saleStart: '2026-10-01', saleEnd: '2026-10-31', reportedAt: '2026-11-15' };
    const nov = { saleStart: '2026-11-01', saleEnd: '2026-11-30', reportedAt: '2026-12-15' };
    for (const l of [line(1, sep), line(2, oct), line(3, sep)]) builder.add({ kind: 'line', line: l });
    const first = table.add(builder.take());
    expect(monthsOf(first).map((m) => [m.saleMonth, m.quantity, m.amount])).toEqual([
      ['2026-09', 20, 60_000_000n],
      ['2026-10', 10, 30_000_000n],
    ]);
    builder.spare(first.columns);
    builder.add({ kind: 'line', line: line(4, { ...nov, quantity: 4, amountAcct: 7n, amountTxn: 7n }) });
    const second = table.add(builder.take());
    expect(monthsOf(second)).toEqual([
      { saleMonth: '2026-11', reportMonth: '2026-12', streams: 4, quantity: 4, amount: 7n },
    ]);
    builder.spare(second.columns);
    builder.add({ kind: 'line', line: line(5, { ...oct, quantity: 2, amountAcct: 5n, amountTxn: 5n }) });
    builder.add({ kind: 'line', line: line(6, { ...nov, quantity: 1, amountAcct: 1n, amountTxn: 1n }) });
    const third = table.add(builder.take());
    expect(monthsOf(third).map((m) => [m.saleMonth, m.reportMonth, m.quantity, m.amount])).toEqual([
      ['2026-10', '2026-11', 2, 5n],
      ['2026-11', '2026-12', 1, 1n],
    ]);
    expect(third.groups.partsAt[1]).toBe(2);
  });

  it('starts the next chunk empty, its contexts numbered afresh', () => {
    const builder = new ChunkBuilder();
    const table = new Recordings();
    for (const l of lines) builder.add({ kind: 'line', line: l });
    builder.spare(table.add(builder.take()).columns);
    builder.add({ kind: 'line', line: line(20, { territory: 'FR' }) });
    const next = table.add(builder.take());
    expect(next.contexts).toHaveLength(1);
    expect(linesOf(next, table)).toEqual([line(20, { territory: 'FR' })]);
  });

  it('hands a chunk over only once the one before it came back, and fills its columns afresh', () => {
    const builder = new ChunkBuilder();
    const table = new Recordings();
    for (const l of lines) builder.add({ kind: 'line', line: l });
    const first = table.add(builder.take());
    const firstLines = linesOf(first, table).sort(byLineNo);
    builder.add({ kind: 'line', line: line(20, { territory: 'FR' }) });
    // One set of columns is being written, one filled: a third chunk waits for the first to come back.
    expect(builder.free).toBe(false);
    expect(() => builder.take()).toThrow('wait for the chunk handed over to come back');
    builder.spare(first.columns);
    expect(builder.free).toBe(true);
    const second = table.add(builder.take());
    expect(linesOf(second, table)).toEqual([line(20, { territory: 'FR' })]);
    // The next chunk is being filled in the first's columns: nothing of the first's lines is left in it.
    builder.add({ kind: 'line', line: line(21, { territory: 'DE', quantity: 3 }) });
    builder.spare(second.columns);
    const third = table.add(builder.take());
    expect(third.columns).toBe(first.columns);
    expect(linesOf(third, table)).toEqual([line(21, { territory: 'DE', quantity: 3 })]);
    expect(firstLines).toEqual(lines);
  });

  it('grows its columns at once to the lines the file is said to hold still, and keeps them', () => {
    const builder = new ChunkBuilder();
    const table = new Recordings();
    let ahead = 5_000;
    builder.expect(10_000, () => ahead);
    const many = Array.from({ length: 2_500 }, (_, i) => line(i + 1, { quantity: i }));
    for (const l of many) builder.add({ kind: 'line', line: l });
    const chunk = table.add(builder.take());
    // Past its first 1,024 lines, grown once to hold the 5,000 said to come (not to 2,048, then 4,096).
    expect(chunk.columns.lineNo.length).toBe(1_024 + 5_000);
    expect(linesOf(chunk, table).sort(byLineNo)).toEqual(many);

    // A file said to hold few more lines still doubles (an estimate that errs low costs no more copies).
    const small = new ChunkBuilder();
    ahead = 10;
    small.expect(100_000, () => ahead);
    for (const l of many) small.add({ kind: 'line', line: l });
    expect(small.take().columns.lineNo.length).toBe(4_096);
  });
});
