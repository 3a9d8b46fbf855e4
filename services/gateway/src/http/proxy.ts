// Streams a request to an internal service's HTTP side and the answer back, without buffering: used for
// the embedded object store's signed URLs (uploads of up to 2 GB) and the embedded issuer's endpoints.
import { request as httpRequest } from 'node:http';
import type { Logger } from '@omni/platform';
import type { RequestHandler } from 'express';
import { REFUSED_PATH_MESSAGE, staysInPlace } from './proxy-path';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

export function forwardTo(base: () => string, logger: Logger): RequestHandler {
  return (req, res) => {
    const query = req.originalUrl.indexOf('?');
    const path = query === -1 ? req.originalUrl : req.originalUrl.slice(0, query);
    if (!staysInPlace(path)) {
      res.status(400).json({ error: { message: REFUSED_PATH_MESSAGE, code: 'bad_path' } });
      return;
    }
    // The path goes on exactly as it came (and as it was checked): resolving it against the base URL
    // would apply dot-segment rules the check above has just ruled out, but nothing else should either.
    const { hostname, port } = new URL(base());
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    const upstream = httpRequest(
      {
        host: hostname.replace(/^\[(.*)\]$/, '$1'),
        port,
        path: req.originalUrl,
        method: req.method,
        headers,
      },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(answer.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      logger.warn({ err, path: req.path }, 'upstream request failed');
      if (!res.headersSent) {
        res.status(502).json({
          error: { message: 'Storage is not answering right now. Please try again.', code: 'bad_gateway' },
        });
      } else res.destroy();
    });
    // A client that goes away mid-upload must abort the upstream write so nothing half-written remains.
    req.on('aborted', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}
