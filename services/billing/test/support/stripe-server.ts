// A local HTTP server in Stripe's shapes, answering only what Omni calls: POST /v1/customers,
// POST /v1/checkout/sessions, POST /v1/billing_portal/sessions and GET /v1/subscriptions/:id. The Stripe API
// cannot be reached from these machines (and stripe-mock is not available), so the real adapter and the
// real SDK are tested against this. It behaves as Stripe documents: form-encoded bodies with bracketed
// nesting (line_items[0][price]), Bearer authentication (401 otherwise), unknown parameters refused,
// Stripe's error body {error:{type,message,code,param}}, and idempotency keys (the same key replays the first
// answer; the same key with other parameters or on another endpoint is a 400 idempotency_error).
// Used by services/billing/test and by the platform tests (PAYMENTS=stripe, STRIPE_API_URL=server.url).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type Stripe from 'stripe';
import {
  checkoutSessionObject,
  customerObject,
  failureFor,
  invalidRequest,
  KNOWN_PARAMS,
  newId,
  noSuch,
  portalSessionObject,
  StripeFailure,
  type SubscriptionSeed,
  subscriptionObject,
} from './stripe-shapes';

export { type SubscriptionSeed, subscriptionObject } from './stripe-shapes';

/** The price ids the server knows unless told otherwise: billing's defaults (PRICE_* settings). */
export const DEFAULT_PRICES = [
  'price_omni_pro_monthly',
  'price_omni_pro_annual',
  'price_omni_finder_monthly',
];

export interface RecordedRequest {
  method: string;
  /** e.g. /v1/checkout/sessions (no query string). */
  path: string;
  /** The form body as Stripe parses it (nested objects and arrays), or the query for a GET. */
  params: Record<string, unknown>;
  /** The raw form body, to see exactly what went over the wire. */
  rawBody: string;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  authorization: string | undefined;
  /** What the server answered with. */
  status: number;
  /** True when the answer replayed an earlier one for the same idempotency key. */
  replayed: boolean;
}

export interface StripeServer {
  /** Pass as STRIPE_API_URL / createStripePayments({ apiUrl }). */
  url: string;
  /** Every request received, in order (including refused ones and the SDK's retries). */
  requests: RecordedRequest[];
  /** Customers created through the API, by id. */
  customers: Map<string, ReturnType<typeof customerObject>>;
  checkoutSessions: Map<string, ReturnType<typeof checkoutSessionObject>>;
  /** Subscriptions GET /v1/subscriptions/:id answers with; seed with addSubscription or set directly. */
  subscriptions: Map<string, Stripe.Subscription>;
  /** Price ids checkout accepts (others: 400 resource_missing, as Stripe answers). */
  prices: Set<string>;
  addSubscription(seed: SubscriptionSeed): Stripe.Subscription;
  /**
   * The next `times` requests (default 1) are answered with this status and Stripe's error body for it,
   * before anything is executed or remembered for idempotency (as a failure in front of Stripe's API is).
   * Note the SDK retries a 5xx/429/409 once: failNext(500, 2) makes a create fail for good.
   */
  failNext(status: number, times?: number): void;
  /** The next `times` requests get no answer at all (the adapter's timeout gives up on them). */
  stallNext(times?: number): void;
  close(): Promise<void>;
}

type Handler = (params: Record<string, unknown>, pathParams: Record<string, string>) => { body: unknown };

export async function startStripeServer(o: { secretKey: string; prices?: string[] }): Promise<StripeServer> {
  const requests: RecordedRequest[] = [];
  const customers: StripeServer['customers'] = new Map();
  const checkoutSessions: StripeServer['checkoutSessions'] = new Map();
  const subscriptions: StripeServer['subscriptions'] = new Map();
  const prices = new Set(o.prices ?? DEFAULT_PRICES);
  /** key → the first request's endpoint, parameters and answer. */
  const idempotent = new Map<string, { endpoint: string; params: string; body: unknown }>();
  const failures: number[] = [];
  let stalls = 0;

  const createCustomer: Handler = (params) => {
    const customer = customerObject(newId('cus'), params);
    customers.set(customer.id, customer);
    return { body: customer };
  };

  const createCheckoutSession: Handler = (params) => {
    if (!params.mode) throw invalidRequest('Missing required param: mode.', { param: 'mode' });
    const items = params.line_items;
    if (params.mode === 'subscription' && (!Array.isArray(items) || items.length === 0))
      throw invalidRequest(
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        {
          param: 'line_items',
        },
      );
    for (const [i, item] of ((items as Array<Record<string, unknown>>) ?? []).entries()) {
      const price = String(item.price ?? '');
      if (!prices.has(price)) throw noSuch('price', price, `line_items[${i}][price]`);
    }
    const customer = params.customer as string | undefined;
    if (customer !== undefined && !customers.has(customer)) throw noSuch('customer', customer, 'customer');
    const session = checkoutSessionObject(newId('cs_test'), params);
    checkoutSessions.set(session.id, session);
    return { body: session };
  };

  const createPortalSession: Handler = (params) => {
    const customer = params.customer as string | undefined;
    if (!customer) throw invalidRequest('Missing required param: customer.', { param: 'customer' });
    if (!customers.has(customer)) throw noSuch('customer', customer, 'customer');
    return { body: portalSessionObject(newId('bps'), params) };
  };

  const retrieveSubscription: Handler = (_params, { id }) => {
    const subscription = subscriptions.get(id!);
    if (!subscription) throw noSuch('subscription', id!, 'id', 404);
    return { body: subscription };
  };

  const routes: Array<{ method: string; pattern: RegExp; endpoint: string; handler: Handler }> = [
    { method: 'POST', pattern: /^\/v1\/customers$/, endpoint: '/v1/customers', handler: createCustomer },
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions$/,
      endpoint: '/v1/checkout/sessions',
      handler: createCheckoutSession,
    },
    {
      method: 'POST',
      pattern: /^\/v1\/billing_portal\/sessions$/,
      endpoint: '/v1/billing_portal/sessions',
      handler: createPortalSession,
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions\/(?<id>[^/]+)$/,
      endpoint: '/v1/subscriptions/:id',
      handler: retrieveSubscription,
    },
  ];

  /** Stripe's answer to one request; refusals are thrown as StripeFailure (see respond). */
  function answer(req: express.Request): { body: unknown; replayed: boolean } {
    const failure = failures.shift();
    if (failure !== undefined) throw failureFor(failure);

    const auth = req.get('authorization');
    if (!auth?.startsWith('Bearer '))
      throw unauthorized(
        'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.',
      );
    const key = auth.slice('Bearer '.length);
    if (key !== o.secretKey) throw unauthorized(`Invalid API Key provided: ${masked(key)}`);

    const route = routes.find((r) => r.method === req.method && r.pattern.test(req.path));
    if (!route)
      throw new StripeFailure(404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${req.path}). This local server answers only what Omni calls.`,
        },
      });

    const params = paramsOf(req);
    const known = KNOWN_PARAMS[route.endpoint];
    const unknown = known && Object.keys(params).find((p) => !known.includes(p));
    if (unknown) throw invalidRequest(`Received unknown parameter: ${unknown}`, { param: unknown });

    // Stripe keeps a key's first answer for 24 h; GETs are idempotent by nature and ignore keys.
    const idempotencyKey = req.method === 'POST' ? req.get('idempotency-key') : undefined;
    const signature = JSON.stringify(params);
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length > 255)
        throw invalidRequest('Idempotency keys may be at most 255 characters long.', {
          param: 'Idempotency-Key',
        });
      const first = idempotent.get(idempotencyKey);
      if (first && first.endpoint !== route.endpoint)
        throw idempotencyError(
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${first.endpoint}' vs '${route.endpoint}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        );
      if (first && first.params !== signature)
        throw idempotencyError(
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        );
      if (first) return { body: first.body, replayed: true };
    }

    const pathParams = (req.path.match(route.pattern)?.groups ?? {}) as Record<string, string>;
    const { body } = route.handler(params, pathParams);
    // Only executed successes are kept: Stripe keeps no result for a request that failed validation.
    if (idempotencyKey !== undefined)
      idempotent.set(idempotencyKey, { endpoint: route.endpoint, params: signature, body });
    return { body, replayed: false };
  }

  function respond(req: express.Request): { status: number; body: unknown; replayed: boolean } {
    try {
      return { status: 200, ...answer(req) };
    } catch (err) {
      if (err instanceof StripeFailure) return { status: err.status, body: err.body, replayed: false };
      throw err;
    }
  }

  const app = express();
  /** Each request's form body as received, for tests that look at the wire. */
  const rawBodies = new WeakMap<object, string>();
  // Stripe parses bracketed form keys into nested objects and arrays, as qs's extended mode does.
  app.use(
    express.urlencoded({ extended: true, verify: (req, _res, buf) => rawBodies.set(req, buf.toString()) }),
  );
  app.use((req, res) => {
    if (stalls > 0) {
      stalls--;
      requests.push(record(req, 0, false));
      return; // never answered; the socket is destroyed by close() or the client's timeout
    }
    const { status, body, replayed } = respond(req);
    requests.push(record(req, status, replayed));
    res.status(status);
    res.set('Request-Id', newId('req'));
    if (replayed) res.set('Idempotent-Replayed', 'true');
    if (req.get('idempotency-key')) res.set('Idempotency-Key', req.get('idempotency-key')!);
    res.json(body);
  });

  function record(req: express.Request, status: number, replayed: boolean): RecordedRequest {
    return {
      method: req.method,
      path: req.path,
      params: paramsOf(req),
      rawBody: rawBodies.get(req) ?? '',
      idempotencyKey: req.get('idempotency-key'),
      stripeVersion: req.get('stripe-version'),
      authorization: req.get('authorization'),
      status,
      replayed,
    };
  }

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    checkoutSessions,
    subscriptions,
    prices,
    addSubscription(seed) {
      const subscription = subscriptionObject(seed);
      subscriptions.set(subscription.id, subscription);
      return subscription;
    },
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    stallNext(times = 1) {
      stalls += times;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function paramsOf(req: express.Request): Record<string, unknown> {
  if (req.method === 'GET') return { ...(req.query as Record<string, unknown>) };
  return (req.body as Record<string, unknown> | undefined) ?? {};
}

const unauthorized = (message: string) =>
  new StripeFailure(401, { error: { type: 'invalid_request_error', message } });

const idempotencyError = (message: string) =>
  new StripeFailure(400, { error: { type: 'idempotency_error', message } });

/** Stripe shows only a key's last four characters. */
const masked = (key: string) =>
  `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
