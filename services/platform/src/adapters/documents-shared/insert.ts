// How both adapters turn a caller's document into the stored one: plain JSON, with a string _id
// (generated when absent) as the first field.
import { randomUUID } from 'node:crypto';
import type { Doc } from '../../ports/documents';
import { assertEngineShape, InvalidQueryError, toStorable } from './values';

export function prepareInsert(input: unknown): Doc {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidQueryError('a document must be an object');
  }
  const stored = toStorable(input) as Record<string, unknown>;
  assertEngineShape(stored, 'the document');
  const id = stored._id ?? randomUUID();
  if (typeof id !== 'string' || id.length === 0)
    throw new InvalidQueryError('_id must be a non-empty string');
  // Already shaped (the repositories write _id first): the document itself, not a copy. One copying
  // literal here served every collection's documents, so V8 judged them all by the longest-lived: 10,000
  // recordings kept through a queued write made it allocate every later document in the old generation,
  // where a statement import's ledger pages (dead once written) held their 16 KB texts through the young
  // collections until the next full one (bench:royalties: +25 MB peak RSS in half the runs).
  if (firstKey(stored) === '_id') return stored as Doc;
  const { _id: _ignored, ...rest } = stored;
  return { _id: id, ...rest };
}

function firstKey(o: Record<string, unknown>): string | undefined {
  for (const k in o) return k;
  return undefined;
}
