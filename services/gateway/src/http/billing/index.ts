// Everything under /api/billing, in the order it must be matched: the public plans and the webhook (no
// bearer: the provider signs it) before the signed-in routes.
import type { Guards, PlatformConfig, PromiseClient } from '@omni/platform';
import type { billing } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';
import { plansFor } from './plans';
import { subscriptionRoutes } from './subscriptions';
import { webhookRoutes } from './webhooks';

export function billingRoutes(
  client: PromiseClient<typeof billing.BillingServiceService>,
  guards: Guards,
  config: PlatformConfig,
): Router {
  const router = createRouter();
  const plans = plansFor(config);
  router.get('/plans', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json(plans);
  });
  router.use(webhookRoutes(client));
  router.use(subscriptionRoutes(client, guards, config.publicUrl));
  return router;
}
