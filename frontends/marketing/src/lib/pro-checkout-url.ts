// The round trip behind 'Get Pro', loaded on the first click: it brings the API client, the session's
// token handling and the contract's schemas, which the landing and pricing pages do not need to paint.
import { BILLING_MESSAGES } from '@omni/proto/api';
import { ApiError, createCheckout, fetchPriceIds, serverMessage } from '@omni/ui';
import type { BillingPeriod } from '../content/pricing';

/** Refusals the monthly price would meet just the same: not worth a second try. */
const refusedForAnyPrice = (error: unknown) =>
  error instanceof ApiError && [401, 403, 409].includes(error.status);

/**
 * create-checkout for Pro (spec §7): the annual price when chosen, and the monthly one when the annual
 * attempt fails or comes back without an address. Resolves to the checkout page's address, or null when
 * the server sent none.
 */
export async function proCheckoutUrl(period: BillingPeriod): Promise<string | null> {
  const prices = await fetchPriceIds();
  if (period === 'annual') {
    try {
      const url = await createCheckout('pro', prices.pro_annual);
      if (url) return url;
    } catch (error) {
      if (refusedForAnyPrice(error)) throw error;
    }
  }
  return createCheckout('pro', prices.pro_monthly);
}

/** The toast's text for a failed checkout: the server's own words, else the spec's (§8). */
export const checkoutFailureMessage = (error: unknown) =>
  serverMessage(error) ?? BILLING_MESSAGES.checkoutFailed;

/** The server did not accept the visitor's session (401): they are not signed in after all. */
export const sessionRefused = (error: unknown) => error instanceof ApiError && error.status === 401;
