// The Collection API on SQLite. Reads plan their SQL (plan.ts), then test each fetched document with the
// shared filter; writes read, decide and write in one synchronous step on the writing connection, inside
// a transaction or savepoint, which is what makes conditional updates (use counts, state transitions) atomic.
import { randomUUID } from 'node:crypto';
import type {
  Collection,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  Update,
  UpdateResult,
} from '../../ports/documents';
import { DuplicateKeyError } from '../../ports/documents';
import {
  applyUpdate,
  compareBySort,
  deepEqual,
  InvalidQueryError,
  matchesFilter,
  normaliseUpdate,
  prepareInsert,
  seedFromFilter,
  validateFilter,
  validateSort,
  validateUpdate,
} from '../documents-shared';
import { type Connection, ident } from './connection';
import { planQuery } from './plan';
import { reportScan, scanning } from './scans';
import type { CollectionMeta } from './schema';
import { deleteDoc, insertDoc, mapDuplicates, replaceDoc } from './writes';

type NewDoc<T extends Doc> = Omit<T, '_id'> & { _id?: string };

/** Where a collection's statements run: the committed state, or an open transaction. */
export interface Access {
  /** `meta` is undefined while the collection has no table (nothing was ever written to it). */
  read<R>(
    collection: string,
    work: (db: Connection, meta: CollectionMeta | undefined, pendingToo: boolean) => R,
  ): Promise<R>;
  write<R>(collection: string, work: (db: Connection, meta: CollectionMeta) => R): Promise<R>;
}

/** The matching documents, in order, after skip and within limit (0: no limit). */
export function select(
  db: Connection,
  meta: CollectionMeta,
  filter: Filter,
  options: FindOptions,
  pendingToo: boolean,
): Doc[] {
  const { skip = 0, limit = 0 } = options;
  const plan = planQuery(meta, filter, options.sort, pendingToo);
  if (plan.kind === 'scan' && scanning()) reportScan(meta.name, filter, options.sort);
  const seen = plan.repeats ? new Set<string>() : undefined;
  const out: Doc[] = [];
  let skipped = 0;
  for (const row of db.iterate<{ id: string; doc: string }>(plan.sql, plan.params)) {
    if (seen) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
    }
    const doc = JSON.parse(row.doc) as Doc;
    if (!matchesFilter(doc, filter)) continue;
    if (plan.ordered) {
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(doc);
      if (limit > 0 && out.length >= limit) break;
    } else {
      out.push(doc);
    }
  }
  if (plan.ordered) return out;
  if (options.sort) out.sort(compareBySort(options.sort));
  return out.slice(skip, limit > 0 ? skip + limit : undefined);
}

function countMatching(db: Connection, meta: CollectionMeta, filter: Filter, pendingToo: boolean): number {
  if (Object.keys(filter).length === 0) {
    return db.get<{ n: number }>(`SELECT count(*) AS n FROM ${ident(meta.table)}`)!.n;
  }
  const plan = planQuery(meta, filter, undefined, pendingToo);
  if (plan.kind === 'scan' && scanning()) reportScan(meta.name, filter, undefined);
  if (plan.countSql) return db.get<{ n: number }>(plan.countSql, plan.params)!.n;
  const seen = plan.repeats ? new Set<string>() : undefined;
  let n = 0;
  for (const row of db.iterate<{ id: string; doc: string }>(plan.sql, plan.params)) {
    if (seen) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
    }
    if (matchesFilter(JSON.parse(row.doc) as Doc, filter)) n++;
  }
  return n;
}

function checkUpdate(filter: Filter, update: Update): Update {
  validateFilter(filter);
  validateUpdate(update);
  return normaliseUpdate(update);
}

/** MongoDB's upsert: the filter's equalities, then the update with $setOnInsert. */
function upsertDoc(db: Connection, meta: CollectionMeta, filter: Filter, update: Update): Doc {
  const seed = seedFromFilter(filter);
  const start = { ...seed, _id: typeof seed._id === 'string' ? seed._id : randomUUID() } as Doc;
  const inserted = applyUpdate(start, update, true);
  if (typeof inserted._id !== 'string' || inserted._id.length === 0) {
    throw new InvalidQueryError('an upserted _id must be a non-empty string');
  }
  const { _id, ...rest } = inserted;
  const doc: Doc = { _id, ...rest };
  insertDoc(db, meta, doc);
  return doc;
}

export class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly access: Access,
  ) {}

  private write<R>(work: (db: Connection, meta: CollectionMeta) => R): Promise<R> {
    return this.access.write(this.name, (db, meta) =>
      mapDuplicates(this.name, () => db.atomically(() => work(db, meta))),
    );
  }

  async insertOne(doc: NewDoc<T>): Promise<T> {
    const prepared = prepareInsert(doc);
    await this.write((db, meta) => insertDoc(db, meta, prepared));
    return prepared as T;
  }

  async insertMany(docs: Array<NewDoc<T>>): Promise<T[]> {
    const prepared = docs.map(prepareInsert);
    if (new Set(prepared.map((d) => d._id)).size !== prepared.length)
      throw new DuplicateKeyError(this.name, '_id_');
    if (prepared.length === 0) return [];
    await this.write((db, meta) => {
      for (const doc of prepared) insertDoc(db, meta, doc);
    });
    return prepared as T[];
  }

  async findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    validateFilter(filter);
    validateSort(options.sort);
    return this.access.read(this.name, (db, meta, pendingToo) =>
      meta ? (select(db, meta, filter, options, pendingToo) as T[]) : [],
    );
  }

  async count(filter: Filter = {}): Promise<number> {
    validateFilter(filter);
    return this.access.read(this.name, (db, meta, pendingToo) =>
      meta ? countMatching(db, meta, filter, pendingToo) : 0,
    );
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const normalised = checkUpdate(filter, update);
    return this.write((db, meta): UpdateResult => {
      const [doc] = select(db, meta, filter, { limit: 1 }, true);
      if (doc) {
        const after = applyUpdate(doc, normalised, false);
        if (deepEqual(doc, after)) return { matched: 1, modified: 0 };
        replaceDoc(db, meta, doc, after);
        return { matched: 1, modified: 1 };
      }
      if (!options.upsert) return { matched: 0, modified: 0 };
      return { matched: 0, modified: 0, upsertedId: upsertDoc(db, meta, filter, normalised)._id };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const normalised = checkUpdate(filter, update);
    return this.write((db, meta) => {
      const docs = select(db, meta, filter, {}, true);
      let modified = 0;
      for (const doc of docs) {
        const after = applyUpdate(doc, normalised, false);
        if (deepEqual(doc, after)) continue;
        replaceDoc(db, meta, doc, after);
        modified++;
      }
      return { matched: docs.length, modified };
    });
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<T | null> {
    const normalised = checkUpdate(filter, update);
    validateSort(options.sort);
    return this.write((db, meta) => {
      const [doc] = select(db, meta, filter, { sort: options.sort, limit: 1 }, true);
      if (doc) {
        const after = applyUpdate(doc, normalised, false);
        if (!deepEqual(doc, after)) replaceDoc(db, meta, doc, after);
        return (options.returnDocument === 'before' ? doc : after) as T;
      }
      if (!options.upsert) return null;
      const inserted = upsertDoc(db, meta, filter, normalised);
      return options.returnDocument === 'before' ? null : (inserted as T);
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    validateFilter(filter);
    return this.write((db, meta) => {
      const [doc] = select(db, meta, filter, { limit: 1 }, true);
      if (!doc) return 0;
      deleteDoc(db, meta, doc._id);
      return 1;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    validateFilter(filter);
    return this.write((db, meta) => {
      const docs = select(db, meta, filter, {}, true);
      for (const doc of docs) deleteDoc(db, meta, doc._id);
      return docs.length;
    });
  }
}
