// Reads by _id on a server that pushes nothing else down.
//
// FerretDB v1.24.2 on SQLite hands a query to SQLite only when its filter is exactly `{_id: value}`; any
// other filter (`{_id: x, status: 'queued'}`, `{_id: {$in: [..]}}`) makes it read and decode every document
// of the collection in Go: 200 delivery jobs took 190–230 ms per query on a loaded 2-core machine, against
// 3 ms for `{_id: x}`, and the cost grows with the collection. So where a filter pins the _ids it can
// match, the adapter fetches those documents one by one with `{_id: value}` and applies the rest of the
// filter (and the sort, skip and limit) with the shared matcher the contract suite holds to MongoDB's
// semantics. Writes on such a server already run one at a time per store (store.ts, serialize()), so a
// document read and matched in a write's turn is still the one the write then changes by its _id alone.
import type { Doc, Filter, FindOptions } from '../../ports/documents';
import { compareBySort, matchesFilter } from '../documents-shared';

/** Above this many pinned _ids one scan is cheaper than one lookup each. */
const MAX_LOOKUPS = 32;

/** The _ids a filter restricts its matches to (`_id: v`, `{$eq: v}` or a short `{$in: [..]}`), if any. */
export function pinnedIds(filter: Filter): string[] | undefined {
  const id = filter._id;
  if (typeof id === 'string') return [id];
  if (!id || typeof id !== 'object' || Array.isArray(id)) return undefined;
  const keys = Object.keys(id);
  if (keys.length !== 1) return undefined;
  const condition = id as { $eq?: unknown; $in?: unknown };
  if (typeof condition.$eq === 'string') return [condition.$eq];
  const list = condition.$in;
  if (Array.isArray(list) && list.length <= MAX_LOOKUPS && list.every((v) => typeof v === 'string'))
    return [...new Set(list as string[])];
  return undefined;
}

/** The documents matching `filter` among those with the given ids, sorted, skipped and limited. */
export function narrow(found: Array<Doc | null>, filter: Filter, options: FindOptions = {}): Doc[] {
  let docs = found.filter((d): d is Doc => d !== null && matchesFilter(d, filter));
  if (options.sort) docs = docs.sort(compareBySort(options.sort));
  const from = options.skip ?? 0;
  return docs.slice(from, options.limit ? from + options.limit : undefined);
}
