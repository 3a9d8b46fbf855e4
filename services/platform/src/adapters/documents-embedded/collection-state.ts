// One collection in memory: documents by _id plus a key map per declared index. Documents stored here are
// never mutated (every write replaces the object), so a reference doubles as a version for conflict checks
// and a snapshot can hold references without copying.
import { type Doc, DuplicateKeyError, type Filter, type IndexSpec } from '../../ports/documents';
import { compareValues, coversDoc, equalityOf, indexKeys, indexName, lookupKey } from '../documents-shared';

interface IndexState {
  readonly spec: IndexSpec;
  readonly name: string;
  /** key → ids having that key. */
  readonly entries: Map<string, Set<string>>;
}

/**
 * The leading fields of a compound index, with their own key map: MongoDB answers an equality on an
 * index's first fields (`{releaseId}` on `{releaseId, target}`) from the index, so the embedded store must
 * too, or such a read scans the whole collection and its cost grows with every document ever written.
 */
interface PrefixState {
  readonly spec: IndexSpec;
  readonly entries: Map<string, Set<string>>;
}

/** Final state of a document after a batch of writes: the new document, or null when deleted. */
export type ChangeSet = Map<string, Doc | null>;

export class CollectionState {
  readonly docs = new Map<string, Doc>();
  private readonly indexes: IndexState[] = [];
  private readonly prefixes: PrefixState[] = [];
  /** Set when a declared unique index cannot be built over existing data; every write then fails. */
  brokenIndex: Error | undefined;

  constructor(readonly name: string) {}

  hasIndex(spec: IndexSpec): boolean {
    const name = indexName(spec);
    return this.indexes.some((index) => index.name === name);
  }

  addIndex(spec: IndexSpec): void {
    const name = indexName(spec);
    if (this.hasIndex(spec)) return;
    const index: IndexState = { spec, name, entries: new Map() };
    for (const doc of this.docs.values()) {
      for (const key of indexKeys(doc, spec)) {
        let ids = index.entries.get(key);
        if (!ids) {
          ids = new Set();
          index.entries.set(key, ids);
        }
        if (spec.unique && ids.size > 0) {
          this.brokenIndex = new Error(
            `cannot build unique index ${name} on ${this.name}: documents ${[...ids][0]} and ${doc._id} share key ${key}`,
          );
          return;
        }
        ids.add(doc._id);
      }
    }
    this.indexes.push(index);
    this.addPrefixes(spec);
  }

  /** Key maps for a compound index's leading fields (not for a sparse one: it lacks some documents). */
  private addPrefixes(spec: IndexSpec): void {
    const fields = Object.keys(spec.fields);
    if (spec.sparse) return;
    for (let length = fields.length - 1; length >= 1; length--) {
      const leading = fields.slice(0, length);
      const name = leading.join(',');
      const known = [...this.indexes.map((i) => i.spec), ...this.prefixes.map((p) => p.spec)].some(
        (other) => !other.sparse && Object.keys(other.fields).join(',') === name,
      );
      if (known) continue;
      const prefix: PrefixState = {
        spec: { fields: Object.fromEntries(leading.map((f) => [f, 1 as const])) },
        entries: new Map(),
      };
      for (const doc of this.docs.values()) addKeys(prefix.entries, doc, prefix.spec);
      this.prefixes.push(prefix);
    }
  }

  /**
   * Documents that may match: one by _id, the holders of one index key when the filter pins every field of
   * an index by equality, otherwise all of them. Callers still test each candidate against the filter.
   */
  candidates(filter: Filter): Iterable<Doc> {
    const byId = equalityOf(filter, '_id');
    if (byId) {
      const doc = typeof byId.value === 'string' ? this.docs.get(byId.value) : undefined;
      return doc ? [doc] : [];
    }
    const listed = this.inListCandidates(filter);
    if (listed) return listed;
    for (const index of this.indexes) {
      const values: unknown[] = [];
      for (const path of Object.keys(index.spec.fields)) {
        const eq = equalityOf(filter, path);
        // Only scalars: a whole-array or sub-document equality is not a single index key. A sparse index
        // holds no document missing a field, so it cannot answer a null lookup.
        if (!eq || (typeof eq.value === 'object' && eq.value !== null)) break;
        if (eq.value === null && index.spec.sparse) break;
        values.push(eq.value);
      }
      if (values.length !== Object.keys(index.spec.fields).length) continue;
      return this.holders(index.entries.get(lookupKey(values)));
    }
    // The longest pinned leading part of a compound index (prefixes are kept longest first per index).
    let best: { prefix: PrefixState; values: unknown[] } | undefined;
    for (const prefix of this.prefixes) {
      const fields = Object.keys(prefix.spec.fields);
      if (best && fields.length <= best.values.length) continue;
      const values: unknown[] = [];
      for (const path of fields) {
        const eq = equalityOf(filter, path);
        if (!eq || (typeof eq.value === 'object' && eq.value !== null)) break;
        values.push(eq.value);
      }
      if (values.length === fields.length) best = { prefix, values };
    }
    if (best) return this.holders(best.prefix.entries.get(lookupKey(best.values)));
    return this.rangeCandidates(filter) ?? this.docs.values();
  }

  /**
   * `{field: {$lte: x}}` (and $lt/$gt/$gte) on a one-field index: the holders of the keys in range, as
   * MongoDB walks an index range. Only the index's distinct values are looked at, so a worker's
   * `{dueAt: {$lte: now}}` considers the jobs that have a due time (work still to do), not every job ever
   * delivered. A range only matches values of its operand's type (filter.ts), never null or missing.
   */
  private rangeCandidates(filter: Filter): Doc[] | undefined {
    for (const index of this.indexes) {
      const fields = Object.keys(index.spec.fields);
      if (fields.length !== 1) continue;
      const condition = filter[fields[0]!];
      if (!condition || typeof condition !== 'object' || Array.isArray(condition)) continue;
      const bounds = Object.entries(condition);
      if (bounds.length === 0 || !bounds.every(([op]) => RANGE.has(op))) continue;
      const type = typeof bounds[0]![1];
      if ((type !== 'string' && type !== 'number') || bounds.some(([, v]) => typeof v !== type)) continue;
      const ids = new Set<string>();
      for (const [key, holders] of index.entries) {
        const [value] = JSON.parse(key) as unknown[];
        if (typeof value !== type) continue;
        if (!bounds.every(([op, bound]) => inRange(op, compareValues(value, bound)))) continue;
        for (const id of holders) ids.add(id);
      }
      return this.holders(ids);
    }
    return undefined;
  }

  private holders(ids: Set<string> | undefined): Doc[] {
    if (!ids) return [];
    return [...ids].map((id) => this.docs.get(id)).filter((d): d is Doc => d !== undefined);
  }

  /**
   * `{field: {$in: [...]}}` on a one-field index: the union of each value's holders (a page of releases'
   * tracks by releaseId is 1,000 lookups, not a scan of every track testing a 1,000-long list). Scalars
   * only, and no null on a sparse index, as for an equality.
   */
  private inListCandidates(filter: Filter): Doc[] | undefined {
    // `{_id: {$in: [...]}}`: one lookup per id (a store's waiting jobs, the leases a worker renews).
    const byIds = filter._id;
    if (byIds && typeof byIds === 'object' && !Array.isArray(byIds) && Object.keys(byIds).length === 1) {
      const list = (byIds as { $in?: unknown }).$in;
      if (Array.isArray(list) && list.every((v) => typeof v === 'string')) {
        return [...new Set(list as string[])]
          .map((id) => this.docs.get(id))
          .filter((d): d is Doc => d !== undefined);
      }
    }
    for (const index of this.indexes) {
      const fields = Object.keys(index.spec.fields);
      if (fields.length !== 1) continue;
      const condition = filter[fields[0]!];
      if (!condition || typeof condition !== 'object' || Array.isArray(condition)) continue;
      const keys = Object.keys(condition);
      const list = (condition as { $in?: unknown }).$in;
      if (keys.length !== 1 || !Array.isArray(list)) continue;
      if (list.some((v) => (typeof v === 'object' && v !== null) || (v === null && index.spec.sparse)))
        continue;
      const ids = new Set<string>();
      for (const value of list) for (const id of index.entries.get(lookupKey([value])) ?? []) ids.add(id);
      return [...ids].map((id) => this.docs.get(id)).filter((d): d is Doc => d !== undefined);
    }
    return undefined;
  }

  /** Throws DuplicateKeyError when applying `changes` would break a unique index. Changes nothing. */
  checkUnique(changes: ChangeSet): void {
    if (this.brokenIndex) throw this.brokenIndex;
    for (const index of this.indexes) {
      if (!index.spec.unique) continue;
      const claimed = new Map<string, string>();
      for (const [id, next] of changes) {
        if (!next) continue;
        for (const key of indexKeys(next, index.spec)) {
          const other = claimed.get(key);
          if (other !== undefined && other !== id) throw new DuplicateKeyError(this.name, index.name);
          claimed.set(key, id);
          const owners = index.entries.get(key);
          if (!owners) continue;
          // An owner being rewritten in the same batch releases its old key; if it keeps the key,
          // `claimed` catches the clash when its own new version is checked.
          for (const owner of owners) {
            if (owner !== id && !changes.has(owner)) throw new DuplicateKeyError(this.name, index.name);
          }
        }
      }
    }
  }

  /** Applies changes that checkUnique accepted. */
  apply(changes: ChangeSet): void {
    for (const [id, next] of changes) {
      const prev = this.docs.get(id);
      if (prev) this.unindex(prev);
      if (next) {
        this.docs.set(id, next);
        this.index(next);
      } else {
        this.docs.delete(id);
      }
    }
  }

  /** Loads a recovered document (no unique checks: the log only holds validated writes). */
  load(doc: Doc | null, id: string): void {
    this.apply(new Map([[id, doc]]));
  }

  private index(doc: Doc): void {
    for (const prefix of this.prefixes) addKeys(prefix.entries, doc, prefix.spec);
    for (const index of this.indexes) {
      if (!coversDoc(doc, index.spec)) continue;
      for (const key of indexKeys(doc, index.spec)) {
        let ids = index.entries.get(key);
        if (!ids) {
          ids = new Set();
          index.entries.set(key, ids);
        }
        ids.add(doc._id);
      }
    }
  }

  private unindex(doc: Doc): void {
    for (const index of [...this.indexes, ...this.prefixes]) {
      for (const key of indexKeys(doc, index.spec)) {
        const ids = index.entries.get(key);
        if (!ids) continue;
        ids.delete(doc._id);
        if (ids.size === 0) index.entries.delete(key);
      }
    }
  }
}

const RANGE = new Set(['$gt', '$gte', '$lt', '$lte']);

function inRange(op: string, c: number): boolean {
  return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
}

function addKeys(entries: Map<string, Set<string>>, doc: Doc, spec: IndexSpec): void {
  for (const key of indexKeys(doc, spec)) {
    let ids = entries.get(key);
    if (!ids) {
      ids = new Set();
      entries.set(key, ids);
    }
    ids.add(doc._id);
  }
}
