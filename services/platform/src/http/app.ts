// The Express 5 app every service's HTTP side starts from: security headers, a body limit, JSON parsing
// for /api whose failures are 4xx, request logs without query strings (tokens travel there), and one
// error handler.
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { Logger } from '../logging/logger';
import { HttpError } from './errors';

export interface HttpAppOptions {
  logger: Logger;
  /** JSON body limit (default 1 MB). Uploads never go through JSON. */
  bodyLimit?: string;
  /** Content-Security-Policy directives to merge over helmet's defaults (null drops a default one). */
  csp?: Record<string, string[] | null>;
}

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');
  app.use(helmet(helmetOptions(options.csp)));
  app.use(requestLog(options.logger));
  // JSON bodies are parsed for the API only. Elsewhere bodies are streams that a route reads itself (the
  // signed object uploads at /objects, forwarded by the gateway): parsed here, a PUT sent as JSON would
  // arrive there already consumed and the upload would wait forever for bytes that never come.
  // Webhooks are the exception: a provider signs the exact bytes it sent, so their routes read the raw body
  // themselves (a parsed and re-serialised body no longer matches the signature).
  const json = express.json({ limit: options.bodyLimit ?? '1mb', strict: true });
  app.use('/api', (req, res, next) => (isWebhookPath(req.path) ? next() : json(req, res, next)));
  return app;
}

/** `/api/<area>/webhooks/<provider>`: routes that take their body raw (relative to the /api mount). */
export const isWebhookPath = (path: string) => /^\/[^/]+\/webhooks\//.test(path);

/**
 * The policy additions of the public service, which serves the web app: it shows cover art and plays
 * audio from blob URLs. `objectOrigin` is the object store's own origin when objects are not served by
 * Omni (S3/MinIO in a cluster, see objectStoreOrigin): the media redirect, the moderation preview and
 * cover art load from there, and uploads are PUT there, so it is admitted for images, media and fetches.
 */
export function publicCsp(publicUrl: string, objectOrigin?: string): Record<string, string[] | null> {
  const objects = objectOrigin && objectOrigin !== new URL(publicUrl).origin ? [objectOrigin] : [];
  return {
    'img-src': ["'self'", 'data:', 'blob:', ...objects],
    'media-src': ["'self'", 'blob:', ...objects],
    ...(objects.length ? { 'connect-src': ["'self'", ...objects] } : {}),
    // Served over plain http (all-in-one on localhost), helmet's upgrade-insecure-requests made
    // Chromium follow the media redirect (/api/assets/:id/media → /objects/…) to https, which
    // nothing serves: no published track played. Over https it stays.
    ...(publicUrl.startsWith('https:') ? {} : { 'upgrade-insecure-requests': null }),
  };
}

function helmetOptions(csp: HttpAppOptions['csp']): HelmetOptions {
  return { contentSecurityPolicy: { directives: { ...csp } }, crossOriginEmbedderPolicy: false };
}

/**
 * The headers helmet sets on every response of an app made with these options, for answers written
 * without Express (fast paths). Helmet's headers do not depend on the request, so they are read once by
 * running it against a recording response.
 */
export function securityHeaders(csp?: HttpAppOptions['csp']): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(helmetOptions(csp))({} as never, recorder as never, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously; the security headers cannot be read once');
  return headers;
}

function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (req.path === '/healthz' || req.path === '/readyz') return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'debug';
      logger[level]({
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      });
    });
    next();
  };
}

/** Answers unknown API paths with a JSON 404 rather than HTML. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `No API route for ${req.method} ${req.path}.`, 'not_found'));
};

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/** Maps every error to a status and a message a person understands; only 5xx are logged with stacks. */
export function errorHandler(
  logger: Logger,
  mapError?: (err: unknown) => HttpError | undefined,
): ErrorRequestHandler {
  return (err, req, res, _next) => {
    // The client went away (a tab closed, a navigation mid-download): nobody is left to answer and
    // nothing failed on our side, so it is no error in the log either (it drowned real ones).
    // (Not req.destroyed: a request whose body was read in full is destroyed too; the socket tells.)
    if ((err as { code?: string })?.code === 'ECONNABORTED' || req.socket.destroyed) {
      logger.debug({ method: req.method, path: req.path }, 'client went away before the answer');
      if (!res.writableEnded) res.destroy();
      return;
    }
    const known = toHttpError(err) ?? mapError?.(err);
    const status = known?.status ?? 500;
    if (status >= 500) logger.error({ err, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message = known?.message ?? 'Something went wrong on our side. Please try again in a moment.';
    const body: Record<string, unknown> = { message, code: known?.code ?? 'internal' };
    if (known?.details !== undefined) body.details = known.details;
    res.status(status).json({ error: body });
  };
}

function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'The request body is not valid JSON.', 'invalid_json');
    case 'entity.too.large':
      return new HttpError(413, 'The request body is too large.', 'too_large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(
        415,
        'The request body encoding is not supported; send UTF-8 JSON.',
        'unsupported',
      );
    case 'request.aborted':
      return new HttpError(400, 'The request was aborted before its body arrived.', 'aborted');
    default:
      // URI decoding failures and similar client faults carry a 4xx status of their own.
      if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
        return new HttpError(e.status, 'The request could not be understood.', 'bad_request');
      }
      return undefined;
  }
}
