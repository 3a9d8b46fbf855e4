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
const accepted = new Map<string, readonly ('br' | 'gzip')[]>();
const REMEMBERED = 64;

/** The compressed forms a request accepts (q > 0), best first: brotli before gzip on equal q. */
export function acceptedEncodings(acceptEncoding: string | undefined): readonly ('br' | 'gzip')[] {
  if (!acceptEncoding) return [];
  let forms = accepted.get(acceptEncoding);
  if (forms) return forms;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
  // Ties in q go to our order (brotli first), not the header's (Chrome sends `gzip, deflate, br`).
  forms = (negotiator.encodings as PreferringEncodings)
    .call(negotiator, AVAILABLE, { preferred: AVAILABLE })
    .filter((e): e is 'br' | 'gzip' => e === 'br' || e === 'gzip');
  if (accepted.size >= REMEMBERED) accepted.clear();
  accepted.set(acceptEncoding, forms);
  return forms;
}

/**
 * The encoding to send a page in: br or gzip when accepted, the plain bytes otherwise (no header, or nothing
 * acceptable such as `identity;q=0` alone: the plain bytes rather than a 406 a browser never needs).
 */
export function htmlEncoding(acceptEncoding: string | undefined): HtmlEncoding {
  return acceptedEncodings(acceptEncoding)[0];
}
