// The Collection API on a native MongoDB collection. Filters, updates and sorts are validated against the
// shared subset (so nothing outside it, e.g. $where, reaches the server) and then passed through; values
// are normalised to plain JSON exactly as the embedded store stores them.
import { randomUUID } from 'node:crypto';
import type mongoose from 'mongoose';
import {
  type Collection,
  type Doc,
  DuplicateKeyError,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type Update,
  type UpdateResult,
} from '../../ports/documents';
import {
  equalityOf,
  normaliseUpdate,
  prepareInsert,
  validateFilter,
  validateSort,
  validateUpdate,
} from '../documents-shared';
import { isDuplicateKey, translateError } from './errors';

type NativeCollection = mongoose.mongo.Collection<Doc>;
type ClientSession = mongoose.mongo.ClientSession;
type NativeFilter = mongoose.mongo.Filter<Doc>;
type NativeUpdate = mongoose.mongo.UpdateFilter<Doc>;
type NewDoc<T extends Doc> = Omit<T, '_id'> & { _id?: string };

/** What a collection needs from its store. */
export interface MongoBackend {
  /** The native collection once connected and its declared indexes exist. */
  native(name: string): Promise<NativeCollection>;
  /** Runs `fn` in a transaction of its own when the deployment supports them; otherwise undefined. */
  inOwnTransaction<R>(fn: (session: ClientSession) => Promise<R>): Promise<R> | undefined;
  warn(message: string, details: Record<string, unknown>): void;
}

export class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly backend: MongoBackend,
    private readonly session?: ClientSession,
  ) {}

  async insertOne(doc: NewDoc<T>): Promise<T> {
    const prepared = prepareInsert(doc);
    const coll = await this.backend.native(this.name);
    await this.run(() => coll.insertOne(prepared, this.options()));
    return prepared as T;
  }

  async insertMany(docs: Array<NewDoc<T>>): Promise<T[]> {
    const prepared = docs.map(prepareInsert);
    if (new Set(prepared.map((d) => d._id)).size !== prepared.length) {
      throw new DuplicateKeyError(this.name, '_id_');
    }
    if (prepared.length === 0) return [];
    const coll = await this.backend.native(this.name);
    if (this.session) {
      await this.run(() => coll.insertMany(prepared, { ordered: true, session: this.session }));
      return prepared as T[];
    }
    const transactional = this.backend.inOwnTransaction(async (session) => {
      await coll.insertMany(prepared, { ordered: true, session });
    });
    if (transactional) {
      await this.run(() => transactional);
      return prepared as T[];
    }
    await this.insertManyCompensating(coll, prepared);
    return prepared as T[];
  }

  async findById(id: string): Promise<T | null> {
    const coll = await this.backend.native(this.name);
    return (await this.run(() => coll.findOne({ _id: id }, this.options()))) as T | null;
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<T | null> {
    validateFilter(filter);
    validateSort(options.sort);
    const coll = await this.backend.native(this.name);
    const found = await this.run(() =>
      coll.findOne(filter as NativeFilter, {
        ...this.options(),
        ...(options.sort ? { sort: options.sort } : {}),
      }),
    );
    return found as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    validateFilter(filter);
    validateSort(options.sort);
    const coll = await this.backend.native(this.name);
    return (await this.run(() =>
      coll
        .find(filter as NativeFilter, {
          ...this.options(),
          ...(options.sort ? { sort: options.sort } : {}),
          ...(options.skip ? { skip: options.skip } : {}),
          ...(options.limit ? { limit: options.limit } : {}),
        })
        .toArray(),
    )) as T[];
  }

  async count(filter: Filter = {}): Promise<number> {
    validateFilter(filter);
    const coll = await this.backend.native(this.name);
    return this.run(() => coll.countDocuments(filter as NativeFilter, this.options()));
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const native = this.prepareUpdate(filter, update, options.upsert ?? false);
    const coll = await this.backend.native(this.name);
    const result = await this.run(() =>
      coll.updateOne(filter as NativeFilter, native, { ...this.options(), upsert: options.upsert ?? false }),
    );
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      ...(result.upsertedCount > 0 && result.upsertedId !== null
        ? { upsertedId: String(result.upsertedId) }
        : {}),
    };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const native = this.prepareUpdate(filter, update, false);
    const coll = await this.backend.native(this.name);
    const result = await this.run(() => coll.updateMany(filter as NativeFilter, native, this.options()));
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<T | null> {
    validateSort(options.sort);
    const native = this.prepareUpdate(filter, update, options.upsert ?? false);
    const coll = await this.backend.native(this.name);
    const found = await this.run(() =>
      coll.findOneAndUpdate(filter as NativeFilter, native, {
        ...this.options(),
        returnDocument: options.returnDocument ?? 'after',
        upsert: options.upsert ?? false,
        ...(options.sort ? { sort: options.sort } : {}),
      }),
    );
    return found as T | null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    validateFilter(filter);
    const coll = await this.backend.native(this.name);
    const result = await this.run(() => coll.deleteOne(filter as NativeFilter, this.options()));
    return result.deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    validateFilter(filter);
    const coll = await this.backend.native(this.name);
    const result = await this.run(() => coll.deleteMany(filter as NativeFilter, this.options()));
    return result.deletedCount;
  }

  private options(): { session?: ClientSession } {
    return this.session ? { session: this.session } : {};
  }

  private async run<R>(op: () => Promise<R>): Promise<R> {
    try {
      return await op();
    } catch (err) {
      throw translateError(this.name, err);
    }
  }

  /**
   * Validates and normalises an update. For an upsert whose filter does not pin _id, MongoDB would make an
   * ObjectId; our _ids are strings, so one is supplied through $setOnInsert.
   */
  private prepareUpdate(filter: Filter, update: Update, upsert: boolean): NativeUpdate {
    validateFilter(filter);
    validateUpdate(update);
    const normalised = normaliseUpdate(update);
    if (upsert && !equalityOf(filter, '_id') && normalised.$setOnInsert?._id === undefined) {
      normalised.$setOnInsert = { ...normalised.$setOnInsert, _id: randomUUID() };
    }
    return normalised as NativeUpdate;
  }

  /**
   * All-or-nothing without transactions (a standalone server): an ordered insert stops at the first
   * failure, so exactly the documents before it were inserted; those are removed again. Readers may glimpse
   * them meanwhile, which a deployment with transactions avoids.
   */
  private async insertManyCompensating(coll: NativeCollection, docs: Doc[]): Promise<void> {
    try {
      await coll.insertMany(docs, { ordered: true });
    } catch (err) {
      const failedAt = firstFailedIndex(err);
      const inserted = docs.slice(0, failedAt ?? docs.length).map((d) => d._id);
      if (inserted.length > 0) {
        this.backend.warn('insertMany failed part-way; removing the documents it inserted', {
          collection: this.name,
          removed: inserted.length,
          duplicate: isDuplicateKey(err),
        });
        await coll.deleteMany({ _id: { $in: inserted } });
      }
      throw translateError(this.name, err);
    }
  }
}

function firstFailedIndex(err: unknown): number | undefined {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  const indexes = list
    .map((w) => (w as { index?: unknown }).index)
    .filter((i): i is number => typeof i === 'number');
  return indexes.length > 0 ? Math.min(...indexes) : undefined;
}
