// Sorts the minio client's errors into retryable or not: refused credentials and signatures, denied
// access and a missing bucket need a person; 5xx, throttling and network trouble are worth another try.
import { isNetworkCode } from '../network-errors';
import { TransportError } from '../port';

const AUTH = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AuthorizationHeaderMalformed',
  'ExpiredToken',
  'InvalidToken',
]);
const RETRYABLE_CODES = new Set([
  'InternalError',
  'ServiceUnavailable',
  'SlowDown',
  'RequestTimeout',
  'RequestTimeTooSkewed',
]);

export function isS3NotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

export function classifyS3Error(err: unknown, bucket: string): TransportError {
  if (err instanceof TransportError) return err;
  const { code, statusCode } = (err ?? {}) as { code?: unknown; statusCode?: unknown };
  const message = err instanceof Error ? err.message : String(err);
  const cause = { cause: err };
  if (typeof code === 'string' && AUTH.has(code)) {
    return new TransportError('auth', `the store's S3 endpoint refused our credentials: ${message}`, cause);
  }
  if (code === 'AccessDenied' || statusCode === 403) {
    return new TransportError('permission', `the store's S3 endpoint denied access: ${message}`, cause);
  }
  if (code === 'NoSuchBucket')
    return new TransportError('not-found', `bucket ${bucket} does not exist`, cause);
  if (isS3NotFound(err)) return new TransportError('not-found', message, cause);
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || /timed? ?out/i.test(message)) {
    return new TransportError('timeout', `the store's S3 endpoint did not answer in time: ${message}`, cause);
  }
  if (isNetworkCode(code, ['UND_ERR_SOCKET']) || /socket|ECONNREFUSED|ECONNRESET/.test(message)) {
    return new TransportError('network', `the store's S3 endpoint could not be reached: ${message}`, cause);
  }
  if (
    (typeof code === 'string' && RETRYABLE_CODES.has(code)) ||
    (typeof statusCode === 'number' && statusCode >= 500)
  ) {
    return new TransportError('server', `the store's S3 endpoint failed: ${message}`, cause);
  }
  return new TransportError(
    typeof statusCode === 'number' && statusCode < 500 ? 'permission' : 'server',
    message,
    cause,
  );
}
