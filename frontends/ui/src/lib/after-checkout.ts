// Back from a paid checkout (`?checkout=success`), the subscription may not show yet: billing learns of it
// from the provider's webhook, which can land a moment after the browser returns. The screens ask again
// for a while instead of telling a new subscriber they are not subscribed.

/** How often to ask again… */
const EVERY_MS = 1_500;
/** …and how many answers to wait for at most (about 15 s). */
const TRIES = 10;

interface SubscriptionQueryState {
  state: { data?: { subscribed: boolean } | undefined; dataUpdateCount: number };
}

/** A react-query `refetchInterval` for a subscription check on a page reached with `search`. */
export function refetchAfterCheckout(search: string) {
  const back = new URLSearchParams(search).get('checkout') === 'success';
  return (query: SubscriptionQueryState): number | false =>
    back && !query.state.data?.subscribed && query.state.dataUpdateCount < TRIES ? EVERY_MS : false;
}
