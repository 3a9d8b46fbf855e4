// POST /api/billing/webhooks/stripe: the payments provider's events (Stripe's, or the sandbox's in the
// same shapes). The gateway takes the RAW bytes (the platform's JSON parser skips webhook paths) and hands
// them with the Stripe-Signature header to billing, which alone holds the endpoint secret, verifies and
// applies. 200 tells Stripe to stop retrying; a refused signature is a 400 and changes nothing.
import { HttpError, type PromiseClient } from '@omni/platform';
import type { billing } from '@omni/proto';
import { BILLING_MESSAGES } from '@omni/proto/api';
import express, { Router as createRouter, type Router } from 'express';

/** Stripe's events are a few KB; the platform's usual body limit. */
const WEBHOOK_BODY_LIMIT = '1mb';

export function webhookRoutes(client: PromiseClient<typeof billing.BillingServiceService>): Router {
  const router = createRouter();
  router.post(
    '/webhooks/stripe',
    // Whatever the content type says: the signature covers the bytes, so they are kept as they came.
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
      const signature = req.get('stripe-signature');
      if (!signature) throw new HttpError(400, BILLING_MESSAGES.badSignature, 'bad_signature');
      const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const result = await client.handleWebhook({ payload, signature });
      res.json({ received: true, event_id: result.eventId, applied: result.applied });
    },
  );
  return router;
}
