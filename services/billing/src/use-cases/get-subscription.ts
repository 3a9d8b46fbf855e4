// The spec's subscription status for one account and product, as the last applied webhook left it.
import type { BillingProduct } from '@omni/proto/api';
import { isEntitled, subscriptionEnd } from '../domain/subscription';
import type { BillingContext } from './context';

export async function getSubscription(ctx: BillingContext, accountId: string, product: BillingProduct) {
  const current = await ctx.subscriptions.current(accountId, product);
  return {
    subscribed: isEntitled(current?.status),
    subscriptionEnd: current ? (subscriptionEnd(current) ?? '') : '',
    status: current?.status ?? 'none',
    cancelAtPeriodEnd: current ? current.cancelAtPeriodEnd || current.cancelAt !== null : false,
    priceId: current?.priceId ?? '',
  };
}
