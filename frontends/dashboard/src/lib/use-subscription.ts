// The dashboard's subscription check (spec §4, §7, §8): loading, then subscribed or not. It stops waiting
// after SUBSCRIPTION_WAIT_MS and then treats the account as not subscribed; a failure is logged only.
import { SUBSCRIPTION_WAIT_MS } from '@omni/proto/api';
import {
  type BillingProduct,
  fetchSubscription,
  refetchAfterCheckout,
  type SubscriptionResponse,
  useSession,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';

/** What a free account (or a check that failed or took too long) looks like. */
export const NOT_SUBSCRIBED: SubscriptionResponse = {
  subscribed: false,
  subscription_end: null,
  status: 'none',
  cancel_at_period_end: false,
};

async function checkWithinCap(product: BillingProduct): Promise<SubscriptionResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<SubscriptionResponse>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`Subscription check took over ${SUBSCRIPTION_WAIT_MS} ms: showing the free plan`);
      resolve(NOT_SUBSCRIBED);
    }, SUBSCRIPTION_WAIT_MS);
  });
  try {
    return await Promise.race([
      fetchSubscription(product).catch((error: unknown) => {
        console.error('Subscription check failed', error);
        return NOT_SUBSCRIBED;
      }),
      cap,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The signed-in account's subscription to `product`. `undefined` while the check runs (6 s at most).
 * Returning from checkout (`?checkout=success`) keeps asking until the subscription shows.
 */
export function useSubscription(product: BillingProduct = 'pro'): SubscriptionResponse | undefined {
  const { session } = useSession();
  const { search } = useLocation();
  const query = useQuery({
    queryKey: ['billing', product, 'subscription', session?.user.id],
    queryFn: () => checkWithinCap(product),
    enabled: !!session,
    retry: false,
    refetchInterval: refetchAfterCheckout(search),
    // The portal and checkout open in another tab: coming back to this one shows what changed there
    // (a card updated, a cancellation) without a reload.
    refetchOnWindowFocus: 'always',
  });
  return query.data;
}
