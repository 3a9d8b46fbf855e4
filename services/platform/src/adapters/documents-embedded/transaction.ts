// A transaction's overlay: writes are staged here (reads through the scope see them, nobody else does),
// checked against unique indexes as they are made, and handed to the store as one commit at the end.
import { type Doc, DuplicateKeyError, type Filter } from '../../ports/documents';
import type { CollectionState } from './collection-state';
import type { Change, DocSource } from './source';

interface Staged {
  before: Doc | undefined;
  after: Doc | null;
}

export interface CommittedView {
  get(collection: string, id: string): Doc | undefined;
  candidates(collection: string, filter: Filter): Iterable<Doc>;
  state(collection: string): CollectionState;
}

export class TransactionOverlay implements DocSource {
  private readonly staged = new Map<string, Map<string, Staged>>();
  /**
   * The committed version of each document when this transaction first read it. A write is checked
   * against that version at commit, so a decision based on a read that another writer has since
   * overtaken fails with a write conflict (and the transaction re-runs), as under MongoDB's snapshot
   * isolation, instead of silently losing the other write.
   */
  private readonly firstSeen = new Map<string, Doc | undefined>();
  private finished = false;

  constructor(private readonly base: CommittedView) {}

  ready(): Promise<void> {
    if (this.finished) return Promise.reject(new Error('transaction scope used after its transaction ended'));
    return Promise.resolve();
  }

  get(collection: string, id: string): Doc | undefined {
    const entry = this.staged.get(collection)?.get(id);
    if (entry) return entry.after ?? undefined;
    return this.seen(collection, id, this.base.get(collection, id));
  }

  private seen(collection: string, id: string, doc: Doc | undefined): Doc | undefined {
    const key = `${collection}\u0000${id}`;
    if (!this.firstSeen.has(key)) this.firstSeen.set(key, doc);
    return doc;
  }

  *candidates(collection: string, filter: Filter): Iterable<Doc> {
    const staged = this.staged.get(collection);
    for (const doc of this.base.candidates(collection, filter)) {
      if (!staged?.has(doc._id)) yield this.seen(collection, doc._id, doc)!;
    }
    // Staged versions are offered whatever the filter: an index lookup on the committed state cannot know
    // about a staged change that makes a document match.
    if (staged) for (const entry of staged.values()) if (entry.after) yield entry.after;
  }

  write(collection: string, changes: Change[]): Promise<void> {
    if (this.finished) throw new Error('transaction scope used after its transaction ended');
    let staged = this.staged.get(collection);
    if (!staged) {
      staged = new Map();
      this.staged.set(collection, staged);
    }
    const previous = new Map<string, Staged | undefined>();
    for (const change of changes) {
      if (change.before === undefined && this.get(collection, change.id) !== undefined) {
        throw new DuplicateKeyError(collection, '_id_');
      }
    }
    for (const change of changes) {
      const existing = staged.get(change.id);
      if (!previous.has(change.id)) previous.set(change.id, existing);
      const key = `${collection}\u0000${change.id}`;
      const before = existing
        ? existing.before
        : this.firstSeen.has(key)
          ? this.firstSeen.get(key)
          : this.base.get(collection, change.id);
      staged.set(change.id, { before, after: change.after });
    }
    try {
      this.base.state(collection).checkUnique(new Map([...staged].map(([id, s]) => [id, s.after])));
    } catch (err) {
      for (const [id, entry] of previous) {
        if (entry) staged.set(id, entry);
        else staged.delete(id);
      }
      throw err;
    }
    return Promise.resolve();
  }

  /** Ends the scope and returns its writes, grouped by collection. */
  finish(): Array<{ collection: string; changes: Change[] }> {
    this.finished = true;
    return [...this.staged].map(([collection, entries]) => ({
      collection,
      changes: [...entries].map(([id, s]) => ({ id, before: s.before, after: s.after })),
    }));
  }

  abandon(): void {
    this.finished = true;
  }
}
