// The database's layout. Per collection: a table `d:<collection>` (id TEXT PRIMARY KEY, doc TEXT holding the
// document as JSON), and per declared index a key table `k:<collection>:<index>` with one row per key the
// document has in that index (k0..kn, id), an index on (k0..kn, id) for lookups, ranges and ordered walks, an
// index on id to rewrite a document's rows, and for a unique index a UNIQUE index on the key columns, which
// is what refuses duplicates (a missing field is NULL in the key table; ifnull() makes it one value there,
// as MongoDB indexes a missing field as null). Bookkeeping tables start with an underscore.
import type { IndexSpec } from '../../ports/documents';
import { indexName } from '../documents-shared';
import { type Connection, ident } from './connection';
import { keyTuples } from './keys';

export interface IndexInfo {
  readonly name: string;
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly table: string;
  /** The name of the SQLite UNIQUE index (its violations name it), for unique ones. */
  readonly uniqueName: string | undefined;
  /** Some document has had several keys in it: a range then holds per key, not per document. */
  multikey: boolean;
  /** Created by a transaction still open: only that transaction's connection may use it. */
  pending: boolean;
}

export interface CollectionMeta {
  readonly name: string;
  readonly table: string;
  readonly indexes: IndexInfo[];
  pending: boolean;
}

export const BOOKKEEPING = `
  CREATE TABLE IF NOT EXISTS _collections (name TEXT PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS _indexes (
    collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, multikey INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (collection, name));
  CREATE TABLE IF NOT EXISTS _sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export const docTable = (collection: string) => `d:${collection}`;

function keyColumns(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `k${i}`);
}

function indexInfo(collection: string, spec: IndexSpec, multikey: boolean, pending: boolean): IndexInfo {
  const name = indexName(spec);
  const table = `k:${collection}:${name}`;
  return {
    name,
    spec,
    fields: Object.keys(spec.fields),
    table,
    uniqueName: spec.unique ? `u:${collection}:${name}` : undefined,
    multikey,
    pending,
  };
}

/** Every collection and index the database holds, as committed. */
export function loadSchema(db: Connection): Map<string, CollectionMeta> {
  const out = new Map<string, CollectionMeta>();
  for (const { name } of db.all<{ name: string }>('SELECT name FROM _collections')) {
    out.set(name, { name, table: docTable(name), indexes: [], pending: false });
  }
  const rows = db.all<{ collection: string; spec: string; multikey: number }>(
    'SELECT collection, spec, multikey FROM _indexes ORDER BY rowid',
  );
  for (const row of rows) {
    const meta = out.get(row.collection);
    meta?.indexes.push(
      indexInfo(row.collection, JSON.parse(row.spec) as IndexSpec, row.multikey === 1, false),
    );
  }
  return out;
}

/** Creates a collection's table (call inside a write). */
export function createCollection(db: Connection, name: string): CollectionMeta {
  db.db.exec(`CREATE TABLE IF NOT EXISTS ${ident(docTable(name))} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
  db.run('INSERT OR IGNORE INTO _collections (name) VALUES (?)', [name]);
  return { name, table: docTable(name), indexes: [], pending: true };
}

/** Whether an index of that name exists with another definition (it is then rebuilt). */
export function sameSpec(a: IndexSpec, b: IndexSpec): boolean {
  return (
    JSON.stringify(Object.entries(a.fields)) === JSON.stringify(Object.entries(b.fields)) &&
    Boolean(a.unique) === Boolean(b.unique) &&
    Boolean(a.sparse) === Boolean(b.sparse)
  );
}

export function dropIndex(db: Connection, meta: CollectionMeta, index: IndexInfo): void {
  db.db.exec(`DROP TABLE IF EXISTS ${ident(index.table)}`);
  db.run('DELETE FROM _indexes WHERE collection = ? AND name = ?', [meta.name, index.name]);
  meta.indexes.splice(meta.indexes.indexOf(index), 1);
}

/**
 * Creates an index's key table and fills it from the documents already there. A unique index that existing
 * documents already break fails here with the constraint error, and the write that declared it fails.
 */
export function createIndex(db: Connection, meta: CollectionMeta, spec: IndexSpec): IndexInfo {
  const info = indexInfo(meta.name, spec, false, true);
  const columns = keyColumns(info.fields.length);
  const table = ident(info.table);
  db.db.exec(`CREATE TABLE ${table} (${[...columns, 'id TEXT NOT NULL'].join(', ')})`);
  // In the declared directions, so a sort that mixes them ({createdAt: -1, _id: 1}) still walks the index.
  const ordered = info.fields.map((field, i) => `k${i} ${spec.fields[field] === -1 ? 'DESC' : 'ASC'}`);
  db.db.exec(`CREATE INDEX ${ident(`${info.table}:keys`)} ON ${table} (${[...ordered, 'id'].join(', ')})`);
  db.db.exec(`CREATE INDEX ${ident(`${info.table}:id`)} ON ${table} (id)`);
  if (info.uniqueName) {
    const keys = columns.map((c) => `ifnull(${c}, x'')`).join(', ');
    db.db.exec(`CREATE UNIQUE INDEX ${ident(info.uniqueName)} ON ${table} (${keys})`);
  }
  db.run('INSERT INTO _indexes (collection, name, spec, multikey) VALUES (?, ?, ?, 0)', [
    meta.name,
    info.name,
    JSON.stringify(spec),
  ]);
  meta.indexes.push(info);
  // Batches by rowid: a statement cannot write while another one on the same connection is mid-iteration.
  let after = 0;
  for (;;) {
    const rows = db.all<{ rowid: number; id: string; doc: string }>(
      `SELECT rowid, id, doc FROM ${ident(meta.table)} WHERE rowid > ? ORDER BY rowid LIMIT 500`,
      [after],
    );
    if (rows.length === 0) break;
    for (const row of rows) writeKeys(db, meta, info, JSON.parse(row.doc));
    after = rows[rows.length - 1]!.rowid;
  }
  return info;
}

/** Inserts a document's rows in one index's key table. */
export function writeKeys(
  db: Connection,
  meta: CollectionMeta,
  index: IndexInfo,
  doc: { _id: string; [field: string]: unknown },
): void {
  const tuples = keyTuples(doc, index.spec);
  if (tuples.length > 1 && !index.multikey) {
    index.multikey = true;
    db.run('UPDATE _indexes SET multikey = 1 WHERE collection = ? AND name = ?', [meta.name, index.name]);
  }
  const columns = keyColumns(index.fields.length);
  const sql = `INSERT INTO ${ident(index.table)} (${[...columns, 'id'].join(', ')}) VALUES (${[...columns, 'id'].map(() => '?').join(', ')})`;
  for (const tuple of tuples) db.run(sql, [...tuple, doc._id]);
}

export function deleteKeys(db: Connection, index: IndexInfo, id: string): void {
  db.run(`DELETE FROM ${ident(index.table)} WHERE id = ?`, [id]);
}
