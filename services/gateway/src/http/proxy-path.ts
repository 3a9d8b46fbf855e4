// Which request paths the gateway may forward to an internal service. The proxy mounts (/objects,
// /realms) are decided by Express on the path as sent, but a URL parser anywhere after that (the proxy's
// own, or the service's) resolves dot segments: /objects/%2e%2e/healthz would be routed as /objects and
// then reach /healthz. So a path is checked segment by segment, decoded, before anything is forwarded.
// No link the platform hands out ever has a dot segment, a '%' in a decoded name (file names are
// sanitised, see storage's domain/keys.ts), an encoded '/' or a backslash, so refusing them costs nothing.

export const REFUSED_PATH_MESSAGE =
  'This address is not valid: it must not contain "." or ".." segments, encoded slashes or backslashes.';

/** True when every segment of a raw request path (no query) stays where it is written. */
export function staysInPlace(rawPath: string): boolean {
  // WHATWG URL parsing treats '\' as '/' in http URLs, so a raw backslash is a separator in disguise.
  if (rawPath.includes('\\')) return false;
  for (const segment of rawPath.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (decoded === '.' || decoded === '..') return false;
    // An encoded separator or NUL; or a '%' left after one decoding, which is double encoding
    // (%252e%252e) that a second decoder further on would turn into '..'.
    if (/[/\\\0%]/.test(decoded)) return false;
  }
  return true;
}
