// /api/billing: checkout, subscription status and the customer portal for Pro, and the same three under
// /api/billing/finder for the Missing Money Finder (the spec's create-checkout, check-subscription,
// customer-portal and their Finder twins). The caller is the signed-in account; its email (for the
// provider's customer) comes from the verified token, never from the body.
import { type Guards, type PromiseClient, parseBody } from '@omni/platform';
import { billing } from '@omni/proto';
import { checkoutBody, type SubscriptionResponse } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';

type BillingClient = PromiseClient<typeof billing.BillingServiceService>;

const PRODUCTS = [
  { prefix: '', product: billing.Product.PRODUCT_PRO },
  { prefix: '/finder', product: billing.Product.PRODUCT_FINDER },
] as const;

export function subscriptionRoutes(client: BillingClient, guards: Guards, publicUrl: string): Router {
  const router = createRouter();
  for (const { prefix, product } of PRODUCTS) {
    router.post(`${prefix}/checkout`, guards.requireUser, async (req, res) => {
      const { priceId } = parseBody(checkoutBody, req, { first: true });
      const principal = req.principal!;
      const session = await client.startCheckout({
        accountId: principal.userId,
        email: principal.email ?? '',
        product,
        priceId,
        returnBaseUrl: publicUrl,
      });
      res.set('Cache-Control', 'no-store').json({ url: session.url });
    });
    router.get(`${prefix}/subscription`, guards.requireUser, async (req, res) => {
      const state = await client.getSubscription({ accountId: req.principal!.userId, product });
      const body: SubscriptionResponse = {
        subscribed: state.subscribed,
        subscription_end: state.subscriptionEnd || null,
        status: state.status,
        cancel_at_period_end: state.cancelAtPeriodEnd,
      };
      res.set('Cache-Control', 'no-store').json(body);
    });
    router.post(`${prefix}/portal`, guards.requireUser, async (req, res) => {
      const portal = await client.openPortal({
        accountId: req.principal!.userId,
        product,
        returnBaseUrl: publicUrl,
      });
      res.set('Cache-Control', 'no-store').json({ url: portal.url });
    });
  }
  return router;
}
