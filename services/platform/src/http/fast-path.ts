// Some answers are ready before the request arrives (a cached public page). Routing a request through
// Express costs about three times what writing a ready buffer does (`npm run bench`: a bare Express JSON
// endpoint serves ~3.2k req/s on this machine, a bare Node handler ~11k), so such answers are written
// straight from the Node server, before Express. A fast path only answers what its Express route would
// answer byte for byte (same status, body and headers, security headers included) and passes everything
// else on: anything it does not recognise, anything with a body, anything not cached yet.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger';

export interface ReadyResponse {
  status: number;
  /** Headers of this answer; the service's security headers are added by the dispatcher. */
  headers: Record<string, string | number>;
  body?: Buffer;
}

/** Returns the ready answer to a request, or undefined to let Express handle it. Must not throw. */
export type HttpFastPath = (req: IncomingMessage) => ReadyResponse | undefined;

export function dispatchWithFastPaths(
  app: RequestListener,
  fastPaths: readonly HttpFastPath[],
  securityHeaders: Readonly<Record<string, string>>,
  logger: Logger,
): RequestListener {
  // A fast path that hands out the same ReadyResponse again (its cached answer) gets its merged headers
  // from here instead of merging them per request.
  const merged = new WeakMap<ReadyResponse['headers'], Record<string, string | number>>();
  const headersOf = (ready: ReadyResponse) => {
    let headers = merged.get(ready.headers);
    if (!headers) {
      headers = { ...securityHeaders, ...ready.headers };
      merged.set(ready.headers, headers);
    }
    return headers;
  };
  return (req, res) => {
    const ready = fastPaths.length > 0 && isBodiless(req) ? answer(fastPaths, req) : undefined;
    if (!ready) {
      app(req, res);
      return;
    }
    if (logger.isLevelEnabled('debug')) logWhenDone(logger, req, res);
    res.writeHead(ready.status, headersOf(ready));
    // HEAD carries GET's headers (Content-Length included) and no body, as Express does.
    res.end(req.method === 'HEAD' ? undefined : ready.body);
  };
}

function isBodiless(req: IncomingMessage): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    req.headers['content-length'] === undefined &&
    req.headers['transfer-encoding'] === undefined
  );
}

function answer(fastPaths: readonly HttpFastPath[], req: IncomingMessage): ReadyResponse | undefined {
  for (const fastPath of fastPaths) {
    const ready = fastPath(req);
    if (ready) return ready;
  }
  return undefined;
}

/** The same line the Express request log writes for a 2xx/3xx (query strings left out: tokens travel there). */
function logWhenDone(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.debug({
      method: req.method,
      path: (req.url ?? '').split('?')[0],
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
    });
  });
}
