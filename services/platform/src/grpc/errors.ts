// gRPC status codes are how services tell callers what went wrong. Services throw GrpcError with a message
// written for a person and, where a caller must tell one refusal from another, a reason (reasons.ts) that
// travels in the status metadata. The gateway maps (status, reason) to the HTTP error once, here.
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { HttpError, SIGN_IN_REQUIRED } from '../http/errors';
import { isReason, REASON_KEY, REASONS, type Reason } from './reasons';

export { status as GrpcStatus };

export class GrpcError extends Error {
  constructor(
    readonly code: status,
    message: string,
    readonly reason?: Reason,
  ) {
    super(message);
    this.name = 'GrpcError';
  }
}

/** Fails a call for a reason: the status comes with the reason, so the two cannot disagree. */
export const fail = (reason: Reason, message: string) =>
  new GrpcError(REASONS[reason].status, message, reason);

export const signInRequired = (message = SIGN_IN_REQUIRED) => fail('sign_in_required', message);

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

/** The reason a failed call carries, if the service gave one this caller knows. */
export function reasonOf(err: unknown): Reason | undefined {
  if (!isServiceError(err) || !(err.metadata instanceof Metadata)) return undefined;
  const value = err.metadata.get(REASON_KEY)[0];
  return isReason(value) ? value : undefined;
}

/**
 * For the gateway's error handler: a 4xx keeps the service's message and answers with its reason's code
 * (the status's name when it gave none); a 5xx gets a message that says what to do, never the internals.
 */
export function httpErrorFromGrpc(err: unknown): HttpError | undefined {
  if (!isServiceError(err)) return undefined;
  const reason = reasonOf(err);
  const declared = reason ? REASONS[reason] : undefined;
  const http = (declared && 'http' in declared ? declared.http : undefined) ?? httpStatusForGrpc(err.code);
  if (http < 500) {
    const code = reason ? REASONS[reason].code : status[err.code].toLowerCase();
    return new HttpError(http, err.details || 'The request was refused.', code);
  }
  if (http === 503 || http === 504) {
    return new HttpError(
      http,
      'A part of Omni is not answering right now. Please try again shortly.',
      'unavailable',
    );
  }
  return undefined;
}

/**
 * The most a status message may take on the wire. grpc-js sends it as the `grpc-message` trailer,
 * percent-encoded (encodeURI: a space or a non-ASCII byte costs three characters), and a trailer block
 * over HTTP/2's header limits is never delivered: the call hangs until its deadline and the connection
 * it shares with every other call from that peer goes with it. A person reads a few lines, never more.
 */
export const MAX_STATUS_MESSAGE_WIRE_CHARS = 4096;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A status message cut (on a character boundary, with "…") to fit MAX_STATUS_MESSAGE_WIRE_CHARS encoded. */
export function capStatusMessage(text: string): string {
  // encodeURI (grpc-js's too) throws on a lone surrogate half: such a message would never be sent at all.
  const message = text.replace(LONE_SURROGATE, '\uFFFD');
  const wire = (part: string) => encodeURI(part).length;
  if (wire(message) <= MAX_STATUS_MESSAGE_WIRE_CHARS) return message;
  // Every character costs at least one encoded character: no more than the limit can fit.
  const chars = Array.from(message.slice(0, MAX_STATUS_MESSAGE_WIRE_CHARS * 2)).slice(
    0,
    MAX_STATUS_MESSAGE_WIRE_CHARS,
  );
  let low = 0;
  let high = chars.length;
  // The longest prefix that fits with its ellipsis (encoded length grows with the prefix).
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (wire(`${chars.slice(0, mid).join('')}…`) <= MAX_STATUS_MESSAGE_WIRE_CHARS) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('').trimEnd()}…`;
}

/** The status a handler's GrpcError is sent as, its reason in the metadata. */
export function toServiceError(err: GrpcError): Partial<ServiceError> {
  const metadata = new Metadata();
  if (err.reason) metadata.set(REASON_KEY, err.reason);
  return { code: err.code, details: err.message, metadata };
}
