// The web app's client for /api/billing (spec §7: create-checkout, check-subscription, customer-portal and
// their Finder twins). One client for the pricing page, the dashboard and the finder, so each screen only
// decides what to show. Answers are parsed with the contract's schemas; a function's answer may come
// wrapped as {ok, data} (spec §7), so both shapes are accepted.
import {
  type BillingProduct,
  checkoutResponse,
  type PlanKey,
  plansResponse,
  portalResponse,
  type SubscriptionResponse,
  subscriptionResponse,
} from '@omni/proto/api';
import { apiFetch } from './api';

export type { BillingProduct, PlanKey, SubscriptionResponse } from '@omni/proto/api';

/** Where each product's calls live: Pro at /api/billing, the Finder at /api/billing/finder. */
const base = (product: BillingProduct) => (product === 'pro' ? '/api/billing' : '/api/billing/finder');

function unwrap(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'ok' in body && 'data' in body) {
    return (body as { data: unknown }).data;
  }
  return body;
}

let priceIds: Promise<Record<PlanKey, string>> | null = null;

/**
 * The price ids of every plan, from the server's configuration (they differ between the sandbox, Stripe's
 * test mode and live mode). Asked once per page; a failure is forgotten so the next click asks again.
 */
export function fetchPriceIds(): Promise<Record<PlanKey, string>> {
  priceIds ??= apiFetch('/api/billing/plans', {}, { auth: false }).then((body) => {
    const ids = {} as Record<PlanKey, string>;
    for (const plan of plansResponse.parse(unwrap(body)).plans) ids[plan.key] = plan.priceId;
    return ids;
  });
  priceIds.catch(() => {
    priceIds = null;
  });
  return priceIds;
}

/**
 * Starts a checkout for `priceId` under `product`'s route; resolves to the hosted page's address, or null
 * when the server answered without one (the screens say 'No checkout URL returned'). `path` overrides the
 * route, for the Finder's fallback to the general create-checkout.
 */
export async function createCheckout(product: BillingProduct, priceId: string, path?: string) {
  const body = await apiFetch(path ?? `${base(product)}/checkout`, {
    method: 'POST',
    body: JSON.stringify({ priceId }),
  });
  const parsed = checkoutResponse.safeParse(unwrap(body));
  return parsed.success && parsed.data.url.trim() !== '' ? parsed.data.url : null;
}

/** check-subscription / check-finder-subscription: what the server holds for this account and product. */
export async function fetchSubscription(product: BillingProduct): Promise<SubscriptionResponse> {
  return subscriptionResponse.parse(unwrap(await apiFetch(`${base(product)}/subscription`)));
}

/** customer-portal: the address of the page where the subscriber manages (or cancels) the subscription. */
export async function openPortalSession(product: BillingProduct): Promise<string> {
  return portalResponse.parse(unwrap(await apiFetch(`${base(product)}/portal`, { method: 'POST' }))).url;
}
