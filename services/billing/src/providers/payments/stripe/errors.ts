// What a failed Stripe call means for billing. Stripe down, slow, unreachable, busy with the same request
// or asking us to slow down is an outage: PaymentsUnavailableError, which billing answers as UNAVAILABLE
// (the gateway's 503, "try again shortly"). Stripe refusing OUR request (an unknown price, a missing customer, a bad key) is a bug or a
// misconfiguration on our side: a plain Error carrying Stripe's message, logged loudly with its request id.
import type { Logger } from '@omni/platform';
import Stripe from 'stripe';
import { PaymentsUnavailableError } from '../port';

export function isOutage(err: unknown): boolean {
  if (err instanceof Stripe.errors.StripeConnectionError) return true;
  if (err instanceof Stripe.errors.StripeRateLimitError) return true;
  // 409: a lock timeout, or the same idempotency key still in flight (a double click); both pass by themselves.
  if (err instanceof Stripe.errors.StripeError) return err.statusCode === 409 || (err.statusCode ?? 0) >= 500;
  return false;
}

/** Translates a Stripe SDK error for billing; never returns. Logs what Stripe said, never the key. */
export function rethrow(err: unknown, operation: string, logger: Logger): never {
  if (!(err instanceof Stripe.errors.StripeError)) throw err;
  // Only these fields: the raw error and its headers are Stripe's to log, not ours.
  const detail = {
    operation,
    type: err.type,
    status: err.statusCode,
    code: err.code,
    param: err.param,
    requestId: err.requestId,
  };
  if (isOutage(err)) {
    logger.warn(detail, `stripe unavailable: ${err.message}`);
    throw new PaymentsUnavailableError(`Stripe is unavailable (${operation}): ${err.message}`, {
      cause: err,
    });
  }
  logger.error(detail, `stripe refused ${operation}: ${err.message}`);
  throw new Error(`Stripe refused ${operation}: ${err.message}`, { cause: err });
}
