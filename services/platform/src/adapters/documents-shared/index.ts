// The filter, update and sort language the SQLite (embedded) and MongoDB document adapters share.
export { equalities, equalityOf, matchesFilter, validateFilter } from './filter';
export { indexKeys, indexName } from './indexes';
export { prepareInsert } from './insert';
export { compareBySort, validateSort } from './sort';
export { applyUpdate, normaliseUpdate, seedFromFilter, validateUpdate } from './update';
export {
  assertEngineShape,
  compareValues,
  deepEqual,
  InvalidQueryError,
  isPlainObject,
  toStorable,
} from './values';
