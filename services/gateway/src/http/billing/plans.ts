// GET /api/billing/plans: the plans with this configuration's price ids (they differ between the sandbox,
// Stripe's test mode and live mode; the screens learn them here rather than baking them in).
import type { PlatformConfig } from '@omni/platform';
import { PLAN_KEYS, PLANS, type PlanKey, type PlansResponse } from '@omni/proto/api';

export function plansFor(config: PlatformConfig): PlansResponse {
  const priceIds: Record<PlanKey, string> = {
    pro_monthly: config.env.PRICE_PRO_MONTHLY,
    pro_annual: config.env.PRICE_PRO_ANNUAL,
    finder_monthly: config.env.PRICE_FINDER_MONTHLY,
  };
  return {
    plans: PLAN_KEYS.map((key) => {
      const { product, interval, amount, currency } = PLANS[key];
      return { key, product, interval, amount, currency, priceId: priceIds[key] };
    }),
  };
}
