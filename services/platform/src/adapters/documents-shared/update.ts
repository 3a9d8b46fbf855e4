// The update language both adapters share ($set $unset $inc $setOnInsert $push $pull, dotted paths).
// validateUpdate rejects what MongoDB would reject (unknown operators, conflicting paths, touching _id), so
// an update that works on the SQLite store also works on MongoDB and the other way round.
import type { Doc, Filter, Update } from '../../ports/documents';
import { equalities } from './filter';
import { getAt, setAt, splitPath, unsetAt } from './paths';
import {
  assertEngineShape,
  deepEqual,
  InvalidQueryError,
  isPlainObject,
  type PlainObject,
  toStorable,
} from './values';

const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$setOnInsert', '$push', '$pull']);

export function validateUpdate(update: unknown): asserts update is Update {
  if (!isPlainObject(update)) throw new InvalidQueryError('an update must be an object');
  const keys = Object.keys(update);
  if (keys.length === 0) throw new InvalidQueryError('an update needs at least one operator');
  const paths: string[] = [];
  for (const op of keys) {
    if (!UPDATE_OPERATORS.has(op)) throw new InvalidQueryError(`unsupported update operator ${op}`);
    const fields = update[op];
    if (!isPlainObject(fields)) throw new InvalidQueryError(`${op} needs an object of fields`);
    for (const [path, value] of Object.entries(fields)) {
      const parts = splitPath(path);
      if (parts[0] === '_id' && op !== '$setOnInsert') {
        throw new InvalidQueryError(`${op} on '${path}' would modify the immutable field _id`);
      }
      if (value === undefined) throw new InvalidQueryError(`${op} '${path}' is undefined`);
      if (op === '$push') {
        // Pushing an array (or $each of arrays) makes an array inside an array.
        for (const item of isPlainObject(value) && Array.isArray(value.$each) ? value.$each : [value]) {
          if (Array.isArray(item))
            throw new InvalidQueryError(
              `$push '${path}' would put an array inside an array, which FerretDB does not store`,
            );
          assertEngineShape(item, `$push '${path}'`);
        }
      } else assertEngineShape(value, `${op} '${path}'`);
      if (op === '$inc' && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw new InvalidQueryError(`$inc '${path}' needs a finite number`);
      }
      if (op === '$pull' && typeof value === 'object' && value !== null) {
        throw new InvalidQueryError(`$pull '${path}' takes a plain value`);
      }
      if (op === '$push' && isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
        const modifiers = Object.keys(value);
        if (modifiers.length !== 1 || modifiers[0] !== '$each' || !Array.isArray(value.$each)) {
          throw new InvalidQueryError(`$push '${path}' supports only {$each: [...]}`);
        }
      }
      paths.push(path);
    }
  }
  // MongoDB refuses one update touching a path twice, or a path and its parent.
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (cur === prev || cur.startsWith(`${prev}.`)) {
      throw new InvalidQueryError(`updating the path '${cur}' would create a conflict at '${prev}'`);
    }
  }
}

/** Storable form of an update's values, so both adapters persist exactly the same documents. */
export function normaliseUpdate(update: Update): Update {
  return toStorable(update);
}

function pushValues(value: unknown): unknown[] {
  if (isPlainObject(value) && Array.isArray(value.$each)) return value.$each;
  return [value];
}

/** Applies an update to a copy of `doc`. `inserting` enables $setOnInsert. */
export function applyUpdate(doc: Doc, update: Update, inserting: boolean): Doc {
  const next = structuredClone(doc) as Doc & PlainObject;
  for (const [path, value] of Object.entries(update.$set ?? {}))
    setAt(next, splitPath(path), structuredClone(value));
  if (inserting) {
    for (const [path, value] of Object.entries(update.$setOnInsert ?? {})) {
      setAt(next, splitPath(path), structuredClone(value));
    }
  }
  for (const path of Object.keys(update.$unset ?? {})) unsetAt(next, splitPath(path));
  for (const [path, amount] of Object.entries(update.$inc ?? {})) {
    const parts = splitPath(path);
    const current = getAt(next, parts);
    if (current === undefined) setAt(next, parts, amount);
    else if (typeof current === 'number') setAt(next, parts, current + amount);
    else throw new InvalidQueryError(`cannot apply $inc to '${path}', a non-numeric value`);
  }
  for (const [path, value] of Object.entries(update.$push ?? {})) {
    const parts = splitPath(path);
    const current = getAt(next, parts);
    const values = structuredClone(pushValues(value));
    if (current === undefined) setAt(next, parts, values);
    else if (Array.isArray(current)) current.push(...values);
    else throw new InvalidQueryError(`cannot apply $push to '${path}', a non-array value`);
  }
  for (const [path, value] of Object.entries(update.$pull ?? {})) {
    const parts = splitPath(path);
    const current = getAt(next, parts);
    if (current === undefined) continue;
    if (!Array.isArray(current))
      throw new InvalidQueryError(`cannot apply $pull to '${path}', a non-array value`);
    setAt(
      next,
      parts,
      current.filter((element) => !deepEqual(element, value)),
    );
  }
  // Only an upsert's insert may set _id (through $setOnInsert); validateUpdate refuses it everywhere else.
  if (!inserting && next._id !== doc._id) throw new InvalidQueryError('an update may not change _id');
  return next;
}

/** The document an upsert starts from: the filter's plain equalities (MongoDB does the same). */
export function seedFromFilter(filter: Filter): PlainObject {
  const seed: PlainObject = {};
  for (const [path, value] of equalities(filter)) setAt(seed, splitPath(path), structuredClone(value));
  return seed;
}
