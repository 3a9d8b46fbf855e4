// The earnings ledger: statement lines with whose they are, append-only, in pages per owner. The only
// writer of `ledger_pages` and of the month sums folded from them (`earnings_months`).
//
// An import writes its matched lines as they are read, one page per owner per chunk, in the chunk's
// transaction (a crash resumes after the last chunk). Those pages are not the ledger yet: a page counts
// once its import has published its chunk (the import's `published` cursor; every chunk once the import
// is done). Publishing a run of chunks folds their pages into the month sums and moves the cursor, in one
// transaction: every line is counted once or not at all, nobody's figures move while a file is read, and
// a file refused at its end has its pages removed whole. Pages per owner because every reader reads one
// owner's lines (their analytics, their statement, their balance); a statement's lines are already sums
// per track, store and territory, so finer rollups would be as large as the ledger and rewritten by
// every file.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import {
  type LedgerLine,
  type PackedLines,
  packLines,
  saleMonthOf,
  unpackLines,
} from '../domain/ledger-line';
import { addSum, emptyFold, type Folded, foldLines, type MonthSum } from '../domain/rollups';

export const PAGES = 'ledger_pages';
export const MONTHS = 'earnings_months';
/** A staged chunk's month sums, folded as its lines were written, so publishing it reads no page. */
export const CHUNK_SUMS = 'ledger_chunk_sums';

export interface PageDoc extends Doc {
  ownerId: string;
  importId: string;
  /** The import's chunk the lines came in; -1 for lines an admin attached later (in the ledger at once). */
  seq: number;
  /** The sale months its lines fall in (a reader wanting a range skips the others' pages; not indexed:
   * an owner's pages are read together, and a multikey index cost a tenth of an import's time). */
  saleMonths: string[];
  lines: PackedLines;
  createdAt: string;
}

/** One owner's lines of a chunk, packed, with the sale months they fall in (sorted). */
export interface OwnerPage {
  ownerId: string;
  saleMonths: string[];
  lines: PackedLines;
}

/** Lines → one page per owner. */
export function pagesOf(lines: readonly LedgerLine[]): OwnerPage[] {
  const byOwner = new Map<string, LedgerLine[]>();
  for (const line of lines) {
    const list = byOwner.get(line.ownerId);
    if (list) list.push(line);
    else byOwner.set(line.ownerId, [line]);
  }
  return [...byOwner].map(([ownerId, own]) => ({
    ownerId,
    saleMonths: [...new Set(own.map(saleMonthOf))].sort(),
    lines: packLines(ownerId, own),
  }));
}

export type MonthDoc = Omit<MonthSum, 'amount'> & Doc & { amount: string; updatedAt: string };

/** A month sum at rest (objects, not arrays: FerretDB stores no arrays inside arrays). */
interface SumRow {
  o: string;
  s: string;
  r: string;
  st: number;
  q: number;
  a: string;
}
interface ChunkSumsDoc extends Doc {
  importId: string;
  seq: number;
  months: SumRow[];
}

/** How many chunks of each import are published (Infinity-like once done). */
export type PublishedOf = (importIds: readonly string[]) => Promise<Map<string, number>>;

const pad = (seq: number) => String(seq).padStart(7, '0');
const PAGES_PER_WRITE = 50;

export class LedgerRepository {
  readonly pages;
  readonly months;

  constructor(
    store: DocumentStore,
    private readonly publishedOf: PublishedOf,
  ) {
    this.pages = store.collection<PageDoc>(PAGES, {
      indexes: [{ fields: { ownerId: 1 } }, { fields: { importId: 1, seq: 1 } }],
    });
    this.months = store.collection<MonthDoc>(MONTHS, { indexes: [{ fields: { ownerId: 1 } }] });
    store.collection<ChunkSumsDoc>(CHUNK_SUMS, { indexes: [{ fields: { importId: 1, seq: 1 } }] });
  }

  /**
   * Writes a chunk's matched lines, one page per owner, and their month sums, in the chunk's transaction
   * (not counted yet).
   */
  stage(scope: TransactionScope, importId: string, seq: number, lines: readonly LedgerLine[]) {
    return this.stagePages(scope, importId, seq, pagesOf(lines), foldLines(lines));
  }

  /** The same, for pages already packed (an import packs them from its reader's columns), one by one. */
  async stagePages(
    scope: TransactionScope,
    importId: string,
    seq: number,
    pages: Iterable<OwnerPage>,
    sums: Folded,
  ) {
    await this.writePages(scope, `${importId}:${pad(seq)}`, importId, seq, pages);
    const months: SumRow[] = [];
    for (const m of sums.months.values())
      months.push({
        o: m.ownerId,
        s: m.saleMonth,
        r: m.reportMonth,
        st: m.streams,
        q: m.quantity,
        a: m.amount.toString(),
      });
    await scope
      .collection<ChunkSumsDoc>(CHUNK_SUMS)
      .insertOne({ _id: `${importId}:${pad(seq)}`, importId, seq, months });
  }

  /**
   * Adds the month sums of the import's chunks [from, to) to the owners' months; the caller moves the
   * cursor in the same transaction. A chunk staged before its sums were kept (a file being read while
   * Omni was upgraded) is folded from its pages.
   */
  async publish(scope: TransactionScope, importId: string, from: number, to: number): Promise<void> {
    const range = { importId, seq: { $gte: from, $lt: to } };
    const chunks = await scope.collection<ChunkSumsDoc>(CHUNK_SUMS).find(range);
    const folded = emptyFold();
    for (const chunk of chunks)
      for (const m of chunk.months)
        addSum(folded, {
          ownerId: m.o,
          saleMonth: m.s,
          reportMonth: m.r,
          streams: m.st,
          quantity: m.q,
          amount: BigInt(m.a),
        });
    const summed = new Set(chunks.map((c) => c.seq));
    if (summed.size < to - from)
      for (const page of await scope.collection<PageDoc>(PAGES).find(range))
        if (!summed.has(page.seq)) foldLines(unpackLines(page.lines), folded);
    await this.addMonths(scope, folded);
  }

  /** Appends lines straight into the ledger (an admin attaching waiting lines to a recording). */
  async append(scope: TransactionScope, importId: string, key: string, lines: readonly LedgerLine[]) {
    await this.writePages(scope, `${importId}:${key}`, importId, -1, pagesOf(lines));
    await this.addMonths(scope, foldLines(lines));
  }

  /** Removes a refused import's pages and sums (none of which was ever counted). */
  async discardStaged(scope: TransactionScope, importId: string) {
    await scope.collection<PageDoc>(PAGES).deleteMany({ importId });
    await scope.collection<ChunkSumsDoc>(CHUNK_SUMS).deleteMany({ importId });
  }

  private async writePages(
    scope: TransactionScope,
    prefix: string,
    importId: string,
    seq: number,
    pages: Iterable<OwnerPage>,
  ) {
    const now = new Date().toISOString();
    const doc = (p: OwnerPage): PageDoc => ({
      _id: `${prefix}:${p.ownerId}`,
      ownerId: p.ownerId,
      importId,
      seq,
      saleMonths: p.saleMonths,
      lines: p.lines,
      createdAt: now,
    });
    const collection = scope.collection<PageDoc>(PAGES);
    // A few dozen at a time: pages built as they are written are dropped soon after, and each write is
    // a savepoint of its own (one per page cost a tenth of an import's time).
    let batch: PageDoc[] = [];
    for (const p of pages) {
      batch.push(doc(p));
      if (batch.length === PAGES_PER_WRITE) {
        await collection.insertMany(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await collection.insertMany(batch);
  }

  private async addMonths(scope: TransactionScope, folded: Folded) {
    const now = new Date().toISOString();
    const months = scope.collection<MonthDoc>(MONTHS);
    const ids = [...folded.months.keys()];
    const rows = new Map<string, MonthDoc>();
    for (let i = 0; i < ids.length; i += 500)
      for (const d of await months.find({ _id: { $in: ids.slice(i, i + 500) } })) rows.set(d._id, d);
    const fresh: MonthDoc[] = [];
    for (const [id, sum] of folded.months) {
      const row = rows.get(id);
      if (!row) fresh.push({ ...sum, _id: id, amount: sum.amount.toString(), updatedAt: now });
      else
        await months.updateOne(
          { _id: id },
          {
            $set: {
              amount: (BigInt(row.amount) + sum.amount).toString(),
              streams: row.streams + sum.streams,
              quantity: row.quantity + sum.quantity,
              updatedAt: now,
            },
          },
        );
    }
    if (fresh.length) await months.insertMany(fresh);
  }

  monthsOf(ownerId: string) {
    return this.months.find({ ownerId });
  }

  /** The counted pages among these (their import has published their chunk). */
  private async counted(pages: PageDoc[]): Promise<PageDoc[]> {
    const cursors = await this.publishedOf([...new Set(pages.map((p) => p.importId))]);
    return pages.filter((p) => p.seq < (cursors.get(p.importId) ?? 0));
  }

  /** The owner's ledger lines, optionally only sale months from..to (YYYY-MM, inclusive). */
  async *linesOf(
    ownerId: string,
    from?: string,
    to?: string,
  ): AsyncGenerator<LedgerLine & { importedAt: string }> {
    for (const page of await this.counted(await this.pages.find({ ownerId }))) {
      if ((from && page.saleMonths.at(-1)! < from) || (to && page.saleMonths[0]! > to)) continue;
      for (const line of unpackLines(page.lines)) {
        const month = saleMonthOf(line);
        if ((from && month < from) || (to && month > to)) continue;
        yield Object.assign(line, { importedAt: page.createdAt });
      }
    }
  }

  /**
   * Folds every counted page again from nothing: what the month sums must equal. Used by the test that
   * holds the sums to the ledger, and by an operator after a bug in folding.
   */
  async refold(): Promise<Folded> {
    const folded = emptyFold();
    for (const page of await this.counted(await this.pages.find({})))
      foldLines(unpackLines(page.lines), folded);
    return folded;
  }
}
