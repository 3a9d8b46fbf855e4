// Sorts what ssh2 / ssh2-sftp-client throw into retryable or not. ssh2-sftp-client re-wraps errors and
// keeps only `code` and the message, so the message is read too (ssh2's `level` is lost on the way).
import { isNetworkCode } from '../network-errors';
import { TransportError } from '../port';

// SFTP status codes (draft-ietf-secsh-filexfer-02): 2 no such file, 3 permission denied.
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;

export function classifySftpError(err: unknown): TransportError {
  if (err instanceof TransportError) return err;
  const code = (err as { code?: unknown } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const cause = { cause: err };
  if (
    /authentication methods failed|ERR_BAD_AUTH|host key|hostVerifier|Host denied/i.test(message) ||
    code === 'ERR_BAD_AUTH'
  ) {
    return new TransportError('auth', `the store's SFTP server refused our login: ${message}`, cause);
  }
  if (code === SFTP_PERMISSION_DENIED || code === 'EACCES' || /permission denied/i.test(message)) {
    return new TransportError('permission', `the store's SFTP server denied access: ${message}`, cause);
  }
  if (code === SFTP_NO_SUCH_FILE || code === 'ENOENT' || /no such file/i.test(message)) {
    return new TransportError('not-found', message, cause);
  }
  if (code === 'ETIMEDOUT' || /timed out|timeout/i.test(message)) {
    return new TransportError('timeout', `the store's SFTP server did not answer in time: ${message}`, cause);
  }
  if (isNetworkCode(code, ['ERR_NOT_CONNECTED']) || /connection|socket|not connected|closed/i.test(message)) {
    return new TransportError('network', `the store's SFTP server could not be reached: ${message}`, cause);
  }
  // Anything else (SFTP FAILURE, an unexpected server answer) is treated as the server's trouble.
  return new TransportError('server', message, cause);
}
