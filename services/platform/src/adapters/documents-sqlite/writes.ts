// Writing one document: its JSON row and its rows in every index's key table, inside the caller's
// transaction or savepoint. SQLite's constraint errors become the port's DuplicateKeyError, named after the
// index whose UNIQUE index refused the key (or _id_ for the primary key).
import { type Doc, DuplicateKeyError } from '../../ports/documents';
import { type Connection, ident } from './connection';
import { sameKeys } from './keys';
import { type CollectionMeta, deleteKeys, writeKeys } from './schema';

/** Which port index an SQLite UNIQUE index belongs to, by the SQLite index name. */
const uniqueOwners = new Map<string, { collection: string; index: string }>();

export function registerUnique(meta: CollectionMeta): void {
  for (const index of meta.indexes) {
    if (index.uniqueName) uniqueOwners.set(index.uniqueName, { collection: meta.name, index: index.name });
  }
}

/** Runs `work`, turning a UNIQUE or PRIMARY KEY violation into DuplicateKeyError. */
export function mapDuplicates<R>(collection: string, work: () => R): R {
  try {
    return work();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw err;
    // "UNIQUE constraint failed: index 'u:releases:upc_1'" for ours, "...: d:releases.id" for _id.
    const named = /index '(.*)'$/.exec((err as Error).message)?.[1];
    const owner = named ? uniqueOwners.get(named) : undefined;
    throw new DuplicateKeyError(owner?.collection ?? collection, owner?.index ?? '_id_');
  }
}

export function insertDoc(db: Connection, meta: CollectionMeta, doc: Doc): void {
  db.run(`INSERT INTO ${ident(meta.table)} (id, doc) VALUES (?, ?)`, [doc._id, JSON.stringify(doc)]);
  for (const index of meta.indexes) writeKeys(db, meta, index, doc);
}

export function replaceDoc(db: Connection, meta: CollectionMeta, before: Doc, after: Doc): void {
  db.run(`UPDATE ${ident(meta.table)} SET doc = ? WHERE id = ?`, [JSON.stringify(after), after._id]);
  for (const index of meta.indexes) {
    if (sameKeys(before, after, index.spec)) continue;
    deleteKeys(db, index, after._id);
    writeKeys(db, meta, index, after);
  }
}

export function deleteDoc(db: Connection, meta: CollectionMeta, id: string): void {
  db.run(`DELETE FROM ${ident(meta.table)} WHERE id = ?`, [id]);
  for (const index of meta.indexes) deleteKeys(db, index, id);
}
