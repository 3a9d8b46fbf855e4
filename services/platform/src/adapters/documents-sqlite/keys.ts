// Index keys as SQLite values. The port's indexes follow MongoDB: an array field indexes each element
// (multikey), a missing field indexes as null, and values of different types never equal each other. A
// json_extract expression index can do none of the first two, so each index is a table of its own holding
// one row per key (see schema.ts), filled from documents-shared's indexKeys.
//
// The encoding keeps MongoDB's order between types in SQLite's own order: NULL < numbers < TEXT < BLOB, and
// the rarer types are BLOBs whose first byte follows MongoDB's type order (object 4, array 5, boolean 8).
// So a range on numbers or on strings is a plain index range, and ORDER BY on a key column sorts as
// MongoDB sorts.
import type { Doc, IndexSpec } from '../../ports/documents';
import { indexKeys } from '../documents-shared';

export type KeyValue = null | number | string | Buffer;

const OBJECT = 0x04;
const ARRAY = 0x05;
const BOOLEAN = 0x08;

export function encodeKey(value: unknown): KeyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return Buffer.from([BOOLEAN, value ? 1 : 0]);
  const tag = Array.isArray(value) ? ARRAY : OBJECT;
  return Buffer.concat([Buffer.from([tag]), Buffer.from(JSON.stringify(value))]);
}

/** The key tuples a document has in an index (none when a sparse index does not cover it). */
export function keyTuples(doc: Doc, spec: IndexSpec): KeyValue[][] {
  return indexKeys(doc, spec).map((key) => (JSON.parse(key) as unknown[]).map(encodeKey));
}

/** Whether two documents have the same keys in an index (then an update leaves its rows alone). */
export function sameKeys(a: Doc, b: Doc, spec: IndexSpec): boolean {
  const ka = indexKeys(a, spec);
  const kb = indexKeys(b, spec);
  return ka.length === kb.length && ka.every((key, i) => key === kb[i]);
}
