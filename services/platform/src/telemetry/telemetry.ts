// OpenTelemetry: one tracer provider per process with W3C trace-context propagation. HTTP, Express and gRPC
// are instrumented automatically when `register.ts` runs before anything else is loaded (the binary does
// that); spans are exported over OTLP only when OTEL_EXPORTER_OTLP_ENDPOINT is set, so a laptop run costs
// nothing. OMNI_TRACE_FILE writes finished spans as JSON lines, for debugging (the trace test reads it too).
import { appendFileSync } from 'node:fs';
import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export interface TelemetryOptions {
  serviceName: string;
  env?: Record<string, string | undefined>;
}

let provider: NodeTracerProvider | undefined;

/** A debugging exporter: one JSON line per finished span. */
class FileSpanExporter implements SpanExporter {
  constructor(private readonly path: string) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const lines = spans.map((s) =>
      JSON.stringify({
        name: s.name,
        kind: s.kind,
        traceId: s.spanContext().traceId,
        spanId: s.spanContext().spanId,
        parentSpanId: s.parentSpanContext?.spanId,
        attributes: s.attributes,
        service: s.resource.attributes['service.name'],
      }),
    );
    appendFileSync(this.path, `${lines.join('\n')}\n`);
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export function startTelemetry(options: TelemetryOptions): NodeTracerProvider {
  if (provider) return provider;
  const env = options.env ?? process.env;
  const processors: SpanProcessor[] = [];
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  if (env.OMNI_TRACE_FILE)
    processors.push(new SimpleSpanProcessor(new FileSpanExporter(env.OMNI_TRACE_FILE)));
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? options.serviceName }),
    spanProcessors: processors,
  });
  // Registers the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  return provider;
}

/**
 * Sends the spans still waiting in the batch (up to 5 s of requests, the last ones before a shutdown) and
 * stops. Gives up after `graceMs`: a collector that is down must not hold a pod past its grace period.
 */
export async function stopTelemetry(graceMs = 3000): Promise<void> {
  const current = provider;
  provider = undefined;
  if (!current) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((done) => {
    timer = setTimeout(done, graceMs);
  });
  await Promise.race([current.shutdown().catch(() => undefined), late]);
  clearTimeout(timer);
}

export const tracer = () => trace.getTracer('omni');

/** Writes the active trace context into a carrier (HTTP headers, gRPC metadata, event headers). */
export function injectTraceContext(carrier: Record<string, string> = {}): Record<string, string> {
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `work` inside a new span whose parent comes from `carrier` (an incoming message's headers), so a
 * trace continues across the event bus.
 */
export async function withSpanFrom<T>(
  name: string,
  carrier: Record<string, string>,
  kind: SpanKind,
  attributes: Record<string, string | number>,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(context.active(), carrier);
  return tracer().startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The current trace id, or undefined outside a span. */
export function currentTraceId(): string | undefined {
  return trace.getSpan(context.active())?.spanContext().traceId;
}

export { SpanKind };
