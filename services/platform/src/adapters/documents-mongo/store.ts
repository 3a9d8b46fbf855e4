// The documents port on MongoDB through mongoose's connection, using the native driver collections
// (schemaless; _id is a string we generate). Commands are not buffered: an operation made while the server
// is unreachable fails after server selection times out instead of queueing without bound.
//
// Transactions need a replica set (or a sharded cluster): MongoDB offers no multi-document transactions on
// a standalone server. ready() says so plainly when pointed at one; a one-node replica set is enough
// (mongod --replSet rs0, then rs.initiate()).
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

export interface MongoDocumentStoreOptions {
  uri: string;
  dbName?: string;
  logger?: Logger;
  /** How long an operation waits for a usable server before failing (default 10 s). */
  serverSelectionTimeoutMS?: number;
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
  private readonly declared = new Map<string, Set<string>>();
  private readonly indexesReady = new Map<string, Promise<void>>();

  constructor(options: MongoDocumentStoreOptions) {
    this.logger = options.logger ?? createLogger('documents-mongo');
    this.where = redactUri(options.uri);
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
    const known = this.declared.get(name) ?? new Set<string>();
    this.declared.set(name, known);
    const fresh = (spec.indexes ?? []).filter((index) => !known.has(indexName(index)));
    for (const index of fresh) known.add(indexName(index));
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
    if (!this.transactionsSupported) {
      throw new Error(
        `MongoDB at ${this.where} is a standalone server: the documents port needs multi-document ` +
          'transactions, which MongoDB offers only on a replica set or sharded cluster. Run mongod with ' +
          '--replSet (a one-node replica set is enough) and initiate it with rs.initiate().',
      );
    }
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
      } catch (err) {
        throw new Error(`indexes of collection ${name} could not be created: ${(err as Error).message}`);
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
    this.logger.info(
      { where: this.where, db: this.db().databaseName, transactions: this.transactionsSupported },
      'MongoDB document store connected',
    );
  }

  private async createIndexes(name: string, specs: IndexSpec[]): Promise<void> {
    await this.opening;
    await this.db()
      .collection(name)
      .createIndexes(
        specs.map((spec) => ({
          key: spec.fields,
          name: indexName(spec),
          unique: spec.unique ?? false,
          // The port's "sparse" means every indexed field exists; MongoDB's own sparse flag means any one
          // does, so a partial filter expresses it exactly.
          ...(spec.sparse
            ? {
                partialFilterExpression: Object.fromEntries(
                  Object.keys(spec.fields).map((field) => [field, { $exists: true }]),
                ),
              }
            : {}),
        })),
      );
  }
}
