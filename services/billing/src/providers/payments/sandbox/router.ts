// The sandbox's hosted pages under /billing-sandbox/ (the gateway forwards that prefix to billing's HTTP
// in embedded mode). Forms post here; each answer is a page or a 303 to the next one, so the pages work
// without script. Bad input gets the page again with the reason, as a 4xx.
import { HttpError, type Logger, onlyThisMachine } from '@omni/platform';
import { BILLING_MESSAGES } from '@omni/proto/api';
import express, { type Request, type Response, Router } from 'express';
import { type AdvanceRequest, advanceClock, MAX_ADVANCE_SECONDS } from './advance';
import { readCard } from './cards';
import { authenticate, type PayOutcome, payCheckout, readSession } from './checkout';
import type { SandboxContext } from './context';
import { STYLES } from './html';
import {
  authenticatePage,
  checkoutPage,
  clockPage,
  closedCheckoutPage,
  messagePage,
  portalPage,
} from './pages';
import type { CustomerDoc, PortalSessionDoc, SubscriptionDoc } from './records';
import { applyPortalAction, type PortalAction, updateCard } from './subscriptions';

const PREFIX = '/billing-sandbox';

export function sandboxRouter(ctx: SandboxContext, logger: Logger): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
  const json = express.json({ limit: '16kb' });
  const customers = () => ctx.store.collection<CustomerDoc>('customers');

  const send = (res: Response, status: number, body: string) =>
    res.status(status).set('Cache-Control', 'no-store').type('html').send(body);

  // Only this machine, as the gateway already checks at the edge: billing started alone (its own pod or
  // process) listens on every interface, and these pages pay and cancel without money changing hands.
  router.use(PREFIX, onlyThisMachine(BILLING_MESSAGES.sandboxLocalOnly));

  router.get(`${PREFIX}/sandbox.css`, (_req, res) => {
    res.type('css').set('Cache-Control', 'public, max-age=300').send(STYLES);
  });

  // ---- checkout ----------------------------------------------------------------------------------------
  const showCheckout = async (res: Response, id: string, status = 200, error?: string) => {
    const session = await readSession(ctx, id);
    if (!session)
      return send(
        res,
        404,
        messagePage('Checkout not found', 'There is no checkout session at this address.'),
      );
    if (session.object.status !== 'open')
      return send(
        res,
        410,
        closedCheckoutPage(session.object.status === 'complete' ? 'complete' : 'expired', session),
      );
    const price = ctx.prices[session.price];
    // The price ids come from configuration (PRICE_*); one renamed since the session was made is gone.
    if (!price)
      return send(
        res,
        410,
        messagePage('Checkout', 'This plan is no longer offered. Start again from Omni.'),
      );
    const customer = await customers().findById(session.object.customer as string);
    send(res, status, checkoutPage(session, price, customer?.object.email ?? '', error));
  };
  const answerPayment = async (res: Response, id: string, outcome: PayOutcome) => {
    switch (outcome.kind) {
      case 'paid':
        return res.redirect(303, outcome.redirect);
      case 'authenticate':
        return res.redirect(303, `${PREFIX}/checkout/${encodeURIComponent(id)}/authenticate`);
      case 'invalid':
        return showCheckout(res, id, 400, outcome.message);
      case 'refused':
        // 402 is what Stripe answers a declined card with.
        return showCheckout(res, id, 402, outcome.message);
      case 'closed':
      case 'missing':
        return showCheckout(res, id);
    }
  };
  router.get(`${PREFIX}/checkout/:id`, async (req, res) => showCheckout(res, param(req)));
  router.post(`${PREFIX}/checkout/:id`, form, async (req, res) =>
    answerPayment(res, param(req), await payCheckout(ctx, param(req), req.body ?? {})),
  );
  router.get(`${PREFIX}/checkout/:id/authenticate`, async (req, res) => {
    const session = await readSession(ctx, param(req));
    if (!session?.authenticating || session.object.status !== 'open') return showCheckout(res, param(req));
    send(res, 200, authenticatePage(session));
  });
  router.post(`${PREFIX}/checkout/:id/authenticate`, form, async (req, res) => {
    const result = req.body?.result;
    if (result !== 'complete' && result !== 'fail')
      return send(
        res,
        400,
        messagePage('Authentication', 'Choose Complete authentication or Fail authentication.'),
      );
    answerPayment(res, param(req), await authenticate(ctx, param(req), result === 'complete'));
  });

  // ---- portal ------------------------------------------------------------------------------------------
  const showPortal = async (res: Response, id: string, status = 200, error?: string) => {
    const portal = await ctx.store.collection<PortalSessionDoc>('portal_sessions').findById(id);
    if (!portal)
      return send(
        res,
        404,
        messagePage('Portal not found', 'There is no billing portal session at this address.'),
      );
    const customer = await customers().findById(portal.customer);
    const subscriptions = await ctx.store
      .collection<SubscriptionDoc>('subscriptions')
      .find({ customer: portal.customer }, { sort: { 'object.created': -1 } });
    send(
      res,
      status,
      portalPage({
        portal: portal.object,
        email: customer?.object.email ?? '',
        card: customer?.card,
        subscriptions,
        prices: ctx.prices,
        error,
      }),
    );
  };
  router.get(`${PREFIX}/portal/:id`, async (req, res) => showPortal(res, param(req)));
  // Update card: checked as checkout checks it; a card that needs 3-D Secure is saved as authenticated
  // (the sandbox has no off-session authentication to show), a declined one is refused with its reason.
  router.post(`${PREFIX}/portal/:id/card`, form, async (req, res) => {
    const id = param(req);
    const portal = await ctx.store.collection<PortalSessionDoc>('portal_sessions').findById(id);
    if (!portal) return showPortal(res, id);
    const read = readCard(req.body ?? {}, ctx.clock.now());
    if ('error' in read) return showPortal(res, id, read.notTestCard ? 402 : 400, read.error);
    const b = read.card.behaviour;
    if (b.kind === 'declined') return showPortal(res, id, 402, b.message);
    const renewals = b.kind === 'succeeds' ? b.renewals : 'succeed';
    const { paid } = await updateCard(ctx, portal.customer, { last4: read.card.number.slice(-4), renewals });
    logger.info({ customer: portal.customer, paid }, 'sandbox card updated');
    res.redirect(303, `${PREFIX}/portal/${encodeURIComponent(id)}`);
  });
  router.post(`${PREFIX}/portal/:id/subscriptions/:sub/:action`, form, async (req, res) => {
    const id = param(req);
    const portal = await ctx.store.collection<PortalSessionDoc>('portal_sessions').findById(id);
    if (!portal) return showPortal(res, id);
    const action = portalAction(String(req.params.action), req.body?.price);
    if (!action) return showPortal(res, id, 400, 'Unknown action.');
    const { error } = await applyPortalAction(ctx, portal.customer, String(req.params.sub), action);
    if (error) return showPortal(res, id, 409, error);
    res.redirect(303, `${PREFIX}/portal/${encodeURIComponent(id)}`);
  });

  // ---- clock -------------------------------------------------------------------------------------------
  const showClock = async (res: Response, status = 200, error?: string) => {
    const subs = await ctx.store.collection<SubscriptionDoc>('subscriptions').find({ state: 'live' });
    send(res, status, clockPage(ctx.clock.now(), subs, error));
  };
  router.get(`${PREFIX}/clock`, async (_req, res) => showClock(res));
  // A form's buttons post urlencoded and get the page back; scripts and tests post JSON and get JSON.
  router.post(`${PREFIX}/clock/advance`, form, json, async (req, res) => {
    const wantsJson = Boolean(req.is('application/json'));
    const body = (req.body ?? {}) as { seconds?: unknown; to?: unknown; subscription?: unknown };
    let request: AdvanceRequest | undefined;
    if (body.to === 'period_end')
      request =
        typeof body.subscription === 'string' && body.subscription
          ? { to: 'period_end', subscription: body.subscription.slice(0, 100) }
          : { to: 'period_end' };
    else {
      const seconds = Number(body.seconds);
      if (Number.isInteger(seconds) && seconds > 0 && seconds <= MAX_ADVANCE_SECONDS) request = { seconds };
    }
    const invalid = `Send {"seconds": n} with n a whole number from 1 to ${MAX_ADVANCE_SECONDS}, or {"to": "period_end"} (with "subscription": its id, for that one's period end).`;
    if (!request) {
      if (wantsJson) throw new HttpError(400, invalid, 'invalid_request');
      return showClock(res, 400, invalid);
    }
    const result = await advanceClock(ctx, request);
    logger.info({ request, now: result.now, error: result.error }, 'sandbox clock advanced');
    if (wantsJson) {
      if (result.error) throw new HttpError(409, result.error, 'conflict');
      return res.json({ now: result.now });
    }
    if (result.error) return showClock(res, 409, result.error);
    res.redirect(303, `${PREFIX}/clock`);
  });
  router.get(`${PREFIX}/clock/now`, (_req, res) => {
    res.json({ now: ctx.clock.now() });
  });
  return router;
}

const param = (req: Request) => String(req.params.id);

function portalAction(name: string, price: unknown): PortalAction | undefined {
  switch (name) {
    case 'cancel':
      return { kind: 'cancel' };
    case 'cancel-at-period-end':
      return { kind: 'cancel_at_period_end' };
    case 'resume':
      return { kind: 'resume' };
    case 'switch':
      return typeof price === 'string' && price ? { kind: 'switch', price } : undefined;
    default:
      return undefined;
  }
}
