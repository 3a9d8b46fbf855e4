// The documents port on MongoDB through mongoose's connection, using the native driver collections
// (schemaless; _id is a string we generate). Commands are not buffered: an operation made while the server
// is unreachable fails after server selection times out instead of queueing without bound.
//
// Transactions are the server's own on a replica set or sharded cluster. A standalone mongod and FerretDB
// have none; there, with `transactions: 'journal'`, they are journaled (journal.ts: all or nothing across
// errors and crashes, but no isolation), and otherwise ready() refuses the server, saying how to get real
// transactions (a one-node replica set is enough) or to opt in to the journal.
import mongoose from 'mongoose';
import type { Logger } from 'pino';
import { createLogger } from '../../logging/logger';
import type {
  Collection,
  CollectionSpec,
  Doc,
  DocumentStore,
  IndexSpec,
  TransactionScope,
} from '../../ports/documents';
import { indexName } from '../documents-shared';
import { MongoBackend, MongoCollection } from './collection';
import { redactUri, translateError } from './errors';
import { Journal, type JournalOptions } from './journal';

export interface MongoDocumentStoreOptions {
  uri: string;
  dbName?: string;
  logger?: Logger;
  /** How long an operation waits for a usable server before failing (default 10 s). */
  serverSelectionTimeoutMS?: number;
  /**
   * On a server without multi-document transactions: 'journal' journals them (no isolation), 'server'
   * (the default) makes ready() refuse the server. A server with transactions always uses its own.
   */
  transactions?: 'server' | 'journal';
  journal?: JournalOptions;
}

type NativeCollection = mongoose.mongo.Collection<Doc>;
type ClientSession = mongoose.mongo.ClientSession;

interface CounterDoc {
  _id: string;
  seq: number;
  start: number;
}

const COUNTERS = 'counters';
const HEALTH_TIMEOUT_MS = 2000;

export class MongoDocumentStore implements DocumentStore, MongoBackend {
  readonly kind = 'mongodb';
  private readonly conn: mongoose.Connection;
  private readonly logger: Logger;
  private readonly where: string;
  private readonly opening: Promise<void>;
  private transactionsSupported = false;
  /** FerretDB (its buildInfo says so): no partial indexes, and unique indexes leave out missing fields. */
  private ferretdb = false;
  private readonly transactionsMode: 'server' | 'journal';
  private readonly journal: Journal;
  private recovered?: Promise<void>;
  private sweeper?: NodeJS.Timeout;
  private closed = false;
  /** The last write queued on FerretDB: each next one starts after it. */
  private writes: Promise<void> = Promise.resolve();
  private readonly declared = new Map<string, Map<string, IndexSpec>>();
  private readonly indexesReady = new Map<string, Promise<void>>();

  constructor(options: MongoDocumentStoreOptions) {
    this.logger = options.logger ?? createLogger('documents-mongo');
    this.where = redactUri(options.uri);
    this.transactionsMode = options.transactions ?? 'server';
    this.journal = new Journal(
      () => this.db(),
      (write) => this.serialize(write),
      this.logger,
      options.journal,
    );
    this.conn = mongoose.createConnection(options.uri, {
      ...(options.dbName ? { dbName: options.dbName } : {}),
      bufferCommands: false,
      autoIndex: false,
      autoCreate: false,
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 10_000,
    });
    this.conn.on('disconnected', () => this.logger.warn({ where: this.where }, 'MongoDB disconnected'));
    this.conn.on('reconnected', () => this.logger.info({ where: this.where }, 'MongoDB reconnected'));
    this.conn.on('error', (err: unknown) =>
      this.logger.error({ err, where: this.where }, 'MongoDB connection error'),
    );
    this.opening = this.open();
    this.opening.catch(() => undefined);
  }

  collection<T extends Doc>(name: string, spec: CollectionSpec = {}): Collection<T> {
    const known = this.declared.get(name) ?? new Map<string, IndexSpec>();
    this.declared.set(name, known);
    const fresh = (spec.indexes ?? []).filter((index) => !known.has(indexName(index)));
    for (const index of fresh) known.set(indexName(index), index);
    if (fresh.length > 0) {
      const previous = this.indexesReady.get(name) ?? Promise.resolve();
      const next = previous.then(() => this.createIndexes(name, fresh));
      next.catch((err: unknown) =>
        this.logger.error({ err, collection: name }, 'creating indexes failed; operations on it will fail'),
      );
      this.indexesReady.set(name, next);
    }
    return new MongoCollection<T>(name, this);
  }

  async nextSequence(name: string, start = 1): Promise<number> {
    if (!Number.isSafeInteger(start)) throw new Error('a sequence start must be a safe integer');
    await this.opening;
    return this.serialize(() => this.increment(name, start));
  }

  private async increment(name: string, start: number): Promise<number> {
    // Majority write concern: an increment acknowledged by a primary that then fails over could be rolled
    // back and the value handed out twice.
    const counters = this.db().collection<CounterDoc>(COUNTERS, {
      writeConcern: { w: 'majority', journal: true },
    });
    for (let attempt = 1; ; attempt++) {
      try {
        const doc = await counters.findOneAndUpdate(
          { _id: name },
          { $inc: { seq: 1 }, $setOnInsert: { start } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!doc) throw new Error(`counter ${name} was not returned`);
        return doc.start + doc.seq - 1;
      } catch (err) {
        // Two first-ever increments can race to insert the counter; the loser retries as an update.
        if (attempt < 3 && (err as { code?: unknown }).code === 11000) continue;
        throw translateError(COUNTERS, err);
      }
    }
  }

  async transaction<R>(work: (scope: TransactionScope) => Promise<R>): Promise<R> {
    await this.ready();
    if (!this.transactionsSupported) return this.journaled(work);
    const session = this.conn.getClient().startSession();
    try {
      let result: R | undefined;
      // withTransaction retries `work` on transient errors (write conflicts, elections), as the embedded
      // store retries on write conflicts: work must be safe to run again.
      await session.withTransaction(
        async () => {
          const scope: TransactionScope = {
            collection: <T extends Doc>(name: string) => new MongoCollection<T>(name, this, session),
          };
          result = await work(scope);
        },
        { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' }, readPreference: 'primary' },
      );
      return result as R;
    } finally {
      await session.endSession();
    }
  }

  async ready(): Promise<void> {
    try {
      await this.opening;
    } catch (err) {
      throw new Error(`MongoDB at ${this.where} is unreachable: ${(err as Error).message}`);
    }
    if (this.transactionsSupported) return;
    if (this.transactionsMode !== 'journal') {
      throw new Error(
        `MongoDB at ${this.where} is ${this.ferretdb ? 'FerretDB' : 'a standalone server'}: the documents ` +
          'port needs multi-document transactions, which MongoDB offers only on a replica set or sharded ' +
          'cluster. Run mongod with --replSet (a one-node replica set is enough) and initiate it with ' +
          'rs.initiate(). To run on this server anyway with journaled transactions (all or nothing, but ' +
          "other readers see a transaction's writes before it ends), set MONGODB_TRANSACTIONS=journal.",
      );
    }
    if (!this.recovered) {
      const recovering = this.startJournal();
      this.recovered = recovering;
      // A server lost during recovery is asked again at the next ready(), not refused for good.
      recovering.catch(() => {
        if (this.recovered === recovering) this.recovered = undefined;
      });
    }
    await this.recovered;
  }

  async healthy(): Promise<boolean> {
    try {
      await this.opening;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('ping timed out')), HEALTH_TIMEOUT_MS);
      });
      try {
        await Promise.race([this.db().command({ ping: 1 }), timeout]);
      } finally {
        clearTimeout(timer);
      }
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await this.recovered?.catch(() => undefined);
    await this.opening.catch(() => undefined);
    await this.conn.close();
    this.logger.info({ where: this.where }, 'MongoDB document store closed');
  }

  // --- MongoBackend ---

  async native(name: string): Promise<NativeCollection> {
    await this.opening;
    const indexes = this.indexesReady.get(name);
    if (indexes) {
      try {
        await indexes;
      } catch {
        // Made while the server was away (a restart): not the indexes' fault, and a failure kept for good
        // would fail this collection until the process restarts. Made again, all of them (idempotent);
        // an index the server refuses fails each operation with its reason, as before.
        const again = this.createIndexes(name, [...(this.declared.get(name)?.values() ?? [])]);
        again.catch(() => undefined);
        this.indexesReady.set(name, again);
        try {
          await again;
        } catch (err) {
          throw new Error(`indexes of collection ${name} could not be created: ${(err as Error).message}`);
        }
      }
    }
    return this.db().collection<Doc>(name);
  }

  inOwnTransaction<R>(fn: (session: ClientSession) => Promise<R>): Promise<R> | undefined {
    if (!this.transactionsSupported) return undefined;
    return (async () => {
      const session = this.conn.getClient().startSession();
      try {
        let result: R | undefined;
        await session.withTransaction(async () => {
          result = await fn(session);
        });
        return result as R;
      } finally {
        await session.endSession();
      }
    })();
  }

  /**
   * FerretDB v1.24.2 applies an update (and findAndModify) as a read, then an unconditional write of the
   * changed document: two concurrent updates of one document lose one, and a conditional update can
   * apply after its condition stopped holding (100 concurrent "uses < 7" increments admitted 15; 200
   * concurrent sequence increments gave 84 distinct values). So on FerretDB a store makes its writes one at
   * a time. That holds within one process; cluster mode gives each service database one process.
   */
  async serialize<R>(write: () => Promise<R>): Promise<R> {
    // A failed connection is reported by the write itself (native() says the server is unreachable).
    await this.opening.catch(() => undefined);
    if (!this.ferretdb) return write();
    const previous = this.writes;
    let done!: () => void;
    this.writes = new Promise<void>((resolve) => {
      done = resolve;
    });
    await previous;
    try {
      return await write();
    } finally {
      done();
    }
  }

  pushesDownOnlyIds(): boolean {
    return this.ferretdb;
  }

  dropsEmptyOnInsert(): boolean {
    return this.ferretdb;
  }

  uniqueIndexes(name: string): IndexSpec[] {
    return [...(this.declared.get(name)?.values() ?? [])].filter((spec) => spec.unique);
  }

  warn(message: string, details: Record<string, unknown>): void {
    this.logger.warn(details, message);
  }

  // --- internals ---

  private db(): mongoose.mongo.Db {
    const db = this.conn.db;
    if (!db) throw new Error(`MongoDB at ${this.where} is not connected`);
    return db;
  }

  private async open(): Promise<void> {
    await this.conn.asPromise();
    const hello = (await this.db().admin().command({ hello: 1 })) as { setName?: unknown; msg?: unknown };
    this.transactionsSupported = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    const build = (await this.db().admin().command({ buildInfo: 1 })) as { ferretdbVersion?: unknown };
    this.ferretdb = typeof build.ferretdbVersion === 'string';
    this.logger.info(
      {
        where: this.where,
        db: this.db().databaseName,
        transactions: this.transactionsSupported ? 'server' : this.transactionsMode,
        ...(this.ferretdb ? { ferretdb: build.ferretdbVersion } : {}),
      },
      'MongoDB document store connected',
    );
  }

  /**
   * Journaled transactions: first roll back what crashed processes left (journals whose lease ran out),
   * then keep looking every few seconds, since a process on another machine may die at any time.
   */
  private async startJournal(): Promise<void> {
    this.logger.warn(
      { where: this.where },
      'MongoDB here has no multi-document transactions: running them journaled (all or nothing across ' +
        "errors and crashes, but without isolation: other readers may see a transaction's writes before " +
        'it ends, and act on writes it later undoes)',
    );
    await this.journal.settle((journals, waitMs) =>
      this.logger.warn(
        { journals, waitMs },
        'transactions of a stopped process are not rolled back yet; waiting for their leases to run out before writing',
      ),
    );
    this.sweeper = setInterval(() => {
      if (this.closed) return;
      this.journal.sweep().catch((err: unknown) => {
        if (!this.closed)
          this.logger.warn({ err }, 'looking for abandoned transactions failed; trying again');
      });
    }, this.journal.sweepEveryMs);
    this.sweeper.unref();
  }

  private async journaled<R>(work: (scope: TransactionScope) => Promise<R>): Promise<R> {
    const tx = await this.journal.begin();
    const scope: TransactionScope = {
      collection: <T extends Doc>(name: string) => new MongoCollection<T>(name, this, undefined, tx),
    };
    let result: R;
    try {
      result = await work(scope);
    } catch (err) {
      await tx
        .rollBack()
        .catch((rollbackErr: unknown) =>
          this.logger.error(
            { err: rollbackErr, transaction: tx.id },
            'rolling back a failed transaction failed; it is rolled back once its lease runs out',
          ),
        );
      throw err;
    }
    await tx.commit();
    return result;
  }

  private async createIndexes(name: string, specs: IndexSpec[]): Promise<void> {
    await this.opening;
    const models = specs.map(
      (spec): mongoose.mongo.IndexDescription => ({
        key: spec.fields,
        name: indexName(spec),
        unique: spec.unique ?? false,
        // The port's "sparse" means every indexed field exists; MongoDB's own sparse flag means any one
        // does, so a partial filter expresses it exactly. FerretDB refuses partial filters ("not
        // implemented yet") but its unique indexes leave out documents lacking an indexed field, which is
        // the port's sparse; a non-unique index only serves lookups, sparse or not.
        ...(spec.sparse && !this.ferretdb
          ? {
              partialFilterExpression: Object.fromEntries(
                Object.keys(spec.fields).map((field) => [field, { $exists: true }]),
              ),
            }
          : {}),
      }),
    );
    // One index per command: FerretDB v1.24.2 drops the connection (a panic, "slice bounds out of range")
    // when one createIndexes names two or more indexes that all exist already, which is every start of a
    // service after its first.
    const collection = this.db().collection(name);
    for (const model of models) await collection.createIndexes([model]);
  }
}
