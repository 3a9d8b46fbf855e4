// The earnings ledger: statement lines with whose they are, in chunks of an import, append-only. The only
// writer of `ledger_chunks` and of the rollups folded from them (`earnings_months`, `earnings_cube`).
// An import stages its chunks unpublished (nobody's figures move while a file is read, and a file refused
// at its end is removed whole); publishing a chunk folds it into the rollups and marks it, in one
// transaction, so a crash leaves every chunk either counted once or not at all.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import { type LedgerLine, type PackedLines, packLines, unpackLines } from '../domain/ledger-line';
import { type CubeSum, cubeKey, foldLines, type MonthSum, monthKey } from '../domain/rollups';

export const CHUNKS = 'ledger_chunks';
export const MONTHS = 'earnings_months';
export const CUBE = 'earnings_cube';

export interface ChunkDoc extends Doc {
  importId: string;
  seq: number;
  published: boolean;
  /** Owners with lines in the chunk (a payee's statement reads only their chunks). */
  owners: string[];
  lines: PackedLines;
  createdAt: string;
}

type Stored<T> = Omit<T, 'amount'> & Doc & { amount: string; updatedAt: string };
export type MonthDoc = Stored<MonthSum>;
export type CubeDoc = Stored<CubeSum>;

export const chunkId = (importId: string, seq: number) => `${importId}:${String(seq).padStart(7, '0')}`;

export class LedgerRepository {
  readonly chunks;
  readonly months;
  readonly cube;

  constructor(store: DocumentStore) {
    this.chunks = store.collection<ChunkDoc>(CHUNKS, {
      indexes: [{ fields: { importId: 1, seq: 1 } }, { fields: { owners: 1, published: 1 } }],
    });
    this.months = store.collection<MonthDoc>(MONTHS, { indexes: [{ fields: { ownerId: 1 } }] });
    this.cube = store.collection<CubeDoc>(CUBE, { indexes: [{ fields: { ownerId: 1, saleMonth: 1 } }] });
  }

  /** Stages a chunk of an import (unpublished), in the import's transaction. */
  stage(scope: TransactionScope, importId: string, seq: number, lines: readonly LedgerLine[]) {
    return scope.collection<ChunkDoc>(CHUNKS).insertOne({
      _id: chunkId(importId, seq),
      importId,
      seq,
      published: false,
      owners: [...new Set(lines.map((l) => l.ownerId))],
      lines: packLines(lines),
      createdAt: new Date().toISOString(),
    });
  }

  /** Folds a staged chunk into the rollups and marks it published; false when it already was. */
  async publish(scope: TransactionScope, importId: string, seq: number): Promise<boolean> {
    const chunks = scope.collection<ChunkDoc>(CHUNKS);
    const chunk = await chunks.findById(chunkId(importId, seq));
    if (!chunk || chunk.published) return false;
    await this.fold(scope, unpackLines(chunk.lines));
    await chunks.updateOne({ _id: chunk._id, published: false }, { $set: { published: true } });
    return true;
  }

  /** Appends lines straight into the ledger, published (an admin attaching waiting lines). */
  async append(scope: TransactionScope, importId: string, seq: number, lines: readonly LedgerLine[]) {
    await this.stage(scope, importId, seq, lines);
    return this.publish(scope, importId, seq);
  }

  /** Removes a refused import's staged chunks (never a published one). */
  discardStaged(scope: TransactionScope, importId: string) {
    return scope.collection<ChunkDoc>(CHUNKS).deleteMany({ importId, published: false });
  }

  private async fold(scope: TransactionScope, lines: LedgerLine[]) {
    const { months, cube } = foldLines(lines);
    const now = new Date().toISOString();
    await addInto(scope.collection<MonthDoc>(MONTHS), months, now);
    await addInto(scope.collection<CubeDoc>(CUBE), cube, now);
  }

  monthsOf(ownerId: string) {
    return this.months.find({ ownerId });
  }

  cubeOf(ownerId: string, from?: string, to?: string) {
    const saleMonth: Record<string, string> = {};
    if (from) saleMonth.$gte = from;
    if (to) saleMonth.$lte = to;
    return this.cube.find(Object.keys(saleMonth).length ? { ownerId, saleMonth } : { ownerId });
  }

  /** The highest chunk number of an import (resolutions append after it). */
  async lastSeq(importId: string): Promise<number> {
    const last = await this.chunks.findOne({ importId }, { sort: { seq: -1 } });
    return last ? last.seq : -1;
  }

  /**
   * Folds every published chunk again from nothing: what the rollups must equal. Used by the test that
   * holds the rollups to the ledger, and by an operator after a bug in folding.
   */
  async refold(): Promise<{ months: Map<string, MonthSum>; cube: Map<string, CubeSum> }> {
    const all: LedgerLine[] = [];
    for (const c of await this.chunks.find({ published: true })) all.push(...unpackLines(c.lines));
    const folded = foldLines(all);
    return folded;
  }
}

/** Adds sums into their rows: one read of the rows touched, one write per row. */
async function addInto<T extends { amount: bigint; streams: number; quantity: number }>(
  collection: ReturnType<TransactionScope['collection']>,
  sums: Map<string, T>,
  now: string,
) {
  if (sums.size === 0) return;
  const ids = [...sums.keys()];
  const existing = new Map<string, Doc>();
  for (let i = 0; i < ids.length; i += 500)
    for (const d of await collection.find({ _id: { $in: ids.slice(i, i + 500) } })) existing.set(d._id, d);
  const inserts: Doc[] = [];
  for (const [id, sum] of sums) {
    const row = existing.get(id) as (Doc & { amount: string; streams: number; quantity: number }) | undefined;
    if (!row) {
      inserts.push({ ...sum, _id: id, amount: sum.amount.toString(), updatedAt: now });
      continue;
    }
    await collection.updateOne(
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
  if (inserts.length) await collection.insertMany(inserts);
}

export { cubeKey, monthKey };
