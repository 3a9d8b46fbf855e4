// MongoDB errors translated into the port's terms.
import { DuplicateKeyError } from '../../ports/documents';

interface MongoLikeError {
  code?: unknown;
  message?: unknown;
  writeErrors?: unknown;
  errorResponse?: { keyPattern?: Record<string, unknown> };
}

/** E11000, directly or inside a bulk write's first write error. */
export function isDuplicateKey(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as MongoLikeError;
  if (e.code === 11000) return true;
  const writeErrors = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [];
  return writeErrors.some((w) => (w as { code?: unknown }).code === 11000);
}

/** The index named in an E11000 message ("... index: email_1 dup key: ..."). */
function indexFrom(err: MongoLikeError): string {
  const message = typeof err.message === 'string' ? err.message : '';
  const named = /index: (\S+) dup key/.exec(message);
  if (named) return named[1]!;
  const pattern = err.errorResponse?.keyPattern;
  return pattern ? Object.keys(pattern).join('_') : 'unknown';
}

export function translateError(collection: string, err: unknown): unknown {
  if (isDuplicateKey(err)) return new DuplicateKeyError(collection, indexFrom(err as MongoLikeError));
  return err;
}

/** Credentials never reach logs or error messages. */
export function redactUri(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}
