// From a filter (and sort) to the SQL that fetches the documents which may match: by _id, through one index's
// key table, or, when nothing narrows it, the whole table (a "scan", which the architecture test looks for).
// Every fetched document is still tested with documents-shared's matchesFilter, so the SQL only has to find a
// superset; what it must never do is leave a matching document out. When the rows come in the order the
// caller asked for, skip and limit are applied while reading and the read stops early.
import type { Filter, Sort } from '../../ports/documents';
import { ident } from './connection';
import { encodeKey, type KeyValue } from './keys';
import type { CollectionMeta, IndexInfo } from './schema';

export interface Plan {
  sql: string;
  params: unknown[];
  /** 'id': by _id; 'index': through `index`; 'scan': every document of the collection. */
  kind: 'id' | 'index' | 'scan';
  index?: string;
  /** Rows come sorted as the caller asked (no sort asked counts as sorted). */
  ordered: boolean;
  /** Rows may repeat a document (a multikey index has several keys per document). */
  repeats: boolean;
  /** When the key table alone answers the filter exactly: the SQL that counts the matches. */
  countSql?: string;
}

const RANGE_OPS = ['$gt', '$gte', '$lt', '$lte'] as const;
const SQL_OP = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

type Bound = { op: (typeof RANGE_OPS)[number]; value: string | number };

interface FieldUse {
  sql: string;
  params: unknown[];
  /** Pinned to one value: the next field of the index may be used too, and sorts on it come in order. */
  equality: boolean;
  /** The rows it selects are exactly the documents the condition matches (no test of the document needed). */
  exact: boolean;
}

function isOperators(condition: unknown): condition is Record<string, unknown> {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return false;
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function scalarKey(value: unknown): { key: KeyValue } | undefined {
  // A whole-array or sub-document operand also matches arrays holding it as an element; index keys hold
  // elements, so such an equality is left to the scan.
  if (typeof value === 'object' && value !== null) return undefined;
  return { key: encodeKey(value) };
}

/** How one field's condition narrows an index column `column`, if it can. */
function useField(column: string, condition: unknown, index: IndexInfo): FieldUse | undefined {
  if (condition === undefined) return undefined;
  if (!isOperators(condition) || (Object.keys(condition).length === 1 && '$eq' in condition)) {
    const value = isOperators(condition) ? condition.$eq : condition;
    const scalar = scalarKey(value);
    if (!scalar) return undefined;
    // A sparse index lacks the documents missing the field, which a null equality matches.
    // Null also matches a missing field, but its key is that of an empty array too: not exact.
    if (scalar.key === null)
      return index.spec.sparse
        ? undefined
        : { sql: `${column} IS NULL`, params: [], equality: true, exact: false };
    return { sql: `${column} = ?`, params: [scalar.key], equality: true, exact: true };
  }
  if (Array.isArray(condition.$in)) {
    const list = condition.$in as unknown[];
    if (list.some((v) => typeof v === 'object' && v !== null)) return undefined;
    const hasNull = list.includes(null);
    if (hasNull && index.spec.sparse) return undefined;
    const values = list.filter((v) => v !== null).map(encodeKey);
    // Strings and numbers go through one JSON parameter, so a list of any length is one cached statement.
    const plain = values.filter((v) => typeof v === 'string' || typeof v === 'number');
    const blobs = values.filter((v) => Buffer.isBuffer(v));
    const parts = [`${column} IN (SELECT value FROM json_each(?))`];
    const params: unknown[] = [JSON.stringify(plain)];
    for (const blob of blobs) {
      parts.push(`${column} = ?`);
      params.push(blob);
    }
    if (hasNull) parts.push(`${column} IS NULL`);
    const exact = !hasNull && Object.keys(condition).length === 1;
    return { sql: `(${parts.join(' OR ')})`, params, equality: false, exact };
  }
  const bounds: Bound[] = [];
  for (const op of RANGE_OPS) {
    const value = condition[op];
    if (typeof value === 'string' || typeof value === 'number') bounds.push({ op, value });
  }
  if (bounds.length === 0) return undefined;
  const type = typeof bounds[0]!.value;
  // A range compares like with like only; mixed types match nothing the index could narrow.
  if (bounds.some((b) => typeof b.value !== type)) return undefined;
  // With several keys per document, MongoDB lets each bound be met by a different element: only one bound
  // may narrow the index then (the test of the whole filter applies the other).
  const used = index.multikey ? bounds.slice(0, 1) : bounds;
  const parts = used.map((b) => `${column} ${SQL_OP[b.op]} ?`);
  const params: unknown[] = used.map((b) => b.value);
  // Keep the range inside its type: numbers sort below every string, strings below every BLOB.
  if (type === 'number') parts.push(`${column} < ''`);
  else parts.push(`${column} >= ''`, `${column} < x''`);
  const exact = used.length === Object.keys(condition).length;
  return { sql: parts.join(' AND '), params, equality: false, exact };
}

interface IndexUse {
  index: IndexInfo;
  where: string[];
  params: unknown[];
  /** How many leading fields are pinned to one value. */
  pinned: number;
  /** Fields narrowed at all (pinned ones and one more by a range or a list). */
  narrowed: number;
  /** The filter's fields whose condition the key table answers exactly. */
  exact: Set<string>;
}

function useIndex(index: IndexInfo, filter: Filter): IndexUse | undefined {
  const use: IndexUse = { index, where: [], params: [], pinned: 0, narrowed: 0, exact: new Set() };
  for (const [i, field] of index.fields.entries()) {
    const field_ = useField(`k.k${i}`, filter[field], index);
    if (!field_) break;
    use.where.push(field_.sql);
    use.params.push(...field_.params);
    use.narrowed++;
    if (field_.exact) use.exact.add(field);
    if (!field_.equality) break;
    use.pinned++;
  }
  if (use.narrowed === 0) return undefined;
  // A sparse index answers only when the filter guarantees each field exists (the fields used all narrowed).
  if (index.spec.sparse && use.narrowed < index.fields.length) return undefined;
  return use;
}

/**
 * The index columns that give rows in `sort` order after `pinned` leading fields, if any: the sort's fields
 * must be the index's next ones, each in the index's direction or each in the opposite (walked backwards).
 */
function orderBy(index: IndexInfo, pinned: number, sort: Sort | undefined): string | undefined {
  const keys = Object.entries(sort ?? {});
  if (keys.length === 0) return undefined;
  if (keys.length > 1 && index.multikey) return undefined;
  if (pinned + keys.length > index.fields.length) return undefined;
  if (!keys.every(([path], i) => index.fields[pinned + i] === path)) return undefined;
  const relation = (path: string, direction: number) => direction * (index.spec.fields[path] ?? 1);
  const first = relation(keys[0]![0], keys[0]![1]);
  if (keys.some(([path, direction]) => relation(path, direction) !== first)) return undefined;
  return keys.map(([, direction], i) => `k.k${pinned + i} ${direction === 1 ? 'ASC' : 'DESC'}`).join(', ');
}

export function planQuery(
  meta: CollectionMeta,
  filter: Filter,
  sort: Sort | undefined,
  pendingToo: boolean,
): Plan {
  const docs = ident(meta.table);
  const unsorted = Object.keys(sort ?? {}).length === 0;
  const id = filter._id;
  if (
    typeof id === 'string' ||
    (isOperators(id) && Object.keys(id).length === 1 && typeof id.$eq === 'string')
  ) {
    const value = typeof id === 'string' ? id : id.$eq;
    return {
      sql: `SELECT id, doc FROM ${docs} WHERE id = ?`,
      params: [value],
      kind: 'id',
      ordered: true,
      repeats: false,
    };
  }
  if (
    isOperators(id) &&
    Object.keys(id).length === 1 &&
    Array.isArray(id.$in) &&
    id.$in.every((v) => typeof v === 'string')
  ) {
    return {
      sql: `SELECT id, doc FROM ${docs} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
      params: [JSON.stringify(id.$in)],
      kind: 'id',
      ordered: unsorted,
      repeats: false,
    };
  }
  const indexes = meta.indexes.filter((i) => pendingToo || !i.pending);
  let best: IndexUse | undefined;
  for (const index of indexes) {
    const use = useIndex(index, filter);
    if (!use) continue;
    const better =
      !best ||
      use.pinned > best.pinned ||
      (use.pinned === best.pinned && use.narrowed > best.narrowed) ||
      (use.pinned === best.pinned &&
        use.narrowed === best.narrowed &&
        orderBy(use.index, use.pinned, sort) !== undefined &&
        orderBy(best.index, best.pinned, sort) === undefined);
    if (better) best = use;
  }
  const join = (index: IndexInfo) =>
    `SELECT d.id, d.doc FROM ${ident(index.table)} AS k JOIN ${docs} AS d ON d.id = k.id`;
  if (best) {
    const order = orderBy(best.index, best.pinned, sort);
    // Every condition answered by the keys (and one key per document): a count needs no document.
    const exact = !best.index.multikey && Object.keys(filter).every((field) => best!.exact.has(field));
    return {
      countSql: exact
        ? `SELECT count(DISTINCT k.id) AS n FROM ${ident(best.index.table)} AS k WHERE ${best.where.join(' AND ')}`
        : undefined,
      sql: `${join(best.index)} WHERE ${best.where.join(' AND ')} ORDER BY ${order ?? 'd.rowid'}`,
      params: best.params,
      kind: 'index',
      index: best.index.name,
      ordered: unsorted || order !== undefined,
      repeats: best.index.multikey,
    };
  }
  // Nothing narrows the filter, but an index may give the rows in the asked order (a newest-first page
  // then reads only as far as the page). A sparse index lacks some documents, so it cannot.
  for (const index of indexes) {
    if (index.spec.sparse) continue;
    const order = orderBy(index, 0, sort);
    if (!order) continue;
    return {
      sql: `${join(index)} ORDER BY ${order}`,
      params: [],
      kind: 'index',
      index: index.name,
      ordered: true,
      repeats: index.multikey,
    };
  }
  return {
    sql: `SELECT id, doc FROM ${docs} ORDER BY rowid`,
    params: [],
    kind: 'scan',
    ordered: unsorted,
    repeats: false,
  };
}
