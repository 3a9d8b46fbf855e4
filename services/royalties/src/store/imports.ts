// Statement imports: one document per file sent, its state and its counts. The only reader and writer of
// `statement_imports`. A file is known by its SHA-256 (the same bytes twice are one import) and a DSR also
// by its sender and MessageId (a store that regenerates a report keeps the id: the second file is refused).
import { randomUUID } from 'node:crypto';
import { type Doc, type DocumentStore, DuplicateKeyError, type TransactionScope } from '@omni/platform';
import type { ImportState, StatementSource } from '@omni/proto/api';

export const IMPORTS = 'statement_imports';
export const SHA_INDEX = 'sha256_unique';
export const MESSAGE_INDEX = 'dsr_message_unique';
/** Refused lines whose reasons the import keeps (all are counted). */
export const KEPT_REFUSED_LINES = 50;

export interface Sums {
  file: string;
  imported: string;
  unmatched: string;
  refused: string;
}
export interface Counts {
  total: number;
  imported: number;
  unmatched: number;
  refused: number;
}

export interface ImportDoc extends Doc {
  source: StatementSource;
  fileName: string;
  state: ImportState;
  via: 'upload' | 'inbox';
  /** Set once the whole file is here. */
  sha256?: string;
  /** `${sender}|${messageId}` of a DSR, set once its header is read (unset again if the file is refused). */
  dsrKey?: string;
  /** SHA-256 of the one-use upload token (the token itself is only in the path handed to the gateway). */
  tokenHash?: string;
  tokenExpiresAt?: string;
  bytes: number;
  bytesRead: number;
  sender: string | null;
  messageId: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  reportedAt: string | null;
  /** Lines up to lineNo are staged in `chunks` chunks; the import resumes after it. */
  checkpoint: { lineNo: number; chunks: number };
  /** Chunks published into the ledger so far. */
  published: number;
  lines: Counts;
  /** Nano-USD as decimal integer strings. */
  sums: Sums;
  refusal: string | null;
  refusedLines: Array<{ lineNo: number; reason: string }>;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
}

const zeroCounts = (): Counts => ({ total: 0, imported: 0, unmatched: 0, refused: 0 });
const zeroSums = (): Sums => ({ file: '0', imported: '0', unmatched: '0', refused: '0' });

export class ImportsRepository {
  readonly collection;

  constructor(store: DocumentStore) {
    this.collection = store.collection<ImportDoc>(IMPORTS, {
      indexes: [
        { fields: { sha256: 1 }, unique: true, sparse: true, name: SHA_INDEX },
        { fields: { dsrKey: 1 }, unique: true, sparse: true, name: MESSAGE_INDEX },
        { fields: { state: 1 } },
        { fields: { createdAt: -1 } },
      ],
    });
  }

  async open(input: {
    source: StatementSource;
    fileName: string;
    via: ImportDoc['via'];
    createdBy: string;
    tokenHash?: string;
    tokenExpiresAt?: string;
  }): Promise<ImportDoc> {
    return this.collection.insertOne({
      _id: randomUUID(),
      ...input,
      state: 'receiving',
      bytes: 0,
      bytesRead: 0,
      sender: null,
      messageId: null,
      periodStart: null,
      periodEnd: null,
      reportedAt: null,
      checkpoint: { lineNo: 0, chunks: 0 },
      published: 0,
      lines: zeroCounts(),
      sums: zeroSums(),
      refusal: null,
      refusedLines: [],
      createdAt: new Date().toISOString(),
      finishedAt: null,
    });
  }

  get(id: string) {
    return this.collection.findById(id);
  }

  byTokenHash(tokenHash: string) {
    return this.collection.findOne({ tokenHash });
  }

  bySha(sha256: string) {
    return this.collection.findOne({ sha256 });
  }

  recent(limit: number) {
    return this.collection.find({}, { sort: { createdAt: -1 }, limit });
  }

  inState(states: ImportState[]) {
    return this.collection.find({ state: { $in: states } }, { sort: { createdAt: 1 } });
  }

  /**
   * The file is here: queue it, unless the same bytes were imported before (then this import is deleted
   * and the earlier one returned).
   */
  async received(id: string, sha256: string, bytes: number): Promise<{ duplicateOf: ImportDoc | null }> {
    try {
      await this.collection.updateOne(
        { _id: id, state: 'receiving' },
        { $set: { sha256, bytes, state: 'queued' }, $unset: { tokenHash: 1, tokenExpiresAt: 1 } },
      );
      return { duplicateOf: null };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const earlier = await this.bySha(sha256);
      await this.collection.deleteOne({ _id: id, state: 'receiving' });
      return { duplicateOf: earlier };
    }
  }

  /** Records the DSR header; false when the same sender's MessageId is already another import's. */
  async header(
    id: string,
    header: Pick<ImportDoc, 'sender' | 'messageId' | 'periodStart' | 'periodEnd' | 'reportedAt'>,
  ): Promise<boolean> {
    const dsrKey = header.sender && header.messageId ? `${header.sender}|${header.messageId}` : undefined;
    try {
      await this.collection.updateOne(
        { _id: id },
        { $set: { ...header, state: 'importing', ...(dsrKey ? { dsrKey } : {}) } },
      );
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** How many chunks of each import are in the ledger (what ledger pages' visibility follows). */
  async publishedOf(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const found = await this.collection.find({ _id: { $in: [...ids] } });
    return new Map(found.map((i) => [i._id, i.state === 'done' ? Number.MAX_SAFE_INTEGER : i.published]));
  }

  byDsrKey(dsrKey: string) {
    return this.collection.findOne({ dsrKey });
  }

  set(id: string, set: Partial<ImportDoc>, scope?: TransactionScope) {
    const c = scope ? scope.collection<ImportDoc>(IMPORTS) : this.collection;
    return c.updateOne({ _id: id }, { $set: set });
  }

  /** A refused file keeps its document (the admin sees why) but not its MessageId claim. */
  refuse(id: string, refusal: string, scope?: TransactionScope) {
    const c = scope ? scope.collection<ImportDoc>(IMPORTS) : this.collection;
    return c.updateOne(
      { _id: id },
      {
        $set: { state: 'refused', refusal, finishedAt: new Date().toISOString() },
        $unset: { dsrKey: 1, tokenHash: 1, tokenExpiresAt: 1 },
      },
    );
  }
}
