// What an embedded collection reads from and writes to: the committed state (auto-commit) or a
// transaction's overlay. write() validates and applies synchronously, so a caller that reads, decides and
// writes without awaiting in between runs as one critical section; its promise resolves once durable.
import type { Doc, Filter } from '../../ports/documents';

export interface Change {
  id: string;
  /** The version the write was computed from (undefined for an insert); a mismatch is a conflict. */
  before: Doc | undefined;
  /** The new version, or null to delete. */
  after: Doc | null;
}

export interface DocSource {
  /** Resolves when the store is open; everything between it and write() must be synchronous. */
  ready(): Promise<void>;
  get(collection: string, id: string): Doc | undefined;
  /** Documents that may match the filter (callers still test each one). */
  candidates(collection: string, filter: Filter): Iterable<Doc>;
  write(collection: string, changes: Change[]): Promise<void>;
}

/** A transaction's write met a concurrent write to the same document; the transaction is retried. */
export class WriteConflictError extends Error {
  constructor(collection: string, id: string) {
    super(`write conflict on ${collection}/${id}`);
    this.name = 'WriteConflictError';
  }
}
