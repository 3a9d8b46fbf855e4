// Which of the precompressed forms of a page a request gets, from its Accept-Encoding with q-values
// (`br;q=0` refuses brotli; `gzip, br` still prefers brotli, the smaller). Negotiator is what Express's
// req.acceptsEncodings uses underneath.
import Negotiator from 'negotiator';

export type HtmlEncoding = 'br' | 'gzip' | undefined;

const AVAILABLE = ['br', 'gzip', 'identity'];

/** negotiator 1.x's encodings(), whose `preferred` option @types/negotiator (0.6) does not declare yet. */
type PreferringEncodings = (available: string[], options: { preferred: string[] }) => string[];

// Browsers send a handful of distinct headers, so the answer is remembered per header (bounded, since
// the header is the client's to choose) instead of parsed on every request.
const chosen = new Map<string, HtmlEncoding>();
const REMEMBERED = 64;

/** The encoding to send: br or gzip when accepted, the plain bytes otherwise (no header means identity). */
export function htmlEncoding(acceptEncoding: string | undefined): HtmlEncoding {
  if (!acceptEncoding) return undefined;
  let encoding = chosen.get(acceptEncoding);
  if (encoding !== undefined || chosen.has(acceptEncoding)) return encoding;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
  // Ties in q go to our order (brotli first), not the header's (Chrome sends `gzip, deflate, br`).
  const best = (negotiator.encodings as PreferringEncodings).call(negotiator, AVAILABLE, {
    preferred: AVAILABLE,
  })[0];
  // Nothing acceptable (`identity;q=0` alone): the plain bytes, as before, rather than a 406 a browser never needs.
  encoding = best === 'br' || best === 'gzip' ? best : undefined;
  if (chosen.size >= REMEMBERED) chosen.clear();
  chosen.set(acceptEncoding, encoding);
  return encoding;
}
