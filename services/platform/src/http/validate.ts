// zod at every boundary, one way: handlers parse what they read, and a mismatch becomes a 400
// (`invalid_request`) with a readable message instead of a crash further in. The same error thrown in a
// gRPC handler is sent as INVALID_ARGUMENT with the reason `invalid_request` (grpc/server.ts), so a
// service's own check reaches the browser as a 400 with the same code.
import type { Request } from 'express';
import { z } from 'zod';
import { describeZodError, HttpError } from './errors';

export class InvalidInput extends HttpError {
  constructor(message: string, issues: { path: string; message: string }[]) {
    super(400, message, 'invalid_request', issues);
    this.name = 'InvalidInput';
  }
}

export interface ParseOptions {
  /** Named in the message: 'Invalid body: title: Required'. */
  what?: string;
  /**
   * Only the first failing rule's own message, as the screens show it under 'Validation error' (the spec's
   * messages are whole sentences, so they are not prefixed).
   */
  first?: boolean;
}

/** Any zod schema, classic or mini (the API contract is written with the mini build). */
export function parseWith<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  options: ParseOptions = {},
): z.output<S> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const { message, issues } = describeZodError(result.error);
  if (options.first) throw new InvalidInput(issues[0]?.message || 'The request is not valid.', issues);
  throw new InvalidInput(`Invalid ${options.what ?? 'request'}: ${message}`, issues);
}

export const parseBody = <S extends z.core.$ZodType>(
  schema: S,
  req: Request,
  options?: { first?: boolean },
) => parseWith(schema, req.body ?? {}, { what: 'body', ...options });
export const parseQuery = <S extends z.core.$ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.query, { what: 'query' });
export const parseParams = <S extends z.core.$ZodType>(schema: S, req: Request) =>
  parseWith(schema, req.params, { what: 'path' });
