// The Collection API on a native MongoDB collection. Filters, updates and sorts are validated against the
// shared subset (so nothing outside it, e.g. $where, reaches the server) and then passed through; values
// are normalised to plain JSON exactly as the embedded store stores them.
//
// Inside a journaled transaction (a server without multi-document transactions, see journal.ts) every
// write first finds the documents it will touch, journals their before-images, and then writes exactly
// those documents (the filter AND their _id), so the journal can never miss a document the write changed.
import { randomUUID } from 'node:crypto';
import type mongoose from 'mongoose';
import {
  type Collection,
  type Doc,
  DuplicateKeyError,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateResult,
} from '../../ports/documents';
import {
  equalityOf,
  indexName,
  normaliseUpdate,
  prepareInsert,
  validateFilter,
  validateSort,
  validateUpdate,
} from '../documents-shared';
import { isDuplicateKey, translateError } from './errors';
import { narrow, pinnedIds } from './id-lookups';
import type { JournaledTransaction } from './journal';

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
  /**
   * Runs a write (with the reads it makes first) so that no other write of this store runs meanwhile, where
   * the server needs that for a conditional update to be atomic; elsewhere it just runs it.
   */
  serialize<R>(write: () => Promise<R>): Promise<R>;
  /** The unique indexes declared for a collection, to name the one a duplicate key hit. */
  uniqueIndexes(name: string): IndexSpec[];
  /** True when the server answers only `{_id: value}` without reading the whole collection (id-lookups.ts). */
  pushesDownOnlyIds(): boolean;
  /** FerretDB: an upsert's $setOnInsert loses its null and [] values (refillSetOnInsert). */
  dropsEmptyOnInsert(): boolean;
  warn(message: string, details: Record<string, unknown>): void;
}

/** How often a journaled write looks again for its target when another writer changed it in between. */
const RETARGET_ATTEMPTS = 10;

export class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly backend: MongoBackend,
    private readonly session?: ClientSession,
    private readonly journal?: JournaledTransaction,
  ) {}

  // Every write goes through the backend's serialize(): on FerretDB one at a time per store (see store.ts).
  insertOne(doc: NewDoc<T>): Promise<T> {
    return this.backend.serialize(() => this.insertOneNow(doc));
  }

  insertMany(docs: Array<NewDoc<T>>): Promise<T[]> {
    return this.backend.serialize(() => this.insertManyNow(docs));
  }

  updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    return this.backend.serialize(() => this.updateOneNow(filter, update, options));
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.backend.serialize(() => this.updateManyNow(filter, update));
  }

  findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    return this.backend.serialize(() => this.findOneAndUpdateNow(filter, update, options));
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.backend.serialize(() => this.deleteOneNow(filter));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.backend.serialize(() => this.deleteManyNow(filter));
  }

  private async insertOneNow(doc: NewDoc<T>): Promise<T> {
    const prepared = prepareInsert(doc);
    const coll = await this.backend.native(this.name);
    if (this.journal) await this.journalIds(coll, [prepared._id]);
    await this.run(() => coll.insertOne(prepared, this.options()), [prepared]);
    return prepared as T;
  }

  private async insertManyNow(docs: Array<NewDoc<T>>): Promise<T[]> {
    const prepared = docs.map(prepareInsert);
    if (new Set(prepared.map((d) => d._id)).size !== prepared.length) {
      throw new DuplicateKeyError(this.name, '_id_');
    }
    if (prepared.length === 0) return [];
    const coll = await this.backend.native(this.name);
    if (this.journal) {
      await this.journalIds(
        coll,
        prepared.map((d) => d._id),
      );
      await this.run(() => this.insertManyCompensating(coll, prepared), prepared);
      return prepared as T[];
    }
    if (this.session) {
      await this.run(() => coll.insertMany(prepared, { ordered: true, session: this.session }));
      return prepared as T[];
    }
    const transactional = this.backend.inOwnTransaction(async (session) => {
      await coll.insertMany(prepared, { ordered: true, session });
    });
    if (transactional) {
      await this.run(() => transactional, prepared);
      return prepared as T[];
    }
    await this.run(() => this.insertManyCompensating(coll, prepared), prepared);
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
    const byId = await this.byIds(coll, filter, { ...options, limit: 1 });
    if (byId) return (byId[0] ?? null) as T | null;
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
    const byId = await this.byIds(coll, filter, options);
    if (byId) return byId as T[];
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
    const byId = await this.byIds(coll, filter);
    if (byId) return byId.length;
    return this.run(() => coll.countDocuments(filter as NativeFilter, this.options()));
  }

  private async updateOneNow(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<UpdateResult> {
    const native = this.prepareUpdate(filter, update, options.upsert ?? false);
    const coll = await this.backend.native(this.name);
    if (this.journal) return this.journaledUpdateOne(coll, filter, native, options.upsert ?? false);
    const where = await this.whereOne(coll, filter);
    if (where === null && !options.upsert) return { matched: 0, modified: 0 };
    const result = await this.run(() =>
      coll.updateOne(where ?? (filter as NativeFilter), native, {
        ...this.options(),
        upsert: options.upsert ?? false,
      }),
    );
    if (result.upsertedCount > 0) await this.refillSetOnInsert(coll, this.upsertId(filter, native), native);
    return {
      matched: result.matchedCount,
      modified: result.modifiedCount,
      ...(result.upsertedCount > 0 && result.upsertedId !== null
        ? { upsertedId: String(result.upsertedId) }
        : {}),
    };
  }

  private async updateManyNow(filter: Filter, update: Update): Promise<UpdateResult> {
    const native = this.prepareUpdate(filter, update, false);
    const coll = await this.backend.native(this.name);
    const targets = this.journal ? await this.journalMatching(coll, filter) : undefined;
    const result = await this.run(() =>
      coll.updateMany(
        targets ? this.onlyIds(filter, targets) : (filter as NativeFilter),
        native,
        this.options(),
      ),
    );
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  private async findOneAndUpdateNow(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<T | null> {
    validateSort(options.sort);
    const native = this.prepareUpdate(filter, update, options.upsert ?? false);
    const coll = await this.backend.native(this.name);
    if (this.journal) return this.journaledFindOneAndUpdate(coll, filter, native, options);
    const where = await this.whereOne(coll, filter, options.sort);
    if (where === null && !options.upsert) return null;
    const found = await this.run(() =>
      coll.findOneAndUpdate(where ?? (filter as NativeFilter), native, {
        ...this.options(),
        returnDocument: options.returnDocument ?? 'after',
        upsert: options.upsert ?? false,
        ...(options.sort ? { sort: options.sort } : {}),
      }),
    );
    if (where === null)
      this.refilled(found, await this.refillSetOnInsert(coll, this.upsertId(filter, native), native));
    return found as T | null;
  }

  /** A document just upserted, as it is after refillSetOnInsert. */
  private refilled(found: Record<string, unknown> | null, missing: Record<string, unknown> | null) {
    if (found && missing) for (const [k, v] of Object.entries(missing)) if (!(k in found)) found[k] = v;
  }

  private async deleteOneNow(filter: Filter): Promise<number> {
    validateFilter(filter);
    const coll = await this.backend.native(this.name);
    if (this.journal) {
      for (let attempt = 1; attempt <= RETARGET_ATTEMPTS; attempt++) {
        const target = await this.journalFirst(coll, filter);
        if (!target) return 0;
        const result = await this.run(() => coll.deleteOne(this.onlyIds(filter, [target])));
        if (result.deletedCount === 1) return 1;
      }
      throw this.keptChanging();
    }
    const where = await this.whereOne(coll, filter);
    if (where === null) return 0;
    const result = await this.run(() => coll.deleteOne(where ?? (filter as NativeFilter), this.options()));
    return result.deletedCount;
  }

  private async deleteManyNow(filter: Filter): Promise<number> {
    validateFilter(filter);
    const coll = await this.backend.native(this.name);
    const targets = this.journal ? await this.journalMatching(coll, filter) : undefined;
    const result = await this.run(() =>
      coll.deleteMany(targets ? this.onlyIds(filter, targets) : (filter as NativeFilter), this.options()),
    );
    return result.deletedCount;
  }

  private options(): { session?: ClientSession } {
    return this.session ? { session: this.session } : {};
  }

  /**
   * Runs a driver call with errors in the port's terms. `inserted`: the documents an insert wrote, to name
   * the unique index a duplicate hit when the server's error does not (FerretDB names none on inserts).
   */
  private async run<R>(op: () => Promise<R>, inserted?: Doc[]): Promise<R> {
    try {
      return await op();
    } catch (err) {
      const translated = translateError(this.name, err, this.backend.uniqueIndexes(this.name));
      if (translated instanceof DuplicateKeyError && translated.index === 'unknown' && inserted) {
        const failed = inserted[firstFailedIndex(err) ?? 0] ?? inserted[0];
        const index = failed ? await this.duplicatedIndex(failed) : undefined;
        if (index) throw new DuplicateKeyError(this.name, index);
      }
      throw translated;
    }
  }

  /** The unique index on which an existing document (another one) has the same key as `doc`. */
  private async duplicatedIndex(doc: Doc): Promise<string | undefined> {
    const coll = await this.backend.native(this.name);
    try {
      for (const spec of this.backend.uniqueIndexes(this.name)) {
        const key: Record<string, unknown> = {};
        for (const path of Object.keys(spec.fields)) {
          const value = valueAt(doc, path);
          if (value !== undefined) key[path] = value;
        }
        // A document lacking an indexed field is left out of the index on engines that name no index.
        if (Object.keys(key).length < Object.keys(spec.fields).length) continue;
        if (await coll.findOne({ ...key, _id: { $ne: doc._id } } as NativeFilter, { projection: { _id: 1 } }))
          return indexName(spec);
      }
      if (await coll.findOne({ _id: doc._id }, { projection: { _id: 1 } })) return '_id_';
    } catch {
      // Naming the index is a courtesy; the duplicate key error stands without it.
    }
    return undefined;
  }

  // --- journaled writes ---

  /** Journals the current state (or absence) of the documents with these ids. */
  private async journalIds(coll: NativeCollection, ids: string[]): Promise<void> {
    const journal = this.journal!;
    const needed = [...new Set(ids)].filter((id) => journal.needs(this.name, id));
    if (needed.length === 0) return;
    const found =
      (await this.byIds(coll, { _id: { $in: needed } })) ??
      (await this.run(() => coll.find({ _id: { $in: needed } }).toArray()));
    const byId = new Map(found.map((d) => [d._id, d]));
    await journal.record(needed.map((id) => ({ collection: this.name, id, before: byId.get(id) ?? null })));
  }

  private async journalDocs(docs: Doc[]): Promise<void> {
    const journal = this.journal!;
    await journal.record(docs.map((d) => ({ collection: this.name, id: d._id, before: d })));
  }

  /** Journals every document matching the filter now; those are the ones the write will touch. */
  private async journalMatching(coll: NativeCollection, filter: Filter): Promise<string[]> {
    const found =
      (await this.byIds(coll, filter)) ?? (await this.run(() => coll.find(filter as NativeFilter).toArray()));
    await this.journalDocs(found);
    return found.map((d) => d._id);
  }

  private async journalFirst(
    coll: NativeCollection,
    filter: Filter,
    sort?: FindOptions['sort'],
  ): Promise<string | undefined> {
    const byId = await this.byIds(coll, filter, { sort, limit: 1 });
    const found = byId
      ? byId[0]
      : await this.run(() => coll.findOne(filter as NativeFilter, sort ? { sort } : {}));
    if (!found) return undefined;
    await this.journalDocs([found]);
    return found._id;
  }

  /** The _id an upsert will insert: the filter's, or the one prepareUpdate put in $setOnInsert. */
  private upsertId(filter: Filter, native: NativeUpdate): string {
    const pinned = equalityOf(filter, '_id')?.value;
    return String(pinned ?? (native.$setOnInsert as { _id?: unknown } | undefined)?._id);
  }

  private async journaledUpdateOne(
    coll: NativeCollection,
    filter: Filter,
    native: NativeUpdate,
    upsert: boolean,
  ): Promise<UpdateResult> {
    for (let attempt = 1; attempt <= RETARGET_ATTEMPTS; attempt++) {
      const target = await this.journalFirst(coll, filter);
      if (target === undefined) {
        if (!upsert) return { matched: 0, modified: 0 };
        await this.journalIds(coll, [this.upsertId(filter, native)]);
      }
      const result = await this.run(() =>
        coll.updateOne(
          target === undefined ? (filter as NativeFilter) : this.onlyIds(filter, [target]),
          native,
          {
            upsert: target === undefined,
          },
        ),
      );
      if (result.matchedCount === 0 && result.upsertedCount === 0) continue;
      if (result.upsertedCount > 0) await this.refillSetOnInsert(coll, this.upsertId(filter, native), native);
      return {
        matched: result.matchedCount,
        modified: result.modifiedCount,
        ...(result.upsertedCount > 0 && result.upsertedId !== null
          ? { upsertedId: String(result.upsertedId) }
          : {}),
      };
    }
    throw this.keptChanging();
  }

  private async journaledFindOneAndUpdate(
    coll: NativeCollection,
    filter: Filter,
    native: NativeUpdate,
    options: FindOneAndUpdateOptions,
  ): Promise<T | null> {
    for (let attempt = 1; attempt <= RETARGET_ATTEMPTS; attempt++) {
      const target = await this.journalFirst(coll, filter, options.sort);
      if (target === undefined) {
        if (!options.upsert) return null;
        await this.journalIds(coll, [this.upsertId(filter, native)]);
      }
      const found = await this.run(() =>
        coll.findOneAndUpdate(
          target === undefined ? (filter as NativeFilter) : this.onlyIds(filter, [target]),
          native,
          {
            returnDocument: options.returnDocument ?? 'after',
            upsert: target === undefined,
            ...(options.sort ? { sort: options.sort } : {}),
          },
        ),
      );
      if (target === undefined) {
        this.refilled(found, await this.refillSetOnInsert(coll, this.upsertId(filter, native), native));
      }
      // 'before' of an upsert that inserted is null, as without a journal.
      if (found || target === undefined) return found as T | null;
    }
    throw this.keptChanging();
  }

  /**
   * FerretDB v1.24.2 drops the null and empty-array values of an
   * upsert's $setOnInsert when it inserts: `{holds: [], account: null}` came out as no such fields, and the
   * payout run read `holds.length` of undefined on the cluster. Each such field still missing is set on the
   * inserted document, and only where it is missing, so a writer that got there first keeps its value.
   * The fields refilled, or null when there were none.
   */
  private async refillSetOnInsert(
    coll: NativeCollection,
    id: string,
    native: NativeUpdate,
  ): Promise<Record<string, unknown> | null> {
    const dropped = Object.entries((native.$setOnInsert ?? {}) as Record<string, unknown>).filter(
      ([k, v]) => k !== '_id' && !k.includes('.') && (v === null || (Array.isArray(v) && v.length === 0)),
    );
    if (dropped.length === 0 || !this.backend.dropsEmptyOnInsert()) return null;
    for (const [k, v] of dropped)
      await this.run(() =>
        coll.updateOne({ _id: id, [k]: { $exists: false } } as NativeFilter, { $set: { [k]: v } }),
      );
    return Object.fromEntries(dropped);
  }

  // --- reads by _id (id-lookups.ts) ---

  /**
   * On a server that pushes down only `{_id}`, the documents matching a filter that pins its _ids, read
   * one by one; undefined where the filter does not pin them or the server needs no such help.
   */
  private async byIds(
    coll: NativeCollection,
    filter: Filter,
    options: FindOptions = {},
  ): Promise<Doc[] | undefined> {
    if (!this.backend.pushesDownOnlyIds()) return undefined;
    const ids = pinnedIds(filter);
    if (!ids) return undefined;
    const found = await this.run(() => Promise.all(ids.map((_id) => coll.findOne({ _id }, this.options()))));
    return narrow(found, filter, options);
  }

  /**
   * The filter a single-document write uses: `{_id}` of the document the filter matches now when it was read
   * by _id (null: none matches), or undefined to use the filter itself. Runs in the write's serialized turn.
   */
  private async whereOne(
    coll: NativeCollection,
    filter: Filter,
    sort?: FindOptions['sort'],
  ): Promise<NativeFilter | null | undefined> {
    const byId = await this.byIds(coll, filter, { sort, limit: 1 });
    if (!byId) return undefined;
    return byId[0] ? { _id: byId[0]._id } : null;
  }

  /**
   * The filter restricted to documents already journaled. Where reads went by _id, the documents were
   * matched in this write's turn, so their _ids alone select them.
   */
  private onlyIds(filter: Filter, ids: string[]): NativeFilter {
    const pinned = ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } };
    if (this.backend.pushesDownOnlyIds()) return pinned as NativeFilter;
    return { $and: [filter, pinned] } as NativeFilter;
  }

  private keptChanging(): Error {
    return new Error(
      `a write to ${this.name} in a transaction found its document changed by another writer ` +
        `${RETARGET_ATTEMPTS} times in a row; try again`,
    );
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
      throw err;
    }
  }
}

/** A dotted path's value in a plain document (no arrays crossed: unique keys the services declare are flat). */
function valueAt(doc: Doc, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function firstFailedIndex(err: unknown): number | undefined {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  const indexes = list
    .map((w) => (w as { index?: unknown }).index)
    .filter((i): i is number => typeof i === 'number');
  return indexes.length > 0 ? Math.min(...indexes) : undefined;
}
