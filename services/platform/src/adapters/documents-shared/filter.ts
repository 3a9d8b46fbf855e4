// The filter language both adapters share: a strict subset of MongoDB's query language. validateFilter
// rejects anything outside it (so operator injection such as $where can never reach MongoDB), and
// matchesFilter evaluates it with MongoDB's semantics for the SQLite store (which tests every document its
// SQL fetched with it).
import type { Doc, Filter, Scalar } from '../../ports/documents';
import { flattenCandidates, resolvePath, splitPath } from './paths';
import { compareValues, deepEqual, InvalidQueryError, isPlainObject, type PlainObject } from './values';

const FIELD_OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists']);
const LOGICAL_OPERATORS = new Set(['$or', '$and']);

/** True when a condition is an operator object ({$gt: 1}) rather than a value to compare with. */
function isOperatorObject(condition: unknown): condition is PlainObject {
  if (!isPlainObject(condition)) return false;
  const keys = Object.keys(condition);
  if (keys.length === 0) return false;
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length === 0) return false;
  if (operators.length !== keys.length) {
    throw new InvalidQueryError(`cannot mix operators and fields in one condition: ${keys.join(', ')}`);
  }
  return true;
}

export function validateFilter(filter: unknown): asserts filter is Filter {
  if (!isPlainObject(filter)) throw new InvalidQueryError('a filter must be an object');
  for (const [key, condition] of Object.entries(filter)) {
    if (key.startsWith('$')) {
      if (!LOGICAL_OPERATORS.has(key)) throw new InvalidQueryError(`unsupported top-level operator ${key}`);
      if (!Array.isArray(condition) || condition.length === 0) {
        throw new InvalidQueryError(`${key} needs a non-empty array of filters`);
      }
      for (const sub of condition) validateFilter(sub);
      continue;
    }
    splitPath(key);
    if (condition === undefined) throw new InvalidQueryError(`condition for '${key}' is undefined`);
    if (!isOperatorObject(condition)) continue;
    for (const [op, operand] of Object.entries(condition)) {
      if (!FIELD_OPERATORS.has(op)) throw new InvalidQueryError(`unsupported operator ${op} on '${key}'`);
      if ((op === '$in' || op === '$nin') && !Array.isArray(operand)) {
        throw new InvalidQueryError(`${op} on '${key}' needs an array`);
      }
      if (op === '$exists' && typeof operand !== 'boolean') {
        throw new InvalidQueryError(`$exists on '${key}' needs true or false`);
      }
      if (operand === undefined) throw new InvalidQueryError(`${op} on '${key}' is undefined`);
    }
  }
}

/** Equality as MongoDB applies it to a path: any reached value equals it, or is an array containing it. */
function equalsAny(candidates: unknown[], value: unknown): boolean {
  for (const c of candidates) {
    if (value === null && c === undefined) return true;
    if (deepEqual(c, value)) return true;
    if (Array.isArray(c) && c.some((element) => deepEqual(element, value))) return true;
  }
  return false;
}

/** Range operators only compare like with like (number with number, string with string), as MongoDB does. */
function compareAny(candidates: unknown[], operand: unknown, accept: (c: number) => boolean): boolean {
  return flattenCandidates(candidates).some(
    (c) => c !== undefined && typeof c === typeof operand && c !== null && accept(compareValues(c, operand)),
  );
}

function matchOperator(candidates: unknown[], op: string, operand: unknown): boolean {
  switch (op) {
    case '$eq':
      return equalsAny(candidates, operand);
    case '$ne':
      return !equalsAny(candidates, operand);
    case '$in':
      return (operand as Scalar[]).some((v) => equalsAny(candidates, v));
    case '$nin':
      return !(operand as Scalar[]).some((v) => equalsAny(candidates, v));
    case '$gt':
      return compareAny(candidates, operand, (c) => c > 0);
    case '$gte':
      return compareAny(candidates, operand, (c) => c >= 0);
    case '$lt':
      return compareAny(candidates, operand, (c) => c < 0);
    case '$lte':
      return compareAny(candidates, operand, (c) => c <= 0);
    case '$exists':
      return candidates.some((c) => c !== undefined) === operand;
    default:
      throw new InvalidQueryError(`unsupported operator ${op}`);
  }
}

export function matchesFilter(doc: Doc, filter: Filter): boolean {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$or') {
      if (!(condition as Filter[]).some((sub) => matchesFilter(doc, sub))) return false;
      continue;
    }
    if (key === '$and') {
      if (!(condition as Filter[]).every((sub) => matchesFilter(doc, sub))) return false;
      continue;
    }
    const candidates = resolvePath(doc, key);
    if (isOperatorObject(condition)) {
      for (const [op, operand] of Object.entries(condition)) {
        if (!matchOperator(candidates, op, operand)) return false;
      }
    } else if (!equalsAny(candidates, condition)) {
      return false;
    }
  }
  return true;
}

/**
 * The plain equality a filter states for a top-level path (`{a: 1}` or `{a: {$eq: 1}}`), or undefined.
 * Used to seed upserted documents and to look documents up by index.
 */
export function equalityOf(filter: Filter, path: string): { value: unknown } | undefined {
  if (!Object.hasOwn(filter, path)) return undefined;
  const condition = filter[path];
  if (isOperatorObject(condition)) {
    const keys = Object.keys(condition);
    if (keys.length === 1 && keys[0] === '$eq') return { value: condition.$eq };
    return undefined;
  }
  return { value: condition };
}

/** Every plain equality of a filter's top level, by path (what an upsert inserts before applying the update). */
export function equalities(filter: Filter): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const key of Object.keys(filter)) {
    if (key.startsWith('$')) continue;
    const eq = equalityOf(filter, key);
    if (eq) out.push([key, eq.value]);
  }
  return out;
}
