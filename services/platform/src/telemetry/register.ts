// Loaded with `node --import` before the application so that the HTTP, Express and gRPC modules are patched
// as they are first required. Creating spans for those three is left entirely to these instrumentations.
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { startTelemetry } from './telemetry';

startTelemetry({ serviceName: 'omni' });
registerInstrumentations({
  instrumentations: [
    new HttpInstrumentation({
      // Health probes every few seconds would drown the traces that matter.
      ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz',
    }),
    new ExpressInstrumentation(),
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check'] }),
  ],
});
