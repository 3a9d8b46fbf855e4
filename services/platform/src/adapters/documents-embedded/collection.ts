// The Collection API over a DocSource. Each method awaits readiness once, then reads, decides and writes
// synchronously: with one JS thread that makes "check the filter, then apply" atomic, which is what
// conditional updates (use counts, state transitions) rely on.
import { randomUUID } from 'node:crypto';
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
  applyUpdate,
  compareBySort,
  InvalidQueryError,
  matchesFilter,
  normaliseUpdate,
  prepareInsert,
  seedFromFilter,
  validateFilter,
  validateSort,
  validateUpdate,
} from '../documents-shared';
import { deepEqual } from '../documents-shared/values';
import type { Change, DocSource } from './source';

type NewDoc<T extends Doc> = Omit<T, '_id'> & { _id?: string };

function copy<T>(doc: Doc): T {
  return structuredClone(doc) as unknown as T;
}

export class EmbeddedCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly source: DocSource,
  ) {}

  async insertOne(doc: NewDoc<T>): Promise<T> {
    const prepared = prepareInsert(doc);
    await this.source.ready();
    await this.source.write(this.name, [{ id: prepared._id, before: undefined, after: prepared }]);
    return copy<T>(prepared);
  }

  async insertMany(docs: Array<NewDoc<T>>): Promise<T[]> {
    const prepared = docs.map(prepareInsert);
    const ids = new Set<string>();
    for (const doc of prepared) {
      if (ids.has(doc._id)) throw new DuplicateKeyError(this.name, '_id_');
      ids.add(doc._id);
    }
    if (prepared.length === 0) return [];
    await this.source.ready();
    await this.source.write(
      this.name,
      prepared.map((doc) => ({ id: doc._id, before: undefined, after: doc })),
    );
    return prepared.map((doc) => copy<T>(doc));
  }

  async findById(id: string): Promise<T | null> {
    await this.source.ready();
    const doc = this.source.get(this.name, id);
    return doc ? copy<T>(doc) : null;
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    validateFilter(filter);
    validateSort(options.sort);
    await this.source.ready();
    const { skip = 0, limit = 0 } = options;
    let matches = this.matching(filter);
    if (options.sort && Object.keys(options.sort).length > 0) matches.sort(compareBySort(options.sort));
    // limit 0 means no limit, as in MongoDB.
    matches = matches.slice(skip, limit > 0 ? skip + limit : undefined);
    return matches.map((doc) => copy<T>(doc));
  }

  async count(filter: Filter = {}): Promise<number> {
    validateFilter(filter);
    await this.source.ready();
    return this.matching(filter).length;
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const normalised = this.checkUpdate(filter, update);
    await this.source.ready();
    const [doc] = this.matching(filter, 1);
    if (doc) {
      const modified = await this.rewrite(doc, normalised);
      return { matched: 1, modified: modified ? 1 : 0 };
    }
    if (!options.upsert) return { matched: 0, modified: 0 };
    const inserted = await this.upsert(filter, normalised);
    return { matched: 0, modified: 0, upsertedId: inserted._id };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const normalised = this.checkUpdate(filter, update);
    await this.source.ready();
    const docs = this.matching(filter);
    const changes: Change[] = [];
    for (const doc of docs) {
      const after = applyUpdate(doc, normalised, false);
      if (!deepEqual(doc, after)) changes.push({ id: doc._id, before: doc, after });
    }
    if (changes.length > 0) await this.source.write(this.name, changes);
    return { matched: docs.length, modified: changes.length };
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: FindOneAndUpdateOptions = {},
  ): Promise<T | null> {
    const normalised = this.checkUpdate(filter, update);
    validateSort(options.sort);
    await this.source.ready();
    const matches = this.matching(filter, options.sort ? undefined : 1);
    if (options.sort && Object.keys(options.sort).length > 0) matches.sort(compareBySort(options.sort));
    const doc = matches[0];
    if (doc) {
      const after = applyUpdate(doc, normalised, false);
      if (!deepEqual(doc, after)) await this.source.write(this.name, [{ id: doc._id, before: doc, after }]);
      return copy<T>(options.returnDocument === 'before' ? doc : after);
    }
    if (!options.upsert) return null;
    const inserted = await this.upsert(filter, normalised);
    return options.returnDocument === 'before' ? null : copy<T>(inserted);
  }

  async deleteOne(filter: Filter): Promise<number> {
    validateFilter(filter);
    await this.source.ready();
    const [doc] = this.matching(filter, 1);
    if (!doc) return 0;
    await this.source.write(this.name, [{ id: doc._id, before: doc, after: null }]);
    return 1;
  }

  async deleteMany(filter: Filter): Promise<number> {
    validateFilter(filter);
    await this.source.ready();
    const docs = this.matching(filter);
    if (docs.length > 0) {
      await this.source.write(
        this.name,
        docs.map((doc) => ({ id: doc._id, before: doc, after: null })),
      );
    }
    return docs.length;
  }

  private checkUpdate(filter: Filter, update: Update): Update {
    validateFilter(filter);
    validateUpdate(update);
    return normaliseUpdate(update);
  }

  private matching(filter: Filter, limit?: number): Doc[] {
    const out: Doc[] = [];
    for (const doc of this.source.candidates(this.name, filter)) {
      if (!matchesFilter(doc, filter)) continue;
      out.push(doc);
      if (limit !== undefined && out.length >= limit) break;
    }
    return out;
  }

  /** Applies an update to one document; resolves false when it changed nothing (nothing is written). */
  private async rewrite(doc: Doc, update: Update): Promise<boolean> {
    const after = applyUpdate(doc, update, false);
    if (deepEqual(doc, after)) return false;
    await this.source.write(this.name, [{ id: doc._id, before: doc, after }]);
    return true;
  }

  /** MongoDB's upsert: the filter's equalities, then the update with $setOnInsert. */
  private async upsert(filter: Filter, update: Update): Promise<Doc> {
    const seed = seedFromFilter(filter);
    const start = { ...seed, _id: typeof seed._id === 'string' ? seed._id : randomUUID() } as Doc;
    const inserted = applyUpdate(start, update, true);
    if (typeof inserted._id !== 'string' || inserted._id.length === 0) {
      throw new InvalidQueryError('an upserted _id must be a non-empty string');
    }
    const { _id, ...rest } = inserted;
    const doc: Doc = { _id, ...rest };
    await this.source.write(this.name, [{ id: doc._id, before: undefined, after: doc }]);
    return doc;
  }
}
