// Errors a person can act on. Anything thrown that is not one of these is our fault: it is logged with its
// stack and answered with a plain 500 that never leaks internals.
import type { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'error',
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, message, 'invalid_request', details);
/** Said by the gateway's guards and by any service called without a caller. */
export const SIGN_IN_REQUIRED = 'Please sign in to continue.';

export const unauthorized = (message = SIGN_IN_REQUIRED) => new HttpError(401, message, 'unauthenticated');
export const forbidden = (message = 'You do not have access to this.') =>
  new HttpError(403, message, 'forbidden');
export const notFound = (message = 'Not found.') => new HttpError(404, message, 'not_found');
export const conflict = (message: string) => new HttpError(409, message, 'conflict');

/** 'title: Required; kind: Invalid option' — one readable line for a toast, plus the structured issues. */
export function describeZodError(error: z.core.$ZodError): {
  message: string;
  issues: { path: string; message: string }[];
} {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return { message: message || 'The request is not valid.', issues };
}
