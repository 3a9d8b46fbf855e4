// The embedded document store on SQLite: the documents port on local disk, for `npm start` and tests.
import type { DocumentStore } from '../../ports/documents';
import { SqliteDocumentStore, type SqliteDocumentStoreOptions } from './store';

export { type ScanReport, watchScans } from './scans';
export type { QueryExplanation, SqliteDocumentStoreOptions } from './store';
export { DATABASE_FILE, SqliteDocumentStore } from './store';

export function createSqliteDocumentStore(options: SqliteDocumentStoreOptions): DocumentStore {
  return new SqliteDocumentStore(options);
}
