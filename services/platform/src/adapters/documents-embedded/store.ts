// The embedded document store: collections in memory, made durable by a write-ahead log under
// <dataDir>/documents/ and compacted into snapshots. See files.ts for the layout, wal-writer.ts for group
// commit, recovery.ts for what happens after a crash.
//
// Writes are applied to memory and queued for the log in the same synchronous step, and acknowledged once
// the log is fsynced. So the log's order is the order of application, and an acknowledged write implies
// every write applied before it is durable too. (A reader may briefly see a write that is not yet durable;
// like MongoDB's default read concern, it can be lost only in a crash before it was acknowledged.)
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../data-dir/modes';
import { createLogger } from '../../logging/logger';
import {
  type Collection,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type IndexSpec,
  type TransactionScope,
} from '../../ports/documents';
import { indexName } from '../documents-shared';
import { EmbeddedCollection } from './collection';
import { type ChangeSet, CollectionState } from './collection-state';
import { fsyncDir, type WalOp, walFileName, walGeneration } from './files';
import { acquireLock } from './lock';
import { recover } from './recovery';
import { type SnapshotImage, writeSnapshot } from './snapshot';
import { type Change, type DocSource, WriteConflictError } from './source';
import { type CommittedView, TransactionOverlay } from './transaction';
import { WalWriter } from './wal-writer';

export interface EmbeddedDocumentStoreOptions {
  dataDir: string;
  logger?: Logger;
  /** fsync each group commit (default true). Turning it off keeps crash-safety against process death only. */
  fsync?: boolean;
  /** Compact once the current WAL passes this many bytes (default 64 MiB). Small values are for tests. */
  compactionThresholdBytes?: number;
  /** Attempts of a transaction that keeps meeting concurrent writes to its documents (default 5). */
  transactionAttempts?: number;
}

const DEFAULT_COMPACTION_BYTES = 64 * 1024 * 1024;

export class EmbeddedDocumentStore implements DocumentStore, CommittedView {
  readonly kind = 'embedded';
  private readonly dir: string;
  private readonly logger: Logger;
  private readonly fsync: boolean;
  private readonly compactionBytes: number;
  private readonly attempts: number;
  private readonly states = new Map<string, CollectionState>();
  private readonly declared = new Map<string, IndexSpec[]>();
  private readonly counters = new Map<string, number>();
  private readonly opening: Promise<void>;
  private writer: WalWriter | undefined;
  private gen = 1;
  private walBytes = 0;
  private compaction: Promise<void> | undefined;
  private transactions: Promise<unknown> = Promise.resolve();
  private releaseLock: (() => void) | undefined;
  private closed = false;
  private readonly autoCommit: DocSource;

  constructor(options: EmbeddedDocumentStoreOptions) {
    this.dir = join(options.dataDir, 'documents');
    this.logger = options.logger ?? createLogger('documents-embedded');
    this.fsync = options.fsync ?? true;
    this.compactionBytes = options.compactionThresholdBytes ?? DEFAULT_COMPACTION_BYTES;
    this.attempts = options.transactionAttempts ?? 5;
    this.autoCommit = {
      ready: () => this.usable(),
      get: (collection, id) => this.get(collection, id),
      candidates: (collection, filter) => this.candidates(collection, filter),
      write: (collection, changes) => this.commit([{ collection, changes }]),
    };
    this.opening = this.open();
    // Callers see a failed open through ready() or their first operation; never as an unhandled rejection.
    this.opening.catch(() => undefined);
  }

  collection<T extends Doc>(name: string, spec: CollectionSpec = {}): Collection<T> {
    const specs = this.declared.get(name) ?? [];
    for (const index of spec.indexes ?? []) {
      if (specs.some((s) => indexName(s) === indexName(index))) continue;
      specs.push(index);
      if (this.writer) this.addIndex(name, index);
    }
    this.declared.set(name, specs);
    return new EmbeddedCollection<T>(name, this.autoCommit);
  }

  async nextSequence(name: string, start = 1): Promise<number> {
    if (!Number.isSafeInteger(start)) throw new Error('a sequence start must be a safe integer');
    await this.usable();
    this.assertWritable();
    const current = this.counters.get(name);
    const value = current === undefined ? start : current + 1;
    this.counters.set(name, value);
    await this.log([['s', name, value]]);
    return value;
  }

  /**
   * Transactions run one at a time; each retries when a concurrent write touched its documents. The next
   * one starts as soon as this one is applied to memory, not when its WAL record is durable: its own
   * record comes later in the log, so it is acknowledged only once this one is durable too, and waiting
   * transactions share one fsync (group commit) instead of paying one each in turn.
   */
  transaction<R>(work: (scope: TransactionScope) => Promise<R>): Promise<R> {
    const applied = this.transactions.then(() => this.runTransaction(work));
    this.transactions = applied.then(
      () => undefined,
      () => undefined,
    );
    return applied.then(async ({ result, durable }) => {
      await durable;
      return result;
    });
  }

  async ready(): Promise<void> {
    try {
      await this.opening;
    } catch (err) {
      throw new Error(`embedded document store at ${this.dir} failed to open: ${(err as Error).message}`);
    }
    if (this.closed) throw new Error('embedded document store is closed');
  }

  async healthy(): Promise<boolean> {
    return this.writer !== undefined && !this.closed && this.writer.failure === undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.opening;
    } catch {
      return;
    }
    await this.transactions;
    await this.compaction;
    await this.writer?.close();
    this.releaseLock?.();
    this.logger.info({ dir: this.dir }, 'embedded document store closed');
  }

  // --- CommittedView ---

  get(collection: string, id: string): Doc | undefined {
    return this.states.get(collection)?.docs.get(id);
  }

  candidates(collection: string, filter: Filter): Iterable<Doc> {
    return this.states.get(collection)?.candidates(filter) ?? [];
  }

  state(collection: string): CollectionState {
    let state = this.states.get(collection);
    if (!state) {
      state = new CollectionState(collection);
      this.states.set(collection, state);
    }
    return state;
  }

  // --- internals ---

  private async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    this.releaseLock = acquireLock(this.dir);
    try {
      const recovered = await recover(
        this.dir,
        {
          loadDoc: (collection, id, doc) => this.state(collection).load(doc, id),
          loadCounter: (name, value) =>
            this.counters.set(name, Math.max(value, this.counters.get(name) ?? value)),
        },
        this.logger,
      );
      for (const [name, specs] of this.declared) for (const spec of specs) this.addIndex(name, spec);
      const handle = await open(join(this.dir, walFileName(recovered.gen)), 'a', PRIVATE_FILE_MODE);
      if (this.fsync) await fsyncDir(this.dir);
      this.gen = recovered.gen;
      this.walBytes = recovered.walBytes;
      this.writer = new WalWriter(this.dir, handle, this.gen, this.fsync, this.logger);
      this.logger.info(
        { dir: this.dir, collections: this.states.size, replayedRecords: recovered.records },
        'embedded document store open',
      );
    } catch (err) {
      this.releaseLock();
      throw err;
    }
  }

  private addIndex(collection: string, spec: IndexSpec): void {
    const state = this.state(collection);
    state.addIndex(spec);
    if (state.brokenIndex) {
      this.logger.error(
        { collection, err: state.brokenIndex },
        'unique index cannot be built; writes refused',
      );
    }
  }

  private async usable(): Promise<void> {
    if (this.closed) throw new Error('embedded document store is closed');
    await this.ready();
  }

  private assertWritable(): void {
    if (this.closed) throw new Error('embedded document store is closed');
    if (this.writer?.failure) throw this.writer.failure;
  }

  /**
   * Validates every change (versions and unique indexes) and applies them all, synchronously; the returned
   * promise resolves when their single WAL record is durable. Throws before changing anything.
   */
  private commit(groups: Array<{ collection: string; changes: Change[] }>): Promise<void> {
    this.assertWritable();
    const checked: Array<[CollectionState, ChangeSet]> = [];
    for (const { collection, changes } of groups) {
      const state = this.state(collection);
      const set: ChangeSet = new Map();
      for (const change of changes) {
        const current = state.docs.get(change.id);
        if (current !== change.before) {
          if (change.before === undefined) throw new DuplicateKeyError(collection, '_id_');
          throw new WriteConflictError(collection, change.id);
        }
        set.set(change.id, change.after);
      }
      state.checkUnique(set);
      checked.push([state, set]);
    }
    const ops: WalOp[] = [];
    for (const [state, set] of checked) {
      state.apply(set);
      for (const [id, doc] of set) ops.push(doc ? ['p', state.name, doc] : ['d', state.name, id]);
    }
    if (ops.length === 0) return Promise.resolve();
    return this.log(ops);
  }

  /** Queues one WAL record (call only after applying it to memory, in the same synchronous step). */
  private log(ops: WalOp[]): Promise<void> {
    const line = JSON.stringify({ w: ops });
    const { durable } = this.writer!.append(line, this.gen);
    this.walBytes += line.length + 1;
    if (this.walBytes >= this.compactionBytes && !this.compaction) this.startCompaction();
    return durable;
  }

  /**
   * Rotates to a new WAL generation and snapshots the state as of the rotation. Capturing is synchronous
   * (documents are immutable, so arrays of references suffice); writing happens in the background.
   */
  private startCompaction(): void {
    const baseGen = ++this.gen;
    this.walBytes = 0;
    const image: SnapshotImage = {
      baseGen,
      collections: [...this.states].map(([name, state]) => [name, [...state.docs.values()]]),
      counters: [...this.counters],
    };
    const previousWritten = this.writer!.barrier();
    const started = Date.now();
    this.compaction = (async () => {
      // The snapshot must not claim records whose WAL write failed, so wait until they are durable.
      await previousWritten;
      await writeSnapshot(this.dir, image, this.fsync);
      for (const name of await readdir(this.dir)) {
        const gen = walGeneration(name);
        if (gen !== undefined && gen < baseGen) await rm(join(this.dir, name), { force: true });
      }
      if (this.fsync) await fsyncDir(this.dir);
      this.logger.info({ baseGen, ms: Date.now() - started }, 'documents compacted into a snapshot');
    })()
      .catch((err: unknown) => {
        // The old snapshot and every WAL since are still there, so nothing is lost; the next threshold retries.
        this.logger.error({ err }, 'documents compaction failed');
      })
      .finally(() => {
        this.compaction = undefined;
      });
  }

  /** Runs `work` until it commits; resolves once its changes are applied, with the promise of their durability. */
  private async runTransaction<R>(
    work: (scope: TransactionScope) => Promise<R>,
  ): Promise<{ result: R; durable: Promise<void> }> {
    await this.usable();
    for (let attempt = 1; ; attempt++) {
      const overlay = new TransactionOverlay(this);
      const scope: TransactionScope = {
        collection: <T extends Doc>(name: string) => new EmbeddedCollection<T>(name, overlay),
      };
      let result: R;
      try {
        result = await work(scope);
      } catch (err) {
        overlay.abandon();
        throw err;
      }
      try {
        const groups = overlay
          .finish()
          .map(({ collection, changes }) => ({
            collection,
            // A document inserted and deleted inside the transaction leaves nothing to write.
            changes: changes.filter((c) => !(c.before === undefined && c.after === null)),
          }))
          .filter((g) => g.changes.length > 0);
        const durable = this.commit(groups);
        // Awaited by transaction(); marked handled here so a failed fsync is not reported before then.
        durable.catch(() => undefined);
        return { result, durable };
      } catch (err) {
        if (!(err instanceof WriteConflictError) || attempt >= this.attempts) throw err;
        this.logger.debug({ attempt, err }, 'transaction met a concurrent write; retrying');
      }
    }
  }
}
