// Journaled transactions, for a server without multi-document transactions (FerretDB, a standalone mongod).
//
// An undo log: before a write made through a transaction's scope, the before-image of every document it
// touches (null: "did not exist") is appended to one journal document in `_transactions`; the write is
// then applied directly. Deleting the journal document is the commit. An error in the work applies the
// before-images in reverse and deletes the journal; a process that dies mid-transaction leaves its journal
// behind, and once the journal's lease runs out any store on the same database (at ready(), then every few
// seconds) rolls it back the same way.
//
// What this gives: all or nothing across errors and crashes. What it does not: isolation. Other readers see
// a transaction's writes before it commits (and may act on writes that are later undone); two transactions
// touching one document interleave. Unique indexes still hold, per write. See docs/architecture.md,
// "Documents on MongoDB without multi-document transactions".
import { randomUUID } from 'node:crypto';
import type mongoose from 'mongoose';
import type { Logger } from 'pino';
import type { Doc } from '../../ports/documents';

export const JOURNALS = '_transactions';

export interface UndoEntry {
  collection: string;
  id: string;
  /** The document before the transaction first touched it; null when it did not exist. */
  before: Doc | null;
}

interface JournalDoc {
  _id: string;
  /** The store instance that runs it, or that is rolling it back. */
  owner: string;
  state: 'running' | 'rolling-back';
  startedAt: string;
  /** Epoch milliseconds; past it, any store may roll the transaction back. */
  leaseUntil: number;
  undo: UndoEntry[];
}

export interface JournalOptions {
  /**
   * How long a transaction (or a rollback) holds its journal without renewing it (renewed every third of
   * it). Default 15 s: also the longest a store's ready() waits after a crash (see settle()).
   */
  leaseMs?: number;
  /** How often expired journals are looked for. Default 5 s. */
  sweepEveryMs?: number;
}

export class TransactionLostError extends Error {
  constructor(id: string) {
    super(
      `transaction ${id} was rolled back by another process because its lease ran out before it could commit; ` +
        'none of its writes were kept',
    );
    this.name = 'TransactionLostError';
  }
}

type Db = mongoose.mongo.Db;

export class Journal {
  readonly owner = randomUUID();
  readonly leaseMs: number;
  readonly sweepEveryMs: number;

  /**
   * `serialize` is the store's: the journal's own writes take turns with the collections' writes (on
   * FerretDB a renewal racing an append could otherwise drop undo entries).
   */
  constructor(
    private readonly db: () => Db,
    private readonly serialize: <R>(write: () => Promise<R>) => Promise<R>,
    private readonly logger: Logger,
    options: JournalOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 15_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 5000;
  }

  private journals(): mongoose.mongo.Collection<JournalDoc> {
    return this.db().collection<JournalDoc>(JOURNALS);
  }

  async begin(): Promise<JournaledTransaction> {
    const id = randomUUID();
    await this.serialize(() =>
      this.journals().insertOne({
        _id: id,
        owner: this.owner,
        state: 'running',
        startedAt: new Date().toISOString(),
        leaseUntil: Date.now() + this.leaseMs,
        undo: [],
      }),
    );
    return new JournaledTransaction(id, this);
  }

  /** Rolls back every journal whose lease has run out (its process died, or stalled past the lease). */
  async sweep(): Promise<number> {
    let rolledBack = 0;
    for (;;) {
      const done = await this.serialize(async () => {
        const now = Date.now();
        const claimed = await this.journals().findOneAndUpdate(
          { leaseUntil: { $lt: now } },
          { $set: { state: 'rolling-back', owner: this.owner, leaseUntil: now + this.leaseMs } },
          { returnDocument: 'after' },
        );
        if (!claimed) return true;
        this.logger.warn(
          { transaction: claimed._id, startedAt: claimed.startedAt, writes: claimed.undo.length },
          'rolling back a transaction whose process stopped before it committed',
        );
        await this.undo(claimed);
        return false;
      });
      if (done) return rolledBack;
      rolledBack++;
    }
  }

  /**
   * At start: rolls back what stopped processes left, waiting for the leases not yet run out. A process
   * restarted right after a crash must not write before then: it would redo the crashed transaction's
   * work (an event redelivered, say) on top of its partial writes, and the rollback, coming later, would
   * put back before-images over what it wrote. Journals of live processes end (commit or roll back) well
   * within a lease, so waiting costs only a start right after a crash.
   */
  async settle(onWait: (journals: number, waitMs: number) => void): Promise<void> {
    await this.sweep();
    const deadline = Date.now() + this.leaseMs + this.sweepEveryMs;
    let told = false;
    for (;;) {
      const left = await this.journals().countDocuments({});
      if (left === 0 || Date.now() > deadline) return;
      if (!told) onWait(left, deadline - Date.now());
      told = true;
      await new Promise((r) => setTimeout(r, Math.min(250, this.leaseMs)));
      await this.sweep();
    }
  }

  /** Rolls back a running transaction of this store; nothing when a sweep already took it. */
  async rollBackOwn(id: string): Promise<void> {
    await this.serialize(async () => {
      const journal = await this.journals().findOneAndUpdate(
        { _id: id, state: 'running' },
        { $set: { state: 'rolling-back', leaseUntil: Date.now() + this.leaseMs } },
        { returnDocument: 'after' },
      );
      if (journal) await this.undo(journal);
    });
  }

  /**
   * Appends undo entries; false when the journal is no longer this transaction's to write. Called from
   * within a collection's write, which already holds the store's turn.
   */
  async append(id: string, entries: UndoEntry[]): Promise<boolean> {
    const result = await this.journals().updateOne(
      { _id: id, state: 'running' },
      { $push: { undo: { $each: entries } }, $set: { leaseUntil: Date.now() + this.leaseMs } },
    );
    return result.matchedCount === 1;
  }

  async renew(id: string): Promise<boolean> {
    const result = await this.serialize(() =>
      this.journals().updateOne(
        { _id: id, state: 'running' },
        { $set: { leaseUntil: Date.now() + this.leaseMs } },
      ),
    );
    return result.matchedCount === 1;
  }

  /** The commit point: true when this call removed the running journal. */
  async commit(id: string): Promise<boolean> {
    const result = await this.serialize(() => this.journals().deleteOne({ _id: id, state: 'running' }));
    return result.deletedCount === 1;
  }

  /**
   * Applies the before-images, the last write's first, then drops the journal. A before-image that cannot
   * be put back (a unique key another writer has taken since) is logged with the document and skipped:
   * retrying would never succeed, and the rest of the rollback must still happen.
   */
  private async undo(journal: JournalDoc): Promise<void> {
    const db = this.db();
    for (const entry of [...journal.undo].reverse()) {
      const coll = db.collection<Doc>(entry.collection);
      try {
        if (entry.before === null) await coll.deleteOne({ _id: entry.id });
        else await coll.replaceOne({ _id: entry.id }, entry.before, { upsert: true });
      } catch (err) {
        this.logger.error(
          { err, transaction: journal._id, collection: entry.collection, id: entry.id, before: entry.before },
          'could not restore a document while rolling back a transaction; it keeps the transaction’s write',
        );
      }
    }
    await this.journals().deleteOne({ _id: journal._id, owner: journal.owner, state: 'rolling-back' });
  }
}

/** One transaction's handle on its journal. */
export class JournaledTransaction {
  /** Documents whose before-image is already journaled: only the first image matters for undo. */
  private readonly recorded = new Set<string>();
  private lost = false;
  private readonly renewal: NodeJS.Timeout;

  constructor(
    readonly id: string,
    private readonly journal: Journal,
  ) {
    this.renewal = setInterval(
      () => {
        this.journal.renew(this.id).then(
          (held) => {
            if (!held) this.lost = true;
          },
          () => undefined,
        );
      },
      Math.max(50, Math.floor(journal.leaseMs / 3)),
    );
    this.renewal.unref();
  }

  /** Whether a document (collection, id) still needs its before-image journaled. */
  needs(collection: string, id: string): boolean {
    return !this.recorded.has(`${collection}\u0000${id}`);
  }

  async record(entries: UndoEntry[]): Promise<void> {
    const fresh = entries.filter((e) => this.needs(e.collection, e.id));
    if (this.lost) throw new TransactionLostError(this.id);
    if (fresh.length === 0) return;
    if (!(await this.journal.append(this.id, fresh))) {
      this.lost = true;
      throw new TransactionLostError(this.id);
    }
    for (const e of fresh) this.recorded.add(`${e.collection}\u0000${e.id}`);
  }

  async commit(): Promise<void> {
    clearInterval(this.renewal);
    if (!(await this.journal.commit(this.id))) throw new TransactionLostError(this.id);
  }

  async rollBack(): Promise<void> {
    clearInterval(this.renewal);
    await this.journal.rollBackOwn(this.id);
  }
}
