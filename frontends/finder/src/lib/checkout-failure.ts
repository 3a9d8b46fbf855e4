import { BILLING_MESSAGES } from '@omni/proto/api';
import { ApiError, serverMessage } from '@omni/ui';
import { CheckoutUnavailable } from './finder-billing';

/**
 * The toast for a failed Finder checkout (spec §8). No price, no connection or the payment provider down:
 * 'Checkout unavailable'. A refusal with the server's own words ('You already have an active Missing
 * Money Finder subscription...'): 'Checkout Error' with them. Anything else: 'Checkout Error' with the
 * spec's text, never a bare "Request failed (500)".
 */
export function checkoutFailure(error: unknown): { title: string; description: string } {
  const unavailable = {
    title: 'Checkout unavailable',
    description: BILLING_MESSAGES.finderCheckoutUnavailable,
  };
  if (error instanceof CheckoutUnavailable) return unavailable;
  if (error instanceof ApiError && (error.status === 0 || error.status === 503)) return unavailable;
  return {
    title: 'Checkout Error',
    description: serverMessage(error) ?? BILLING_MESSAGES.finderCheckoutError,
  };
}
