// gRPC servers: services write plain async functions; this turns them into grpc-js handlers that validate
// nothing themselves but map every failure to a status code, so a caller never sees a stack trace.
import {
  ServerCredentials as Credentials,
  type handleUnaryCall,
  Server,
  type ServerCredentials,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  status,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { health } from '@omni/proto';
import { ZodError } from 'zod';
import { describeZodError } from '../http/errors';
import { InvalidInput } from '../http/validate';
import type { Logger } from '../logging/logger';
import {
  capStatusMessage,
  fail,
  GrpcError,
  httpStatusForGrpc,
  isServiceError,
  toServiceError,
} from './errors';

type AnyMethod = {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestDeserialize: (b: Buffer) => unknown;
  responseSerialize: (v: never) => Buffer;
};
export type RequestOf<M> = M extends { requestDeserialize: (b: Buffer) => infer R } ? R : never;
export type ResponseOf<M> = M extends { responseDeserialize: (b: Buffer) => infer R } ? R : never;

export interface CallContext {
  metadata: Record<string, string>;
  /** The bearer token the caller forwarded, if any. */
  bearer?: string;
}

export type UnaryImpl<D> = {
  [K in keyof D]: (request: RequestOf<D[K]>, ctx: CallContext) => Promise<ResponseOf<D[K]>>;
};

function contextOf(call: ServerUnaryCall<unknown, unknown>): CallContext {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(call.metadata.getMap())) metadata[k] = String(v);
  const auth = metadata.authorization;
  return { metadata, bearer: auth?.startsWith('Bearer ') ? auth.slice(7) : undefined };
}

function toStatus(err: unknown, logger: Logger, path: string): Partial<ServiceError> {
  if (err instanceof GrpcError) return toServiceError(err);
  // The shared input check (`parseWith`) throws the same 400 in an HTTP route and in a gRPC handler.
  if (err instanceof InvalidInput) return toServiceError(fail('invalid_request', err.message));
  if (err instanceof ZodError)
    return { code: status.INVALID_ARGUMENT, details: describeZodError(err).message };
  // A refusal from a service this one called (storage refusing a file cms passed on) reaches the caller
  // as itself, with its message and reason, never as an internal error.
  if (isServiceError(err) && httpStatusForGrpc(err.code) < 500)
    return { code: err.code, details: err.details, metadata: err.metadata };
  logger.error({ err, method: path }, 'gRPC handler failed');
  return { code: status.INTERNAL, details: 'Internal error' };
}

/** Builds grpc-js handlers from async functions, one per unary method of the definition. */
export function unaryHandlers<D extends Record<string, AnyMethod>>(
  definition: D,
  impl: UnaryImpl<D>,
  logger: Logger,
): UntypedServiceImplementation {
  const handlers: UntypedServiceImplementation = {};
  for (const key of Object.keys(definition) as (keyof D & string)[]) {
    const fn = impl[key];
    const method = definition[key]!;
    const handler: handleUnaryCall<unknown, unknown> = (call, callback) => {
      fn(call.request as never, contextOf(call)).then(
        (response) => callback(null, response),
        (err: unknown) => {
          const failure = toStatus(err, logger, method.path);
          // Every status this kit sends is capped here, whoever wrote its message (one place).
          if (failure.details) failure.details = capStatusMessage(failure.details);
          callback(failure, null);
        },
      );
    };
    handlers[key] = handler;
  }
  return handlers;
}

export interface GrpcServerHandle {
  server: Server;
  add<D extends Record<string, AnyMethod>>(definition: D, impl: UnaryImpl<D>): void;
  /** Binds and starts; resolves with the port actually bound (0 picks a free one). */
  listen(host: string, port: number, credentials?: ServerCredentials): Promise<number>;
  /** Stops accepting calls, lets in-flight ones finish for up to `graceMs`, then forces. */
  stop(graceMs?: number): Promise<void>;
  setServing(serving: boolean): void;
}

export function createGrpcServer(name: string, logger: Logger): GrpcServerHandle {
  const server = new Server({ 'grpc.max_receive_message_length': 8 * 1024 * 1024 });
  let serving = false;
  const healthImpl: UnaryImpl<typeof health.HealthService> = {
    check: async (req) => {
      if (req.service && req.service !== name) {
        return { status: health.HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN };
      }
      return {
        status: serving
          ? health.HealthCheckResponse_ServingStatus.SERVING
          : health.HealthCheckResponse_ServingStatus.NOT_SERVING,
      };
    },
  };
  server.addService(
    health.HealthService as unknown as ServiceDefinition,
    unaryHandlers(health.HealthService, healthImpl, logger),
  );
  return {
    server,
    add(definition, impl) {
      // A contract with no methods yet (billing and finder until their issues) has nothing to serve, and
      // grpc-js refuses an empty service; the health service still answers for it.
      if (Object.keys(definition).length === 0) return;
      server.addService(definition as unknown as ServiceDefinition, unaryHandlers(definition, impl, logger));
    },
    listen(host, port, credentials = Credentials.createInsecure()) {
      return new Promise((resolve, reject) => {
        server.bindAsync(`${host}:${port}`, credentials, (err, bound) =>
          err ? reject(err) : resolve(bound),
        );
      });
    },
    setServing(value) {
      serving = value;
    },
    stop(graceMs = 10_000) {
      serving = false;
      return new Promise((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
