// The earnings ledger: statement lines with whose they are, in chunks of an import, append-only. The only
// writer of `ledger_chunks` and of the sums folded from them (`earnings_months`, `earnings_cube`).
// An import stages its chunks unpublished (nobody's figures move while a file is read, and a file refused
// at its end is removed whole); publishing folds a run of chunks into the sums and marks them, in one
// transaction, so a crash leaves every chunk either counted once or not at all. A run is folded in memory
// first (bounded by the run's lines), so a row touched by many chunks is written once per run.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import { type LedgerLine, type PackedLines, packLines, unpackLines } from '../domain/ledger-line';
import { type Cell, type CubeSum, emptyFold, type Folded, foldLines, type MonthSum } from '../domain/rollups';

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

export type MonthDoc = Omit<MonthSum, 'amount'> & Doc & { amount: string; updatedAt: string };
/** Cells as [streams, quantity, amount (nano string), isrc] under cellKey (rollups.ts). */
export interface CubeDoc extends Doc {
  ownerId: string;
  saleMonth: string;
  cells: Record<string, [number, number, string, string]>;
  updatedAt: string;
}

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

  /**
   * Folds the import's unpublished chunks numbered [from, to) into the sums and marks them published
   * (a chunk already published is skipped); returns how many were published.
   */
  async publish(scope: TransactionScope, importId: string, from: number, to: number): Promise<number> {
    const chunks = scope.collection<ChunkDoc>(CHUNKS);
    const folded = emptyFold();
    const ids: string[] = [];
    // One chunk in memory at a time; the sums grow only by keys not seen in the run.
    for (let seq = from; seq < to; seq += 1) {
      const chunk = await chunks.findById(chunkId(importId, seq));
      if (!chunk || chunk.published) continue;
      foldLines(unpackLines(chunk.lines), folded);
      ids.push(chunk._id);
    }
    if (ids.length === 0) return 0;
    await this.write(scope, folded);
    await chunks.updateMany({ _id: { $in: ids }, published: false }, { $set: { published: true } });
    return ids.length;
  }

  /** Appends lines straight into the ledger, published (an admin attaching waiting lines). */
  async append(scope: TransactionScope, importId: string, seq: number, lines: readonly LedgerLine[]) {
    await this.stage(scope, importId, seq, lines);
    return this.publish(scope, importId, seq, seq + 1);
  }

  /** Removes a refused import's staged chunks (never a published one). */
  discardStaged(scope: TransactionScope, importId: string) {
    return scope.collection<ChunkDoc>(CHUNKS).deleteMany({ importId, published: false });
  }

  private async write(scope: TransactionScope, folded: Folded) {
    const now = new Date().toISOString();
    const months = scope.collection<MonthDoc>(MONTHS);
    const cube = scope.collection<CubeDoc>(CUBE);
    const monthRows = await readAll<MonthDoc>(months, [...folded.months.keys()]);
    const newMonths: MonthDoc[] = [];
    for (const [id, sum] of folded.months) {
      const row = monthRows.get(id);
      if (!row) newMonths.push({ ...sum, _id: id, amount: sum.amount.toString(), updatedAt: now });
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
    if (newMonths.length) await months.insertMany(newMonths);
    const cubeRows = await readAll<CubeDoc>(cube, [...folded.cube.keys()]);
    const newCubes: CubeDoc[] = [];
    for (const [id, sum] of folded.cube) {
      const row = cubeRows.get(id);
      const cells: CubeDoc['cells'] = row?.cells ?? {};
      for (const [key, c] of sum.cells) {
        const had = cells[key];
        cells[key] = had
          ? [
              had[0] + c.streams,
              had[1] + c.quantity,
              (BigInt(had[2]) + c.amount).toString(),
              had[3] || c.isrc,
            ]
          : [c.streams, c.quantity, c.amount.toString(), c.isrc];
      }
      if (!row)
        newCubes.push({ _id: id, ownerId: sum.ownerId, saleMonth: sum.saleMonth, cells, updatedAt: now });
      else await cube.updateOne({ _id: id }, { $set: { cells, updatedAt: now } });
    }
    if (newCubes.length) await cube.insertMany(newCubes);
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

  /** The highest chunk number of an import (an attachment appends after it). */
  async lastSeq(importId: string): Promise<number> {
    const last = await this.chunks.findOne({ importId }, { sort: { seq: -1 } });
    return last ? last.seq : -1;
  }

  /**
   * Folds every published chunk again from nothing: what the sums must equal. Used by the test that holds
   * the sums to the ledger, and by an operator after a bug in folding.
   */
  async refold(): Promise<Folded> {
    const folded = emptyFold();
    for (const c of await this.chunks.find({ published: true })) foldLines(unpackLines(c.lines), folded);
    return folded;
  }
}

/** The cells of a stored cube, as the folded form. */
export function cellsOf(doc: CubeDoc): Map<string, Cell> {
  const out = new Map<string, Cell>();
  for (const [k, [streams, quantity, amount, isrc]] of Object.entries(doc.cells))
    out.set(k, { streams, quantity, amount: BigInt(amount), isrc });
  return out;
}

async function readAll<T extends Doc>(
  collection: ReturnType<TransactionScope['collection']>,
  ids: string[],
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (let i = 0; i < ids.length; i += 500)
    for (const d of await collection.find({ _id: { $in: ids.slice(i, i + 500) } })) out.set(d._id, d as T);
  return out;
}

export type { CubeSum };
