// pino JSON logs. Every line carries the active trace and span ids so a log line can be found from a
// trace and back. Secrets never reach a log: the redact list covers the places they travel.
import { context, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

const REDACT = [
  'password',
  '*.password',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'secret',
  '*.secret',
  'authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'req.query.token',
  // An anonymous contributor's own secret (the contributor page, cms): as it travels in gRPC and HTTP.
  'contributorKey',
  '*.contributorKey',
  'req.headers["x-contributor-key"]',
  'headers["x-contributor-key"]',
];

let root: Logger | undefined;

export function rootLogger(): Logger {
  if (!root) {
    root = pino({
      level: process.env.LOG_LEVEL ?? 'info',
      base: { service: 'omni' },
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const span = trace.getSpan(context.active());
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      },
    });
  }
  return root;
}

/** A child logger named for a service or component. */
export function createLogger(component: string, bindings: Record<string, unknown> = {}): Logger {
  return rootLogger().child({ component, ...bindings });
}
