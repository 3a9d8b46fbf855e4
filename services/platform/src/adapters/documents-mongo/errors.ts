// MongoDB errors translated into the port's terms.
import { DuplicateKeyError, type IndexSpec } from '../../ports/documents';
import { indexName } from '../documents-shared';

interface MongoLikeError {
  code?: unknown;
  message?: unknown;
  writeErrors?: unknown;
  errorResponse?: { keyPattern?: Record<string, unknown> };
}

/**
 * FerretDB's SQLite handler reports an update that breaks a unique index as an internal error carrying
 * SQLite's message, naming its own index: "<table>_<index name>".
 */
const SQLITE_UNIQUE = /UNIQUE constraint failed: index '([^']+)'/;

/** E11000, directly or inside a bulk write's first write error. */
export function isDuplicateKey(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as MongoLikeError;
  if (e.code === 11000) return true;
  if (typeof e.message === 'string' && SQLITE_UNIQUE.test(e.message)) return true;
  const writeErrors = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [];
  return writeErrors.some((w) => (w as { code?: unknown }).code === 11000);
}

/** The index named in an E11000 message ("... index: email_1 dup key: ..."); 'unknown' when none is. */
function indexFrom(err: MongoLikeError, declared: IndexSpec[]): string {
  const message = typeof err.message === 'string' ? err.message : '';
  const named = /index: (\S+) dup key/.exec(message);
  if (named) return named[1]!;
  const sqlite = SQLITE_UNIQUE.exec(message)?.[1];
  if (sqlite) {
    const names = [...declared.map(indexName), '_id_'].sort((a, b) => b.length - a.length);
    return names.find((n) => sqlite.endsWith(`_${n}`)) ?? 'unknown';
  }
  const pattern = err.errorResponse?.keyPattern;
  return pattern ? Object.keys(pattern).join('_') : 'unknown';
}

export function translateError(collection: string, err: unknown, declared: IndexSpec[] = []): unknown {
  if (isDuplicateKey(err))
    return new DuplicateKeyError(collection, indexFrom(err as MongoLikeError, declared));
  return err;
}

/** Credentials never reach logs or error messages. */
export function redactUri(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}
