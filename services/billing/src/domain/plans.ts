// The plans billing sells, with the price ids this configuration gives them (they differ between the
// sandbox, Stripe's test mode and live mode). A price id names its product: that is how an event's
// subscription is tied to Pro or Finder.
import type { PlatformConfig } from '@omni/platform';
import { type BillingProduct, PLANS, type PlanKey } from '@omni/proto/api';

export interface ConfiguredPlan {
  key: PlanKey;
  product: BillingProduct;
  interval: 'month' | 'year';
  amount: number;
  currency: 'usd';
  priceId: string;
}

export function configuredPlans(config: PlatformConfig): ConfiguredPlan[] {
  const ids: Record<PlanKey, string> = {
    pro_monthly: config.env.PRICE_PRO_MONTHLY,
    pro_annual: config.env.PRICE_PRO_ANNUAL,
    finder_monthly: config.env.PRICE_FINDER_MONTHLY,
  };
  return (Object.keys(PLANS) as PlanKey[]).map((key) => {
    const { product, interval, amount, currency } = PLANS[key];
    return { key, product, interval, amount, currency, priceId: ids[key] };
  });
}

export class PlanBook {
  private readonly byPrice: Map<string, ConfiguredPlan>;
  constructor(readonly plans: readonly ConfiguredPlan[]) {
    this.byPrice = new Map(plans.map((p) => [p.priceId, p]));
  }
  /** The plan of a price id, or undefined when it is not one of ours. */
  plan(priceId: string): ConfiguredPlan | undefined {
    return this.byPrice.get(priceId);
  }
  productOf(priceId: string): BillingProduct | undefined {
    return this.byPrice.get(priceId)?.product;
  }
}

/** What a provider needs to know of each price (the sandbox shows and bills them). */
export const pricesOf = (book: PlanBook) =>
  Object.fromEntries(
    book.plans.map((p) => [p.priceId, { product: p.product, interval: p.interval, amount: p.amount }]),
  );
