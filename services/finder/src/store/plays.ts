// Play counts an account supplied (ImportPlays CSV). An import replaces the previous one whole, so a scan
// never mixes two uploads. A 5 MB file is 285,000 rows: kept in one document it would be copied whole on
// every write and read (half a second of the event loop each time in the embedded store) and outgrow
// MongoDB's 16 MB document limit, so the rows are kept in chunks of CHUNK_ROWS, each written and read as
// its own step. The account's document names the import in force: the new import's chunks are written
// first, then the account's document is switched to them in one write, then the old chunks are deleted.
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Doc, DocumentStore } from '@omni/platform';
import type { PlayCount } from '../domain/scan-model';

export const PLAYS = 'play_counts';
export const PLAY_CHUNKS = 'play_count_chunks';
/** Rows per chunk document: a few milliseconds to copy or serialise, a few hundred KB stored. */
export const CHUNK_ROWS = 5000;
/** A scan that reads an import while a newer one replaces it starts over this many times at most. */
const READ_ATTEMPTS = 3;

interface PlaysDoc extends Doc {
  user_id: string;
  imported_at: string;
  /** The import in force: its chunks are `${import_id}:0` … `${import_id}:${chunks - 1}`. */
  import_id?: string;
  chunks?: number;
  row_count?: number;
  /** Imports made before the rows were chunked kept them here. */
  rows?: PlayCount[];
}

interface ChunkDoc extends Doc {
  user_id: string;
  import_id: string;
  seq: number;
  rows: PlayCount[];
}

const chunkId = (importId: string, seq: number) => `${importId}:${seq}`;

export class PlaysRepository {
  private readonly plays;
  private readonly chunks;

  constructor(store: DocumentStore) {
    this.plays = store.collection<PlaysDoc>(PLAYS);
    this.chunks = store.collection<ChunkDoc>(PLAY_CHUNKS, { indexes: [{ fields: { import_id: 1 } }] });
  }

  async replace(userId: string, rows: PlayCount[]): Promise<void> {
    const importId = randomUUID();
    const chunks = Math.ceil(rows.length / CHUNK_ROWS);
    try {
      // One chunk per write, awaited (each waits for its WAL flush): other requests run between them.
      for (let seq = 0; seq < chunks; seq += 1)
        await this.chunks.insertOne({
          _id: chunkId(importId, seq),
          user_id: userId,
          import_id: importId,
          seq,
          rows: rows.slice(seq * CHUNK_ROWS, (seq + 1) * CHUNK_ROWS),
        });
      const before = await this.plays.findOneAndUpdate(
        { _id: userId },
        {
          $set: {
            user_id: userId,
            imported_at: new Date().toISOString(),
            import_id: importId,
            chunks,
            row_count: rows.length,
          },
          $unset: { rows: true },
        },
        { upsert: true, returnDocument: 'before' },
      );
      // Only the import this one replaced: another import of the account may be writing its chunks now.
      if (before?.import_id && before.import_id !== importId)
        await this.chunks.deleteMany({ import_id: before.import_id });
    } catch (err) {
      await this.chunks.deleteMany({ import_id: importId }).catch(() => undefined);
      throw err;
    }
  }

  /**
   * The account's import in force, chunk by chunk (empty when it never imported any). The embedded store
   * answers a read from memory without giving the event loop a turn, so one is given after each chunk:
   * copying 285,000 rows at once is the half second this layout exists to avoid.
   */
  private async chunksOf(userId: string): Promise<PlayCount[][]> {
    for (let attempt = 1; ; attempt += 1) {
      const doc = await this.plays.findById(userId);
      if (!doc) return [];
      if (!doc.import_id) return doc.rows ? [doc.rows] : [];
      const out: PlayCount[][] = [];
      let complete = true;
      for (let seq = 0; seq < (doc.chunks ?? 0); seq += 1) {
        const chunk = await this.chunks.findById(chunkId(doc.import_id, seq));
        if (!chunk) {
          complete = false;
          break;
        }
        out.push(chunk.rows);
        await nextTurn();
      }
      // A chunk gone means a newer import replaced this one while it was read: read the newer one.
      if (complete) return out;
      if (attempt >= READ_ATTEMPTS) throw new Error(`play counts of ${userId} kept changing while read`);
    }
  }

  /** Every row of the account's import in force (empty when it never imported any). */
  async rows(userId: string): Promise<PlayCount[]> {
    return (await this.chunksOf(userId)).flat();
  }

  /** The account's plays grouped by ISRC (empty when it never imported any), grouped a chunk per turn. */
  async byIsrc(userId: string): Promise<Map<string, PlayCount[]>> {
    const out = new Map<string, PlayCount[]>();
    for (const chunk of await this.chunksOf(userId)) {
      for (const row of chunk) {
        const list = out.get(row.isrc);
        if (list) list.push(row);
        else out.set(row.isrc, [row]);
      }
      await nextTurn();
    }
    return out;
  }
}
