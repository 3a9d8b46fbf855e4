// The embedded document store on SQLite: one database file per service, <dataDir>/documents.sqlite.
//
// Two connections. Every write goes through the writing one, one at a time, in the order callers asked
// (a queue): writes waiting together share one SQLite transaction, each in a savepoint of its own so one
// refused write leaves the others, and all are acknowledged after that transaction's single commit
// (group commit: one fsync for many writers). A port transaction holds the writing connection from its
// BEGIN to its COMMIT, across the awaits of its work; writes from outside it wait in the queue. Reads
// outside a transaction use the other connection, which in WAL mode sees only committed data: a
// transaction's writes stay invisible to them until it commits.
//
// Durability: WAL journal with synchronous=NORMAL, and when `fsync` is on (the default) no write is
// acknowledged before the WAL file holding its commit is flushed to disk (wal-sync.ts: fdatasync off the
// event loop, shared by the commits made meanwhile), so an acknowledged write survives power loss as well
// as kill -9. Reads may see a commit a moment before its flush ends, as with the old in-memory store. With
// FSYNC=false nothing waits for the disk: commits survive the process being killed (the WAL is in the
// OS's cache) but the last ones may be lost with the machine.
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../data-dir/modes';
import { createLogger } from '../../logging/logger';
import type {
  Collection,
  CollectionSpec,
  Doc,
  DocumentStore,
  Filter,
  IndexSpec,
  Sort,
  TransactionScope,
} from '../../ports/documents';
import { indexName, validateFilter } from '../documents-shared';
import { type Access, SqliteCollection } from './collection';
import { Connection } from './connection';
import { migrateLegacyFolder } from './migrate';
import { type Plan, planQuery } from './plan';
import {
  BOOKKEEPING,
  type CollectionMeta,
  createCollection,
  createIndex,
  dropIndex,
  loadSchema,
  sameSpec,
} from './schema';
import { WalSync } from './wal-sync';
import { registerUnique } from './writes';

export const DATABASE_FILE = 'documents.sqlite';

export interface SqliteDocumentStoreOptions {
  /** The service's own folder (<DATA_DIR>/<service>). */
  dataDir: string;
  logger?: Logger;
  /** synchronous=FULL (default) or NORMAL; see the top of this file. */
  fsync?: boolean;
}

interface Job {
  kind: 'write' | 'transaction';
  run: (() => unknown) | ((scope: TransactionScope) => Promise<unknown>);
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The transaction a piece of async work runs inside, if any. */
interface OpenTransaction {
  store: SqliteDocumentStore;
  open: boolean;
}

const inTransaction = new AsyncLocalStorage<OpenTransaction>();

/** How a query would be answered: the adapter's plan and SQLite's own EXPLAIN QUERY PLAN lines. */
export interface QueryExplanation {
  kind: Plan['kind'];
  index?: string;
  sqlite: string[];
}

export class SqliteDocumentStore implements DocumentStore {
  /** 'embedded' is the configuration's name for the default, one-machine adapter. */
  readonly kind = 'embedded';
  readonly file: string;
  private readonly logger: Logger;
  private readonly fsync: boolean;
  private readonly declared = new Map<string, IndexSpec[]>();
  /** A unique index that existing documents break: the collection's writes fail with this. */
  private readonly broken = new Map<string, Error>();
  private schema = new Map<string, CollectionMeta>();
  private writer: Connection | undefined;
  private reader: Connection | undefined;
  private walSync: WalSync | undefined;
  private readonly opening: Promise<void>;
  private queue: Job[] = [];
  private pumping: Promise<void> | undefined;
  private savepoints = 0;
  /** The writing connection's view of other connections' commits (see followOthers). */
  private dataVersion = 0;
  private closed = false;
  /** Set once open() has finished (until then, open() itself builds every declared index). */
  private opened = false;

  constructor(private readonly options: SqliteDocumentStoreOptions) {
    this.file = join(options.dataDir, DATABASE_FILE);
    this.logger = options.logger ?? createLogger('documents-sqlite');
    this.fsync = options.fsync ?? true;
    this.opening = this.open();
    // Callers see a failed open through ready() or their first operation; never as an unhandled rejection.
    this.opening.catch(() => undefined);
  }

  collection<T extends Doc>(name: string, spec: CollectionSpec = {}): Collection<T> {
    const specs = this.declared.get(name) ?? [];
    let added = false;
    for (const index of spec.indexes ?? []) {
      if (specs.some((s) => indexName(s) === indexName(index))) continue;
      specs.push(index);
      added = true;
    }
    this.declared.set(name, specs);
    // Indexes are built now rather than at the first write, so reads use them from the start.
    if (added && this.opened) this.enqueue('write', () => this.ensure(name)).catch(() => undefined);
    return new SqliteCollection<T>(name, this.committed);
  }

  async nextSequence(name: string, start = 1): Promise<number> {
    if (!Number.isSafeInteger(start)) throw new Error('a sequence start must be a safe integer');
    return this.write(() => {
      const row = this.writer!.get<{ value: number }>(
        'INSERT INTO _sequences (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value',
        [name, start],
      );
      return row!.value;
    });
  }

  async transaction<R>(work: (scope: TransactionScope) => Promise<R>): Promise<R> {
    await this.usable();
    const current = inTransaction.getStore();
    // A transaction started from inside another one's work would wait for it forever: it runs inside it
    // instead, in a savepoint (its writes commit with the outer one).
    if (current?.store === this && current.open) return this.nested(current, work);
    return this.enqueue('transaction', work as (scope: TransactionScope) => Promise<unknown>) as Promise<R>;
  }

  async ready(): Promise<void> {
    try {
      await this.opening;
    } catch (err) {
      throw new Error(`SQLite document store ${this.file} failed to open: ${(err as Error).message}`);
    }
    if (this.closed) throw new Error('SQLite document store is closed');
  }

  async healthy(): Promise<boolean> {
    if (this.closed || !this.reader) return false;
    try {
      return this.reader.get<{ ok: number }>('SELECT 1 AS ok')?.ok === 1;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.opening;
    } catch {
      return;
    }
    while (this.pumping) await this.pumping;
    await this.walSync?.close();
    this.reader?.close();
    this.writer?.close();
    this.logger.info({ file: this.file }, 'SQLite document store closed');
  }

  /** How `find(filter, {sort})` on `collection` would be answered (the architecture test flags scans). */
  async explain(collection: string, filter: Filter, sort?: Sort): Promise<QueryExplanation> {
    validateFilter(filter);
    await this.usable();
    const meta = this.schema.get(collection);
    if (!meta || meta.pending) return { kind: 'scan', sqlite: [] };
    const plan = planQuery(meta, filter, sort, false);
    const rows = this.reader!.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${plan.sql}`, plan.params);
    return { kind: plan.kind, index: plan.index, sqlite: rows.map((r) => r.detail) };
  }

  // --- access for collections ---

  /** Auto-commit access: reads see committed data; writes queue (or join the transaction they run in). */
  private readonly committed: Access = {
    read: async (name, work) => {
      await this.usable();
      // While this store's own transaction is open no other process can commit (it began by checking).
      if (!this.writer!.db.inTransaction) this.followOthers();
      const meta = this.schema.get(name);
      return work(this.reader!, meta && !meta.pending ? meta : undefined, false);
    },
    write: async (name, work) => this.write(() => work(this.writer!, this.ensure(name))),
  };

  private scopeAccess(tx: OpenTransaction): Access {
    const check = () => {
      if (!tx.open) throw new Error('transaction scope used after its transaction ended');
    };
    return {
      read: async (name, work) => {
        check();
        return work(this.writer!, this.schema.get(name), true);
      },
      write: async (name, work) => {
        check();
        return work(this.writer!, this.ensure(name));
      },
    };
  }

  private async write<R>(work: () => R): Promise<R> {
    await this.usable();
    const current = inTransaction.getStore();
    // A write from inside a transaction's work but not through its scope would wait for that transaction
    // forever; it joins it instead (and commits or rolls back with it).
    if (current?.store === this && current.open) return work();
    return this.enqueue('write', work) as Promise<R>;
  }

  private enqueue(kind: Job['kind'], run: Job['run']): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('SQLite document store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, run, resolve, reject });
      this.schedule();
    });
  }

  /** Runs the queue on the next turn, so that the writes issued together (Promise.all) share one commit. */
  private schedule(): void {
    if (this.pumping) return;
    this.pumping = new Promise<void>((done) => setImmediate(() => void this.pump().finally(done))).finally(
      () => {
        this.pumping = undefined;
        if (this.queue.length > 0) this.schedule();
      },
    );
  }

  private async pump(): Promise<void> {
    while (this.queue.length > 0) {
      if (this.queue[0]!.kind === 'transaction') {
        await this.runTransaction(this.queue.shift()!);
        continue;
      }
      const batch: Job[] = [];
      while (batch.length < 1000 && this.queue[0]?.kind === 'write') batch.push(this.queue.shift()!);
      this.runBatch(batch);
    }
  }

  private runBatch(batch: Job[]): void {
    const db = this.writer!;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
    try {
      db.begin();
      this.followOthers();
      for (const job of batch) {
        try {
          outcomes.push({ ok: true, value: (job.run as () => unknown)() });
        } catch (err) {
          outcomes.push({ ok: false, err });
        }
      }
      db.commit();
    } catch (err) {
      db.rollback();
      this.schemaRolledBack();
      for (const job of batch) job.reject(err);
      return;
    }
    this.schemaCommitted();
    this.durable().then(
      () => {
        for (const [i, job] of batch.entries()) {
          const outcome = outcomes[i]!;
          if (outcome.ok) job.resolve(outcome.value);
          else job.reject(outcome.err);
        }
      },
      (err) => {
        for (const job of batch) job.reject(err);
      },
    );
  }

  /** Resolves once the commits made so far are on disk (at once with FSYNC=false). */
  private durable(): Promise<void> {
    return this.fsync ? this.walSync!.flush() : Promise.resolve();
  }

  private async runTransaction(job: Job): Promise<void> {
    const db = this.writer!;
    const tx: OpenTransaction = { store: this, open: true };
    const scope: TransactionScope = {
      collection: <T extends Doc>(name: string) => new SqliteCollection<T>(name, this.scopeAccess(tx)),
    };
    try {
      db.begin();
      this.followOthers();
      const result = await inTransaction.run(tx, () =>
        (job.run as (s: TransactionScope) => Promise<unknown>)(scope),
      );
      tx.open = false;
      db.commit();
      this.schemaCommitted();
      this.durable().then(() => job.resolve(result), job.reject);
    } catch (err) {
      tx.open = false;
      db.rollback();
      this.schemaRolledBack();
      job.reject(err);
    }
  }

  private async nested<R>(tx: OpenTransaction, work: (scope: TransactionScope) => Promise<R>): Promise<R> {
    const name = `nested_${++this.savepoints}`;
    const db = this.writer!.db;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work({
        collection: <T extends Doc>(collection: string) =>
          new SqliteCollection<T>(collection, this.scopeAccess(tx)),
      });
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (err) {
      if (tx.open) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
      }
      throw err;
    }
  }

  // --- schema ---

  /** The collection's table and declared indexes, created as needed (on the writing connection). */
  private ensure(name: string): CollectionMeta {
    const broken = this.broken.get(name);
    if (broken) throw broken;
    const db = this.writer!;
    let meta = this.schema.get(name);
    if (!meta) {
      meta = createCollection(db, name);
      this.schema.set(name, meta);
    }
    for (const spec of this.declared.get(name) ?? []) {
      const existing = meta.indexes.find((i) => i.name === indexName(spec));
      if (existing && sameSpec(existing.spec, spec)) continue;
      const target = meta;
      try {
        db.atomically(() => {
          if (existing) dropIndex(db, target, existing);
          createIndex(db, target, spec);
        });
      } catch (err) {
        this.schemaRolledBack();
        const failure = new Error(
          `cannot build index ${indexName(spec)} on ${name}: ${(err as Error).message}`,
        );
        this.logger.error(
          { collection: name, err: failure },
          'index cannot be built; writes to the collection refused',
        );
        this.broken.set(name, failure);
        throw failure;
      }
      registerUnique(meta);
    }
    return meta;
  }

  /**
   * Another process may write the same file (a script beside a running server): SQLite keeps that safe, but
   * this store's picture of the key tables (which exist, which are multikey) would go stale, and a write
   * would then skip an index another process created. data_version changes when another connection commits,
   * so the picture is read again then.
   */
  private followOthers(): void {
    const version = this.writer!.dataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.schemaRolledBack();
  }

  private schemaCommitted(): void {
    for (const meta of this.schema.values()) {
      meta.pending = false;
      for (const index of meta.indexes) index.pending = false;
    }
  }

  /**
   * After a rollback the database's own record of its tables is the truth. Inside a transaction still open
   * (a savepoint was rolled back) that record includes the transaction's own tables, which stay pending.
   */
  private schemaRolledBack(): void {
    if (!this.writer) return;
    const before = this.schema;
    this.schema = loadSchema(this.writer);
    const open = this.writer.db.inTransaction;
    for (const meta of this.schema.values()) {
      const old = before.get(meta.name);
      if (open && (!old || old.pending)) meta.pending = true;
      for (const index of meta.indexes) {
        const oldIndex = old?.indexes.find((i) => i.name === index.name);
        if (open && (!oldIndex || oldIndex.pending)) index.pending = true;
      }
      registerUnique(meta);
    }
  }

  // --- opening ---

  private async usable(): Promise<void> {
    if (this.closed) throw new Error('SQLite document store is closed');
    await this.ready();
    if (this.walSync?.failure) throw this.walSync.failure;
  }

  private async open(): Promise<void> {
    mkdirSync(this.options.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // SQLite gives its -wal and -shm files the database file's mode, so creating it 0600 covers all three.
    if (!existsSync(this.file)) closeSync(openSync(this.file, 'a', PRIVATE_FILE_MODE));
    const writer = new Connection(new Database(this.file));
    try {
      writer.db.pragma('journal_mode = WAL');
      writer.db.pragma('synchronous = NORMAL');
      writer.db.pragma('busy_timeout = 5000');
      writer.db.exec(BOOKKEEPING);
      this.writer = writer;
      this.walSync = new WalSync(`${this.file}-wal`);
      await migrateLegacyFolder(writer, this.options.dataDir, this.logger);
      this.schema = loadSchema(writer);
      for (const meta of this.schema.values()) registerUnique(meta);
      const reader = new Connection(new Database(this.file));
      reader.db.pragma('query_only = ON');
      reader.db.pragma('busy_timeout = 5000');
      this.reader = reader;
      writer.db.exec('BEGIN IMMEDIATE');
      try {
        for (const name of this.declared.keys()) this.ensure(name);
        writer.db.exec('COMMIT');
      } finally {
        if (writer.db.inTransaction) writer.db.exec('ROLLBACK');
      }
      this.schemaCommitted();
      this.dataVersion = writer.dataVersion();
      this.opened = true;
      this.logger.info({ file: this.file, collections: this.schema.size }, 'SQLite document store open');
    } catch (err) {
      await this.walSync?.close();
      this.walSync = undefined;
      this.reader?.close();
      writer.close();
      this.writer = undefined;
      this.reader = undefined;
      throw err;
    }
  }
}
