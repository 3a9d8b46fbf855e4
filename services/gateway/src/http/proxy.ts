// Streams a request to an internal service's HTTP side and the answer back, without buffering: used for
// the embedded object store's signed URLs (uploads of up to 2 GB) and the embedded issuer's endpoints.
//
// A refused upload must reach the user as itself (413 too large, 403 expired link, 400 wrong type), not as
// a 502 or a reset connection. Storage decides most refusals from the headers, so a body is forwarded
// only after storage has said to go on (Expect: 100-continue on the internal hop); a refusal then
// arrives before a byte has moved. When an answer comes while the client is still sending (a refusal
// midway, or a client that did not ask first), the gateway stops forwarding, passes the answer on, and
// reads and drops what the client still sends for a moment, so that the client reads the answer instead
// of a reset.
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { closeAfterEarlyAnswer, type Logger } from '@omni/platform';
import type { Request, RequestHandler } from 'express';
import { REFUSED_PATH_MESSAGE, staysInPlace } from './proxy-path';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  // Each hop negotiates its own: the client's with the gateway (platform/http/expect-continue.ts),
  // the gateway's with the service below.
  'expect',
]);

/**
 * `service` names what is behind the mount in the message shown when it does not answer. `target`, when
 * given, is the path asked of the service instead of the request's own (a one-use path the gateway was
 * handed for this request).
 */
export function forwardTo(
  base: () => string,
  logger: Logger,
  service = 'Storage',
  target?: (req: Request) => string,
): RequestHandler {
  return (req, res) => {
    const url = target ? target(req) : req.originalUrl;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (!staysInPlace(path)) {
      res.status(400).json({ error: { message: REFUSED_PATH_MESSAGE, code: 'bad_path' } });
      return;
    }
    const hasBody =
      req.headers['transfer-encoding'] !== undefined ||
      (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    if (hasBody) headers.expect = '100-continue';
    // The path goes on exactly as it came (and as it was checked): resolving it against the base URL
    // would apply dot-segment rules the check above has just ruled out, but nothing else should either.
    const { hostname, port } = new URL(base());
    let answer: IncomingMessage | undefined;
    const upstream = httpRequest(
      {
        host: hostname.replace(/^\[(.*)\]$/, '$1'),
        port,
        path: url,
        method: req.method,
        headers,
      },
      (received) => {
        answer = received;
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(received.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
        // Answered while the client is still sending: say Connection: close and drain before closing.
        if (!req.readableEnded) closeAfterEarlyAnswer(req, res);
        res.writeHead(received.statusCode ?? 502, out);
        if (!req.readableEnded) stopForwarding(req, upstream, received);
        received.pipe(res);
      },
    );
    upstream.on('continue', () => req.pipe(upstream));
    upstream.on('error', (err) => {
      // Once the service has answered, a failed write of the rest of the body is expected (it stopped
      // reading); only an answer cut short matters.
      if (answer) {
        if (!answer.complete) res.destroy();
        return;
      }
      logger.warn({ err, path: req.path }, 'upstream request failed');
      if (!res.headersSent) {
        res.status(502).json({
          error: { message: `${service} is not answering right now. Please try again.`, code: 'bad_gateway' },
        });
      } else res.destroy();
    });
    // A client that goes away mid-upload must abort the upstream write so nothing half-written remains.
    req.on('aborted', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (hasBody) upstream.flushHeaders();
    else upstream.end();
  };
}

/**
 * The service answered before the client finished sending. Nothing more goes upstream (its connection,
 * holding a half-sent request, is closed once the answer is in), and the client's remaining bytes are
 * read and dropped: closing a socket with unread bytes resets it, and a reset can swallow the answer.
 * The client's connection closes once the answer is written and the body drained, or after the grace
 * period (closeAfterEarlyAnswer).
 */
function stopForwarding(req: Request, upstream: ClientRequest, answer: IncomingMessage): void {
  req.unpipe(upstream);
  answer.once('end', () => upstream.destroy());
  // Called after the answer's head is written: a client still waiting for "100 Continue" must not be
  // told to go on now (platform/http/expect-continue.ts sends it only before an answer).
  req.resume();
}
