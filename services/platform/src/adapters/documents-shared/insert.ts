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
  const { _id: _ignored, ...rest } = stored;
  return { _id: id, ...rest };
}
