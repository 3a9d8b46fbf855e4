// The one-time import of the old store's data folder (legacy.ts reads it) into the database, in one SQLite
// transaction: a crash or a damaged file leaves the database as it was and the folder where it was, so the
// next start tries again or says what is wrong. Runs at open, before the store serves anything.
import type { Logger } from 'pino';
import type { Doc } from '../../ports/documents';
import { type Connection, ident } from './connection';
import { hasLegacyFolder, importLegacy, retireLegacyFolder } from './legacy';
import { createCollection } from './schema';

export async function migrateLegacyFolder(db: Connection, dataDir: string, logger: Logger): Promise<void> {
  if (!hasLegacyFolder(dataDir)) return;
  // At warn, so `npm start` (LOG_LEVEL=warn) shows it: a start that takes longer should say why.
  logger.warn({ dataDir }, 'migrating the old embedded document store into SQLite (once; may take a while)');
  const started = Date.now();
  const tables = new Map<string, string>();
  const table = (collection: string) => {
    let name = tables.get(collection);
    if (!name) {
      name = ident(createCollection(db, collection).table);
      tables.set(collection, name);
    }
    return name;
  };
  db.db.exec('BEGIN IMMEDIATE');
  let records: number;
  try {
    ({ records } = await importLegacy(
      dataDir,
      {
        put: (collection: string, doc: Doc) =>
          db.run(
            `INSERT INTO ${table(collection)} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`,
            [doc._id, JSON.stringify(doc)],
          ),
        remove: (collection, id) => db.run(`DELETE FROM ${table(collection)} WHERE id = ?`, [id]),
        sequence: (name, value) =>
          db.run(
            'INSERT INTO _sequences (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)',
            [name, value],
          ),
      },
      logger,
    ));
    db.run("INSERT OR REPLACE INTO _meta (key, value) VALUES ('migrated-from-embedded', ?)", [
      new Date().toISOString(),
    ]);
    db.db.exec('COMMIT');
    // The old folder is moved aside next: the import must be on disk first (synchronous=NORMAL does not
    // sync at COMMIT; a checkpoint syncs the WAL and then the database).
    db.db.pragma('wal_checkpoint(FULL)');
  } catch (err) {
    if (db.db.inTransaction) db.db.exec('ROLLBACK');
    throw new Error(
      `migrating the old document store in ${dataDir} failed, nothing was changed: ${(err as Error).message}`,
    );
  }
  const kept = await retireLegacyFolder(dataDir);
  logger.warn(
    { records, ms: Date.now() - started, kept },
    'migrated the old embedded document store into SQLite; its files are kept aside, delete them once satisfied',
  );
}
