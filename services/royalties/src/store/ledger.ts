// The earnings ledger: statement lines with whose they are, append-only, in pages per owner. The only
// writer of `staged_chunks` (an import's lines while the file is read), `ledger_pages` (the ledger) and
// the month sums folded from it (`earnings_months`).
//
// An import stages its lines in file order, one chunk per transaction (a crash resumes after the last
// chunk; a file refused at its end is removed whole, and nobody's figures move while it is read).
// Publishing takes a run of staged chunks and, in one transaction, writes their lines into one page per
// owner, folds them into the month sums and deletes the staged chunks: every line is in the ledger once
// or not at all. Pages per owner because everything that reads the ledger reads one owner's lines (their
// analytics, their statement, their balance), and a monthly statement's lines are already sums per
// track, store and territory: finer rollups would be as large as the ledger and rewritten by every file.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import {
  type LedgerLine,
  type PackedLines,
  packLines,
  saleMonthOf,
  unpackLines,
} from '../domain/ledger-line';
import { emptyFold, type Folded, foldLines, type MonthSum } from '../domain/rollups';

export const STAGED = 'staged_chunks';
export const PAGES = 'ledger_pages';
export const MONTHS = 'earnings_months';

interface StagedDoc extends Doc {
  importId: string;
  seq: number;
  lines: PackedLines;
}

export interface PageDoc extends Doc {
  ownerId: string;
  importId: string;
  /** The sale months its lines fall in (a reader wanting a range skips the others' pages). */
  saleMonths: string[];
  lines: PackedLines;
  createdAt: string;
}

export type MonthDoc = Omit<MonthSum, 'amount'> & Doc & { amount: string; updatedAt: string };

export const stagedId = (importId: string, seq: number) => `${importId}:${String(seq).padStart(7, '0')}`;

export class LedgerRepository {
  readonly staged;
  readonly pages;
  readonly months;

  constructor(store: DocumentStore) {
    this.staged = store.collection<StagedDoc>(STAGED, { indexes: [{ fields: { importId: 1, seq: 1 } }] });
    this.pages = store.collection<PageDoc>(PAGES, {
      indexes: [{ fields: { ownerId: 1, saleMonths: 1 } }, { fields: { importId: 1 } }],
    });
    this.months = store.collection<MonthDoc>(MONTHS, { indexes: [{ fields: { ownerId: 1 } }] });
  }

  /** Stages a chunk of an import's matched lines, in the import's transaction. */
  stage(scope: TransactionScope, importId: string, seq: number, lines: readonly LedgerLine[]) {
    return scope
      .collection<StagedDoc>(STAGED)
      .insertOne({ _id: stagedId(importId, seq), importId, seq, lines: packLines(lines) });
  }

  /**
   * Moves the import's staged chunks numbered [from, to) into the ledger: one page per owner, the month
   * sums, the staged chunks gone. Chunks already moved (or never staged: no matched line) are skipped.
   */
  async publish(scope: TransactionScope, importId: string, from: number, to: number): Promise<number> {
    const staged = scope.collection<StagedDoc>(STAGED);
    const byOwner = new Map<string, LedgerLine[]>();
    const ids: string[] = [];
    // One chunk unpacked at a time; the run's lines are held once, grouped by owner.
    for (let seq = from; seq < to; seq += 1) {
      const chunk = await staged.findById(stagedId(importId, seq));
      if (!chunk) continue;
      for (const line of unpackLines(chunk.lines)) {
        const list = byOwner.get(line.ownerId);
        if (list) list.push(line);
        else byOwner.set(line.ownerId, [line]);
      }
      ids.push(chunk._id);
    }
    if (ids.length === 0) return 0;
    await this.write(scope, `${importId}:${String(from).padStart(7, '0')}`, importId, byOwner);
    await staged.deleteMany({ _id: { $in: ids } });
    return ids.length;
  }

  /** Appends lines straight into the ledger (an admin attaching waiting lines to a recording). */
  append(scope: TransactionScope, importId: string, key: string, lines: readonly LedgerLine[]) {
    const byOwner = new Map<string, LedgerLine[]>();
    for (const line of lines) byOwner.set(line.ownerId, [...(byOwner.get(line.ownerId) ?? []), line]);
    return this.write(scope, `${importId}:${key}`, importId, byOwner);
  }

  /** Removes a refused import's staged chunks (never a published page). */
  discardStaged(scope: TransactionScope, importId: string) {
    return scope.collection<StagedDoc>(STAGED).deleteMany({ importId });
  }

  private async write(
    scope: TransactionScope,
    run: string,
    importId: string,
    byOwner: Map<string, LedgerLine[]>,
  ) {
    const now = new Date().toISOString();
    const folded = emptyFold();
    const pages: PageDoc[] = [];
    for (const [ownerId, lines] of byOwner) {
      foldLines(lines, folded);
      pages.push({
        _id: `${run}:${ownerId}`,
        ownerId,
        importId,
        saleMonths: [...new Set(lines.map(saleMonthOf))].sort(),
        lines: packLines(lines),
        createdAt: now,
      });
    }
    await scope.collection<PageDoc>(PAGES).insertMany(pages);
    await this.addMonths(scope, folded, now);
  }

  private async addMonths(scope: TransactionScope, folded: Folded, now: string) {
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

  /** The owner's ledger lines, optionally only sale months from..to (YYYY-MM, inclusive). */
  async *linesOf(
    ownerId: string,
    from?: string,
    to?: string,
  ): AsyncGenerator<LedgerLine & { importedAt: string }> {
    for (const page of await this.pages.find({ ownerId })) {
      if ((from && page.saleMonths.at(-1)! < from) || (to && page.saleMonths[0]! > to)) continue;
      for (const line of unpackLines(page.lines)) {
        const month = saleMonthOf(line);
        if ((from && month < from) || (to && month > to)) continue;
        yield Object.assign(line, { importedAt: page.createdAt });
      }
    }
  }

  /**
   * Folds every page again from nothing: what the month sums must equal. Used by the test that holds the
   * sums to the ledger, and by an operator after a bug in folding.
   */
  async refold(): Promise<Folded> {
    const folded = emptyFold();
    for (const page of await this.pages.find({})) foldLines(unpackLines(page.lines), folded);
    return folded;
  }
}
