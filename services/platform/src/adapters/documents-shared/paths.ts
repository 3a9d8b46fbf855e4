// Dotted paths ('metadata.reason') with MongoDB's traversal rules: a path crossing an array reaches into
// each element, so a filter on 'tracks.isrc' matches when any track has that ISRC.
import { InvalidQueryError, isPlainObject, type PlainObject } from './values';

const INDEX = /^\d+$/;

/**
 * Every value a path reaches. `undefined` marks a branch where the path is missing, so `{x: null}` can
 * match documents without x, as in MongoDB.
 */
export function resolvePath(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  walk(doc, path.split('.'), 0, out);
  return out.length === 0 ? [undefined] : out;
}

function walk(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    out.push(value);
    return;
  }
  const key = parts[i]!;
  if (Array.isArray(value)) {
    if (INDEX.test(key)) {
      walk(value[Number(key)], parts, i + 1, out);
      return;
    }
    for (const element of value) if (isPlainObject(element)) walk(element, parts, i, out);
    return;
  }
  if (isPlainObject(value)) {
    walk(Object.hasOwn(value, key) ? value[key] : undefined, parts, i + 1, out);
    return;
  }
  out.push(undefined);
}

/** Candidates with arrays opened one level: what equality and comparisons test against. */
export function flattenCandidates(candidates: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const c of candidates) {
    if (Array.isArray(c)) out.push(...c);
    else out.push(c);
  }
  return out;
}

export function splitPath(path: string): string[] {
  const parts = path.split('.');
  if (path.length === 0 || parts.some((p) => p.length === 0 || p.startsWith('$'))) {
    throw new InvalidQueryError(`invalid field path '${path}'`);
  }
  return parts;
}

type Container = PlainObject | unknown[];

/** The container holding the last segment, creating objects on the way (MongoDB's $set rules). */
function parentFor(doc: PlainObject, parts: string[], create: boolean): Container | undefined {
  let node: Container = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i]!;
    let next: unknown;
    if (Array.isArray(node)) {
      if (!INDEX.test(key)) {
        throw new InvalidQueryError(`cannot create field '${key}' in an array at '${parts.join('.')}'`);
      }
      next = node[Number(key)];
    } else {
      next = Object.hasOwn(node, key) ? node[key] : undefined;
    }
    if (next === undefined) {
      if (!create) return undefined;
      next = {};
      assign(node, key, next);
    } else if (!isPlainObject(next) && !Array.isArray(next)) {
      throw new InvalidQueryError(
        `cannot create field '${parts[i + 1]}' in element '${key}' (${JSON.stringify(next)})`,
      );
    }
    node = next as Container;
  }
  return node;
}

function assign(node: Container, key: string, value: unknown): void {
  if (Array.isArray(node)) {
    if (!INDEX.test(key)) throw new InvalidQueryError(`cannot create field '${key}' in an array`);
    const index = Number(key);
    while (node.length < index) node.push(null);
    node[index] = value;
  } else {
    node[key] = value;
  }
}

export function getAt(doc: PlainObject, parts: string[]): unknown {
  const parent = parentFor(doc, parts, false);
  if (parent === undefined) return undefined;
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) return INDEX.test(last) ? parent[Number(last)] : undefined;
  return Object.hasOwn(parent, last) ? parent[last] : undefined;
}

export function setAt(doc: PlainObject, parts: string[], value: unknown): void {
  const parent = parentFor(doc, parts, true)!;
  assign(parent, parts[parts.length - 1]!, value);
}

/** Removes a field; inside an array MongoDB sets the element to null rather than shifting the rest. */
export function unsetAt(doc: PlainObject, parts: string[]): void {
  const parent = parentFor(doc, parts, false);
  if (parent === undefined) return;
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) {
    if (INDEX.test(last) && Number(last) < parent.length) parent[Number(last)] = null;
  } else {
    delete parent[last];
  }
}
