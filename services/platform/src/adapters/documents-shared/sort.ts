// Multi-key sort with MongoDB's rules: missing sorts as null, mixed types follow BSON order, and an array
// sorts by its smallest element ascending or its largest descending. ISO date strings sort as strings.
import type { Doc, Sort } from '../../ports/documents';
import { flattenCandidates, resolvePath } from './paths';
import { compareValues, InvalidQueryError } from './values';

function sortKey(doc: Doc, path: string, direction: 1 | -1): unknown {
  const raw = resolvePath(doc, path);
  const values = flattenCandidates(raw);
  if (values.length === 0) return undefined; // only empty arrays: MongoDB sorts these first
  let best = values[0];
  for (const v of values.slice(1)) {
    const c = compareValues(v, best);
    if (direction === 1 ? c < 0 : c > 0) best = v;
  }
  return best;
}

export function validateSort(sort: unknown): asserts sort is Sort {
  if (sort === undefined) return;
  if (typeof sort !== 'object' || sort === null) throw new InvalidQueryError('sort must be an object');
  for (const [path, dir] of Object.entries(sort)) {
    if (dir !== 1 && dir !== -1) throw new InvalidQueryError(`sort direction for '${path}' must be 1 or -1`);
  }
}

export function compareBySort(sort: Sort): (a: Doc, b: Doc) => number {
  const keys = Object.entries(sort);
  return (a, b) => {
    for (const [path, direction] of keys) {
      const c = compareValues(sortKey(a, path, direction), sortKey(b, path, direction));
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}
