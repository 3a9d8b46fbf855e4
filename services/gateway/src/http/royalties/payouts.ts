// Payouts (proto/api/payouts.ts), in royalties for the signed-in payee:
// - /api/me/payouts (GET): balance, the "why not paid" checklist, payouts, statements;
//   POST /api/me/payouts/onboarding (the hosted page to go to), PUT …/tax-form, PUT …/minimum;
//   GET /api/me/payouts/statements/:period[.csv|.pdf]: the caller's own statement only.
// - POST /api/admin/payouts/run: an admin runs the current payout run now (idempotent).
// - POST /api/royalties/webhooks/stripe-connect: Stripe Connect's events (or the payout sandbox's in the
//   same shapes), the RAW bytes and the Stripe-Signature header handed to royalties, which alone holds the
//   endpoint secret, verifies and applies (as billing's webhook route does). 400 on a bad signature.
// - /payouts-sandbox/*: the payout sandbox's hosted pages (embedded mode only, this machine only).
import {
  type Guards,
  HttpError,
  type Logger,
  onlyThisMachine,
  type PromiseClient,
  parseBody,
} from '@omni/platform';
import type { royalties } from '@omni/proto';
import { minimumBody, myPayouts, onboardingLink, statementJson, taxFormBody } from '@omni/proto/api';
import express, { Router as createRouter, type Express, type Request, type Router } from 'express';
import * as z from 'zod/mini';
import { forwardTo } from '../proxy';

type RoyaltiesClient = PromiseClient<typeof royalties.RoyaltiesServiceService>;

const callerOf = (req: Request) => {
  const p = req.principal!;
  return { userId: p.userId, email: p.email ?? '', isAdmin: p.roles.includes('admin') };
};
const STATEMENT = /^(\d{4}-(?:0[1-9]|1[0-2]))(?:\.(csv|pdf))?$/;

export function payoutRoutes(client: RoyaltiesClient, guards: Guards): Router {
  const router = createRouter();
  const json = express.json({ limit: '16kb' });
  const call = async (req: Request, action: string, body?: unknown) => {
    const { json: out } = await client.payoutCall({
      caller: callerOf(req),
      action,
      bodyJson: body === undefined ? '' : JSON.stringify(body),
    });
    return JSON.parse(out) as unknown;
  };

  router.post(
    '/royalties/webhooks/stripe-connect',
    express.raw({ type: () => true, limit: '1mb' }),
    async (req, res) => {
      const signature = req.get('stripe-signature');
      if (!signature) throw new HttpError(400, 'The webhook signature did not verify.', 'bad_signature');
      const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const result = await client.handlePayoutWebhook({ payload, signature });
      res.json({ received: true, event_id: result.eventId, applied: result.applied });
    },
  );

  router.get('/me/payouts', guards.requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(z.parse(myPayouts, await call(req, 'get')));
  });
  router.post('/me/payouts/onboarding', guards.requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(z.parse(onboardingLink, await call(req, 'onboarding')));
  });
  router.put('/me/payouts/tax-form', guards.requireUser, json, async (req, res) => {
    const body = parseBody(taxFormBody, req, { first: true });
    res.set('Cache-Control', 'no-store').json(z.parse(myPayouts, await call(req, 'tax_form', body)));
  });
  router.put('/me/payouts/minimum', guards.requireUser, json, async (req, res) => {
    const body = parseBody(minimumBody, req, { first: true });
    res.set('Cache-Control', 'no-store').json(z.parse(myPayouts, await call(req, 'minimum', body)));
  });
  router.get('/me/payouts/statements/:file', guards.requireUser, async (req, res) => {
    const m = STATEMENT.exec(String(req.params.file ?? ''));
    if (!m) throw new HttpError(404, 'No such statement.', 'not_found');
    const format = m[2] ?? 'json';
    const caller = callerOf(req);
    const out = await client.getPayeeStatement({ caller, payeeId: caller.userId, period: m[1]!, format });
    res.set('Cache-Control', 'no-store');
    if (format === 'json')
      return void res.json(z.parse(statementJson, JSON.parse(Buffer.from(out.body).toString())));
    res
      .type(out.contentType)
      .set('Content-Disposition', `attachment; filename="${out.fileName}"`)
      .send(Buffer.from(out.body));
  });
  router.post('/admin/payouts/run', guards.requireAdmin, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await call(req, 'run'));
  });
  return router;
}

/** The payout sandbox's pages are royalties' (embedded mode); Stripe hosts its own onboarding. */
export function forwardPayoutSandbox(http: Express, royaltiesHttp: () => string, logger: Logger): void {
  http.use(
    '/payouts-sandbox',
    onlyThisMachine('The payout sandbox answers only on the machine Omni runs on.'),
    forwardTo(royaltiesHttp, logger, 'Payouts'),
  );
}
