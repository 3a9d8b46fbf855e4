// gRPC status codes are how services tell callers what went wrong. Services throw GrpcError with a message
// written for a person; the gateway turns the code into the matching HTTP status and passes the message on.
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { HttpError } from '../http/errors';

export { status as GrpcStatus };

export class GrpcError extends Error {
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
    this.name = 'GrpcError';
  }
}

export const invalidArgument = (message: string) => new GrpcError(status.INVALID_ARGUMENT, message);
export const notFoundError = (message: string) => new GrpcError(status.NOT_FOUND, message);
export const alreadyExists = (message: string) => new GrpcError(status.ALREADY_EXISTS, message);
export const failedPrecondition = (message: string) => new GrpcError(status.FAILED_PRECONDITION, message);
export const permissionDenied = (message: string) => new GrpcError(status.PERMISSION_DENIED, message);
export const unauthenticated = (message: string) => new GrpcError(status.UNAUTHENTICATED, message);

const HTTP_FOR: Partial<Record<status, number>> = {
  [status.INVALID_ARGUMENT]: 400,
  [status.OUT_OF_RANGE]: 400,
  [status.UNAUTHENTICATED]: 401,
  [status.PERMISSION_DENIED]: 403,
  [status.NOT_FOUND]: 404,
  [status.ALREADY_EXISTS]: 409,
  [status.FAILED_PRECONDITION]: 409,
  [status.ABORTED]: 409,
  [status.RESOURCE_EXHAUSTED]: 429,
  [status.CANCELLED]: 499,
  [status.UNIMPLEMENTED]: 501,
  [status.UNAVAILABLE]: 503,
  [status.DEADLINE_EXCEEDED]: 504,
};

export function httpStatusForGrpc(code: status): number {
  return HTTP_FOR[code] ?? 500;
}

export function isServiceError(err: unknown): err is ServiceError {
  return typeof err === 'object' && err !== null && 'code' in err && 'metadata' in err && 'details' in err;
}

/**
 * For the gateway's error handler: a 4xx keeps the service's message; a 5xx gets a message that says
 * what to do, never the internals.
 */
export function httpErrorFromGrpc(err: unknown): HttpError | undefined {
  if (!isServiceError(err)) return undefined;
  const http = httpStatusForGrpc(err.code);
  if (http < 500)
    return new HttpError(http, err.details || 'The request was refused.', status[err.code].toLowerCase());
  if (http === 503 || http === 504) {
    return new HttpError(
      http,
      'A part of Omni is not answering right now. Please try again shortly.',
      'unavailable',
    );
  }
  return undefined;
}

export function toServiceError(err: GrpcError): Partial<ServiceError> {
  return { code: err.code, details: err.message, metadata: new Metadata() };
}
