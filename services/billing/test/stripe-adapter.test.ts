// The Stripe adapter of the payments port, with the real `stripe` SDK, against a local server in Stripe's
// shapes (test/support/stripe-server.ts): what it sends (parameters as Stripe receives them, idempotency
// keys, the pinned API version), and what billing gets back when Stripe refuses or is down.
import Stripe from 'stripe';
import type { CheckoutInput, PaymentsProvider } from '../src/providers/payments/port';
import { PaymentsUnavailableError } from '../src/providers/payments/port';
import { createStripePayments } from '../src/providers/payments/stripe';
import { type CapturedLogger, capturedLogger } from './support/captured-logger';
import { type StripeServer, startStripeServer } from './support/stripe-server';

const SECRET = 'sk_test_omniLocalServerSecret0123456789';

let server: StripeServer;
let log: CapturedLogger;
let payments: PaymentsProvider;

beforeEach(async () => {
  server = await startStripeServer({ secretKey: SECRET });
  log = capturedLogger();
  payments = createStripePayments({ secretKey: SECRET, apiUrl: server.url, logger: log.logger });
});

afterEach(async () => {
  await payments.close();
  await server.close();
  // Whatever happened in the test, the secret key never reaches the logs.
  expect(log.text()).not.toContain(SECRET);
});

const checkoutFor = (customerId: string, overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
  customerId,
  priceId: 'price_omni_pro_monthly',
  accountId: 'acc_123',
  product: 'pro',
  successUrl: 'http://localhost:8080/app?checkout=success&session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://localhost:8080/pricing',
  ...overrides,
});

const posts = (path: string) => server.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('requests', () => {
  it('creates a customer linked to the Omni account, with our idempotency key and the pinned API version', async () => {
    const { id } = await payments.createCustomer(
      { accountId: 'acc_123', email: 'ada@example.com' },
      'customer:acc_123',
    );

    expect(id).toMatch(/^cus_/);
    const [request] = posts('/v1/customers');
    expect(request).toMatchObject({
      params: { email: 'ada@example.com', metadata: { account_id: 'acc_123' } },
      idempotencyKey: 'customer:acc_123',
      stripeVersion: Stripe.API_VERSION,
      authorization: `Bearer ${SECRET}`,
      status: 200,
    });
    expect(server.customers.get(id)?.metadata).toEqual({ account_id: 'acc_123' });
  });

  it('asks Checkout for one subscription to one price, for the existing customer, with the account in metadata', async () => {
    const customer = await payments.createCustomer({ accountId: 'acc_123', email: 'ada@example.com' }, 'c1');
    const session = await payments.createCheckoutSession(checkoutFor(customer.id), 'checkout:acc_123:1');

    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const [request] = posts('/v1/checkout/sessions');
    expect(request!.idempotencyKey).toBe('checkout:acc_123:1');
    expect(request!.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_omni_pro_monthly', quantity: '1' }],
      customer: customer.id,
      client_reference_id: 'acc_123',
      // Stripe fills in the literal placeholder itself: it must arrive intact.
      success_url: 'http://localhost:8080/app?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:8080/pricing',
      subscription_data: { metadata: { account_id: 'acc_123', product: 'pro' } },
    });
    expect(request!.params).not.toHaveProperty('payment_method_types');
    expect(request!.rawBody).not.toContain('payment_method_types');
    expect(request!.rawBody).toContain('line_items[0][price]=price_omni_pro_monthly');
  });

  it('returns the same session for a double click (same key), and Stripe makes only one', async () => {
    const customer = await payments.createCustomer({ accountId: 'acc_1', email: 'a@example.com' }, 'c1');
    const input = checkoutFor(customer.id, {
      accountId: 'acc_1',
      product: 'finder',
      priceId: 'price_omni_finder_monthly',
    });
    const [a, b] = await Promise.all([
      payments.createCheckoutSession(input, 'checkout:acc_1:finder'),
      payments.createCheckoutSession(input, 'checkout:acc_1:finder'),
    ]);

    expect(b).toEqual(a);
    expect(server.checkoutSessions.size).toBe(1);
    expect(
      posts('/v1/checkout/sessions')
        .map((r) => r.replayed)
        .sort(),
    ).toEqual([false, true]);
  });

  it('opens the customer portal for the customer, coming back to the given page', async () => {
    const customer = await payments.createCustomer({ accountId: 'acc_1', email: 'a@example.com' }, 'c1');
    const { url } = await payments.createPortalSession({
      customerId: customer.id,
      returnUrl: 'http://localhost:8080/app',
    });

    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    expect(posts('/v1/billing_portal/sessions')[0]!.params).toEqual({
      customer: customer.id,
      return_url: 'http://localhost:8080/app',
    });
  });

  it('reads a subscription as Stripe holds it, period end on its items, in billing’s terms', async () => {
    const end = Math.floor(Date.now() / 1000) + 30 * 86400;
    const seeded = server.addSubscription({
      customer: 'cus_x',
      price: 'price_omni_pro_annual',
      status: 'past_due',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: end,
      metadata: { account_id: 'acc_9', product: 'pro' },
    });

    const subscription = await payments.retrieveSubscription(seeded.id);

    expect(subscription).toEqual({
      id: seeded.id,
      customerId: 'cus_x',
      status: 'past_due',
      cancelAtPeriodEnd: true,
      cancelAt: new Date(end * 1000).toISOString(),
      currentPeriodEnd: new Date(end * 1000).toISOString(),
      priceId: 'price_omni_pro_annual',
      metadataAccountId: 'acc_9',
      metadataProduct: 'pro',
    });
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/subscriptions/${seeded.id}` });
  });
});

describe('errors', () => {
  /** The rejection, checked to be a plain Error and not an outage. */
  async function refusal(promise: Promise<unknown>): Promise<Error> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PaymentsUnavailableError);
    return err as Error;
  }

  it('a price Stripe does not know is a plain error carrying Stripe’s message, logged as ours to fix', async () => {
    const customer = await payments.createCustomer({ accountId: 'acc_1', email: 'a@example.com' }, 'c1');
    const err = await refusal(
      payments.createCheckoutSession(checkoutFor(customer.id, { priceId: 'price_nope' }), 'k1'),
    );

    expect(err.message).toContain("No such price: 'price_nope'");
    const logged = log.lines().find((l) => l.level === 50);
    expect(logged).toMatchObject({
      operation: 'create checkout session',
      code: 'resource_missing',
      status: 400,
    });
  });

  it('a missing subscription is a plain error, not an outage', async () => {
    const err = await refusal(payments.retrieveSubscription('sub_missing'));
    expect(err.message).toContain("No such subscription: 'sub_missing'");
  });

  it('the same key with other parameters is refused as Stripe does', async () => {
    const customer = await payments.createCustomer({ accountId: 'acc_1', email: 'a@example.com' }, 'c1');
    await payments.createCheckoutSession(checkoutFor(customer.id), 'same-key');
    const err = await refusal(
      payments.createCheckoutSession(
        checkoutFor(customer.id, { priceId: 'price_omni_pro_annual' }),
        'same-key',
      ),
    );
    expect(err.message).toContain('same parameters they were first used with');
    expect(server.checkoutSessions.size).toBe(1);
  });

  it('a wrong secret key is a plain error, and the key appears in no log line', async () => {
    const wrong = createStripePayments({
      secretKey: 'sk_test_wrongWrongWrong0000',
      apiUrl: server.url,
      logger: log.logger,
    });
    try {
      const err = await refusal(wrong.createCustomer({ accountId: 'a', email: 'a@example.com' }, 'k'));
      expect(err.message).toContain('Invalid API Key');
      expect(log.text()).not.toContain('sk_test_wrongWrongWrong0000');
    } finally {
      await wrong.close();
    }
  });

  // The SDK retries a 5xx or a 409 once (two requests); it does not retry a 429 unless Stripe says
  // Stripe-Should-Retry. A 409 is the same key still in flight (a double click) or a lock timeout.
  it.each([
    [500, 2],
    [409, 2],
    [503, 2],
    [429, 1],
  ])('Stripe answering %i is an outage (%i requests sent)', async (status, sent) => {
    server.failNext(status, 2);
    await expect(
      payments.createCustomer({ accountId: 'a', email: 'a@example.com' }, 'k'),
    ).rejects.toBeInstanceOf(PaymentsUnavailableError);
    expect(server.requests).toHaveLength(sent);
    expect(server.customers.size).toBe(0);
  });

  it('one 500 is retried with the same idempotency key and makes one customer', async () => {
    server.failNext(500);
    const { id } = await payments.createCustomer({ accountId: 'a', email: 'a@example.com' }, 'customer:a');

    expect(server.requests.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [500, 'customer:a'],
      [200, 'customer:a'],
    ]);
    expect([...server.customers.keys()]).toEqual([id]);
  });

  it('Stripe unreachable (connection refused) is an outage', async () => {
    const url = server.url;
    await server.close();
    const down = createStripePayments({ secretKey: SECRET, apiUrl: url, logger: log.logger });
    try {
      await expect(
        down.createCustomer({ accountId: 'a', email: 'a@example.com' }, 'k'),
      ).rejects.toBeInstanceOf(PaymentsUnavailableError);
    } finally {
      await down.close();
      server = await startStripeServer({ secretKey: SECRET }); // for afterEach
    }
  });

  it('Stripe not answering within the timeout is an outage', async () => {
    server.stallNext(2);
    const slow = createStripePayments({
      secretKey: SECRET,
      apiUrl: server.url,
      logger: log.logger,
      timeoutMs: 200,
    });
    try {
      await expect(slow.retrieveSubscription('sub_x')).rejects.toBeInstanceOf(PaymentsUnavailableError);
    } finally {
      await slow.close();
    }
  });
});

describe('the local server answers as Stripe does', () => {
  const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${SECRET}`,
        ...headers,
      },
      body,
    });

  it('refuses a request without the secret key (401)', async () => {
    const res = await post('/v1/customers', form({ email: 'a@example.com' }), { authorization: '' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('refuses payment_method_types, gone from the current API', async () => {
    const res = await post(
      '/v1/checkout/sessions',
      form({
        mode: 'subscription',
        'line_items[0][price]': 'price_omni_pro_monthly',
        'payment_method_types[0]': 'card',
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message: 'Received unknown parameter: payment_method_types',
        param: 'payment_method_types',
      },
    });
  });

  it('refuses a key reused on another endpoint (400 idempotency_error)', async () => {
    expect(
      (await post('/v1/customers', form({ email: 'a@example.com' }), { 'idempotency-key': 'k' })).status,
    ).toBe(200);
    const res = await post('/v1/billing_portal/sessions', form({ customer: 'cus_x' }), {
      'idempotency-key': 'k',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
  });
});
