// The operating system's error codes for a store that cannot be reached (refused, reset, unreachable, not
// resolved): retryable whatever the protocol. Each connector adds its client's own codes.
const SOCKET_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** True for a socket-level failure code, or one of `extra` (a client's own, e.g. undici's UND_ERR_SOCKET). */
export function isNetworkCode(code: unknown, extra: readonly string[] = []): boolean {
  return typeof code === 'string' && (SOCKET_ERROR_CODES.has(code) || extra.includes(code));
}
