// The Finder's subscription calls (spec §7): check-finder-subscription in parallel with
// check-subscription, and create-finder-checkout falling back to create-checkout.
import { SUBSCRIPTION_WAIT_MS } from '@omni/proto/api';
import {
  ApiError,
  createCheckout,
  fetchPriceIds,
  fetchSubscription,
  type SubscriptionResponse,
} from '@omni/ui';

/** A server without the Finder's own routes answers 404 there: the general route answers instead. */
const routeMissing = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The check took longer than the spec's wait cap (6 s). */
export class CheckTimedOut extends Error {
  constructor() {
    super(`The subscription check took over ${SUBSCRIPTION_WAIT_MS / 1000} s.`);
    this.name = 'CheckTimedOut';
  }
}

/**
 * The account's Finder subscription. Both checks start together (spec §7) so the fallback costs no extra
 * round trip. The Finder's own answer decides: a Pro plan is another product and does not include scans.
 * Only when this server has no Finder route does the general check's answer stand in (spec §7: "the
 * general one preferred" comes from a backend with a single subscription).
 */
export async function checkFinderSubscription(): Promise<SubscriptionResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimedOut()), SUBSCRIPTION_WAIT_MS);
  });
  const both = Promise.allSettled([fetchSubscription('finder'), fetchSubscription('pro')]).then(
    ([finder, general]) => {
      if (finder.status === 'fulfilled') return finder.value;
      if (routeMissing(finder.reason) && general.status === 'fulfilled') return general.value;
      throw finder.reason;
    },
  );
  try {
    return await Promise.race([both, cap]);
  } finally {
    clearTimeout(timer);
  }
}

/** The Finder's price could not be learnt: there is nothing to check out. */
export class CheckoutUnavailable extends Error {
  constructor(cause?: unknown) {
    super('The Finder price could not be loaded.', { cause });
    this.name = 'CheckoutUnavailable';
  }
}

/** create-finder-checkout, falling back to create-checkout with the same price when the route is missing. */
export async function finderCheckoutUrl(): Promise<string | null> {
  const priceId = await fetchPriceIds().then(
    (ids) => ids.finder_monthly,
    (error: unknown) => {
      throw new CheckoutUnavailable(error);
    },
  );
  if (!priceId) throw new CheckoutUnavailable();
  try {
    return await createCheckout('finder', priceId);
  } catch (error) {
    if (!routeMissing(error)) throw error;
    return createCheckout('finder', priceId, '/api/billing/checkout');
  }
}
