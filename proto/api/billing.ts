// Billing: the REST contract of /api/billing (the spec's create-checkout, check-subscription,
// customer-portal and their Finder twins) and the plans both the gateway and the screens show. Prices are
// shown from here; the price ids come from the server's configuration (GET /api/billing/plans), because
// they differ between the sandbox, Stripe's test mode and live mode.
import * as z from 'zod/mini';

export const PRODUCTS = ['pro', 'finder'] as const;
export type BillingProduct = (typeof PRODUCTS)[number];
/** What the screens call each product ("You already have an active Pro subscription"). */
export const PRODUCT_NAMES: Record<BillingProduct, string> = { pro: 'Pro', finder: 'Missing Money Finder' };

export const PLAN_KEYS = ['pro_monthly', 'pro_annual', 'finder_monthly'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

/** Spec §9: Pro $12.99 a month or $99 a year ('Save $56'), Finder $99 a month; amounts in cents. */
export const PLANS: Record<
  PlanKey,
  { product: BillingProduct; interval: 'month' | 'year'; amount: number; currency: 'usd'; label: string }
> = {
  pro_monthly: { product: 'pro', interval: 'month', amount: 1299, currency: 'usd', label: 'Pro monthly' },
  pro_annual: { product: 'pro', interval: 'year', amount: 9900, currency: 'usd', label: 'Pro annual' },
  finder_monthly: {
    product: 'finder',
    interval: 'month',
    amount: 9900,
    currency: 'usd',
    label: 'Missing Money Finder',
  },
};
/** The annual plan's saving over twelve monthly payments, as the pricing page writes it. */
export const ANNUAL_SAVING_TEXT = 'Save $56';
/** Spec §9: the dashboard stops waiting for the subscription check after 6 s. */
export const SUBSCRIPTION_WAIT_MS = 6000;

/** `$12.99`, `$99`: whole dollars without cents. */
export const formatPrice = (cents: number): string =>
  cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;

// ---- requests -------------------------------------------------------------------------------------------

export const checkoutBody = z.strictObject({
  priceId: z
    .string({ error: 'Choose a plan (priceId).' })
    .check(z.trim(), z.minLength(1, 'Choose a plan (priceId).'), z.maxLength(255)),
});
export type CheckoutBody = z.input<typeof checkoutBody>;

// ---- responses ------------------------------------------------------------------------------------------

export const plansResponse = z.object({
  plans: z.array(
    z.object({
      key: z.enum(PLAN_KEYS),
      product: z.enum(PRODUCTS),
      interval: z.enum(['month', 'year']),
      amount: z.number(),
      currency: z.string(),
      priceId: z.string(),
    }),
  ),
});
export type PlansResponse = z.infer<typeof plansResponse>;

export const checkoutResponse = z.object({ url: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponse>;

export const portalResponse = z.object({ url: z.string() });
export type PortalResponse = z.infer<typeof portalResponse>;

/** The spec's subscription status, plus what the dashboard needs for the past-due banner. */
export const subscriptionResponse = z.object({
  subscribed: z.boolean(),
  /** RFC 3339, or null when there has never been a period. */
  subscription_end: z.nullable(z.string()),
  status: z._default(z.optional(z.string()), 'none'),
  cancel_at_period_end: z._default(z.optional(z.boolean()), false),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;
