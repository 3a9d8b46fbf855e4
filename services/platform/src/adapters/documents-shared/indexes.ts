// Index keys as MongoDB computes them: a missing field indexes as null (so a non-sparse unique index admits
// one document without the field), an array field indexes each element (multikey), and a sparse index here
// means "only documents where every indexed field exists" (MongoDB: partialFilterExpression with $exists).
import type { Doc, IndexSpec } from '../../ports/documents';
import { resolvePath } from './paths';
import { InvalidQueryError } from './values';

const MAX_KEYS_PER_DOC = 1000;

/** MongoDB's default index name: field_1_other_-1. */
export function indexName(spec: IndexSpec): string {
  return (
    spec.name ??
    Object.entries(spec.fields)
      .map(([field, dir]) => `${field}_${dir}`)
      .join('_')
  );
}

function valuesFor(doc: Doc, path: string): unknown[] {
  const out: unknown[] = [];
  for (const c of resolvePath(doc, path)) {
    if (Array.isArray(c)) {
      if (c.length === 0) out.push(null);
      else out.push(...c);
    } else {
      out.push(c === undefined ? null : c);
    }
  }
  return out;
}

/** Whether a sparse index covers the document (every field exists). */
function coversDoc(doc: Doc, spec: IndexSpec): boolean {
  if (!spec.sparse) return true;
  return Object.keys(spec.fields).every((path) => resolvePath(doc, path).some((c) => c !== undefined));
}

/** The distinct keys a document has in an index; empty when a sparse index does not cover it. */
export function indexKeys(doc: Doc, spec: IndexSpec): string[] {
  if (!coversDoc(doc, spec)) return [];
  let tuples: unknown[][] = [[]];
  for (const path of Object.keys(spec.fields)) {
    const values = valuesFor(doc, path);
    const next: unknown[][] = [];
    for (const tuple of tuples) for (const v of values) next.push([...tuple, v]);
    if (next.length > MAX_KEYS_PER_DOC) {
      throw new InvalidQueryError(`document ${doc._id} has too many keys for index ${indexName(spec)}`);
    }
    tuples = next;
  }
  return [...new Set(tuples.map((t) => JSON.stringify(t)))];
}
