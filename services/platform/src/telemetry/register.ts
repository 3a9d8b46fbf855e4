// Loaded with `node --import` before the application so that the HTTP, Express and gRPC modules are patched
// as they are first required. Creating spans for those three is left entirely to these instrumentations.
//
// Tracing is switched on only when something will read the spans (an OTLP endpoint, or OMNI_TRACE_FILE),
// and off with OpenTelemetry's standard OTEL_SDK_DISABLED: measured on the public Music endpoint, the
// instrumentations cost about half the throughput, which a laptop run should not pay for nothing.
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { startTelemetry } from './telemetry';

const wanted = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OMNI_TRACE_FILE);
if (wanted && process.env.OTEL_SDK_DISABLED !== 'true') {
  startTelemetry({ serviceName: 'omni' });
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        // Health probes every few seconds would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz',
      }),
      // Routers and handlers, not every middleware layer (helmet, body parsing…): one span per layer
      // made traces noisy and requests slower.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check'] }),
    ],
  });
}
