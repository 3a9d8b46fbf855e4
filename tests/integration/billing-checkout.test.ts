// Checkout and portal through the real surface, on the Stripe adapter against a local server in Stripe's
// shapes (PAYMENTS=stripe, STRIPE_API_URL): a price that is not a plan is a 400, an account already
// subscribed gets a 409, a double click makes one session and one customer, a portal without a customer is
// a 404, Stripe being down is a 503 that says to try again. Checkout never writes subscription state.
import { randomUUID } from 'node:crypto';
import { type StripeServer, startStripeServer } from '../../services/billing/test/support/stripe-server';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import {
  checkoutCompleted,
  event,
  postEvent,
  subscriptionObject,
  TEST_WEBHOOK_SECRET,
} from '../support/stripe-events';
import { signTestToken } from '../support/tokens';

const SECRET_KEY = 'sk_test_billing_core_checkout';
let stripe: StripeServer;
let platform: TestPlatform;

beforeAll(async () => {
  stripe = await startStripeServer({ secretKey: SECRET_KEY });
  platform = await startTestPlatform({
    env: {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    },
  });
});
afterAll(async () => {
  await platform?.close();
  await stripe?.close();
});

async function account() {
  const userId = randomUUID();
  const email = `${userId.slice(0, 8)}@example.com`;
  const token = await signTestToken(await platform.ports.documents('identity'), { userId, email });
  return { userId, email, token };
}

const post = (path: string, token: string | undefined, body?: unknown) =>
  fetch(`${platform.url}/api/billing/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

const sessionsFor = (userId: string) =>
  [...stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === userId);
const customersFor = (userId: string) =>
  [...stripe.customers.values()].filter((c) => (c.metadata as Record<string, string>)?.account_id === userId);

it('lists the plans with this configuration’s price ids, to anyone', async () => {
  const res = await fetch(`${platform.url}/api/billing/plans`);
  expect(res.status).toBe(200);
  const { plans } = (await res.json()) as { plans: Array<{ key: string; priceId: string; amount: number }> };
  expect(plans.map((p) => [p.key, p.priceId, p.amount])).toEqual([
    ['pro_monthly', 'price_omni_pro_monthly', 1299],
    ['pro_annual', 'price_omni_pro_annual', 9900],
    ['finder_monthly', 'price_omni_finder_monthly', 9900],
  ]);
});

it('refuses anonymous callers, a missing price and a price that is not one of the product’s plans', async () => {
  expect((await post('checkout', undefined, { priceId: 'price_omni_pro_monthly' })).status).toBe(401);
  expect((await post('portal', undefined)).status).toBe(401);
  const { token } = await account();
  const missing = await post('checkout', token, {});
  expect(missing.status).toBe(400);
  expect((await errorOf(missing)).message).toMatch(/Choose a plan/);
  for (const [path, priceId] of [
    ['checkout', 'price_made_up'],
    ['checkout', 'price_omni_finder_monthly'],
    ['finder/checkout', 'price_omni_pro_annual'],
  ] as const) {
    const res = await post(path, token, { priceId });
    expect({ path, priceId, status: res.status }).toEqual({ path, priceId, status: 400 });
    expect(await errorOf(res)).toEqual({
      code: 'unknown_price',
      message: 'That price is not one of our plans. Reload the pricing page and choose a plan again.',
    });
  }
});

it('a double click makes one session and one customer, with the account tied to both', async () => {
  const { userId, email, token } = await account();
  const answers = await Promise.all([
    post('checkout', token, { priceId: 'price_omni_pro_monthly' }),
    post('checkout', token, { priceId: 'price_omni_pro_monthly' }),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  const [a, b] = (await Promise.all(answers.map((r) => r.json()))) as Array<{ url: string }>;
  expect(a!.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  expect(b!.url).toBe(a!.url);
  expect(customersFor(userId)).toHaveLength(1);
  expect(customersFor(userId)[0]!.email).toBe(email);
  const sessions = sessionsFor(userId);
  expect(sessions).toHaveLength(1);
  expect(sessions[0]).toMatchObject({
    customer: customersFor(userId)[0]!.id,
    success_url: `${platform.url}/app?checkout=success`,
    cancel_url: `${platform.url}/pricing`,
  });
  // A third click later: still the same open session.
  const again = (await (await post('checkout', token, { priceId: 'price_omni_pro_monthly' })).json()) as {
    url: string;
  };
  expect(again.url).toBe(a!.url);
  expect(sessionsFor(userId)).toHaveLength(1);
  // Checkout wrote no subscription: only webhooks do.
  const sub = await fetch(`${platform.url}/api/billing/subscription`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(((await sub.json()) as { subscribed: boolean }).subscribed).toBe(false);
});

it('a completed checkout moves the attempt on; an account already subscribed is refused with 409', async () => {
  const { userId, token } = await account();
  const first = (await (await post('checkout', token, { priceId: 'price_omni_pro_annual' })).json()) as {
    url: string;
  };
  const session = sessionsFor(userId)[0]!;
  const customer = session.customer as string;
  const s = {
    id: `sub_${randomUUID().slice(0, 12)}`,
    customer,
    accountId: userId,
    product: 'pro' as const,
    status: 'active' as const,
    cancelAtPeriodEnd: false,
    cancelAt: null,
    periodEnd: Math.floor(Date.now() / 1000) + 365 * 86400,
    price: 'price_omni_pro_annual',
  };
  const completed = checkoutCompleted(Math.floor(Date.now() / 1000), s, userId);
  (completed.data.object as { id: string }).id = session.id;
  expect((await postEvent(platform.url, completed)).status).toBe(200);
  expect(
    (
      await postEvent(
        platform.url,
        event('customer.subscription.created', Math.floor(Date.now() / 1000), subscriptionObject(s)),
      )
    ).status,
  ).toBe(200);

  for (const priceId of ['price_omni_pro_monthly', 'price_omni_pro_annual']) {
    const refused = await post('checkout', token, { priceId });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toEqual({
      code: 'already_subscribed',
      message: 'You already have an active Pro subscription. Manage it from your dashboard.',
    });
  }
  // Finder is another product: allowed, on the same customer, with its own return pages.
  const finder = await post('finder/checkout', token, { priceId: 'price_omni_finder_monthly' });
  expect(finder.status).toBe(200);
  const finderSession = sessionsFor(userId).find((x) => x.success_url?.includes('missing-money-finder'));
  expect(finderSession).toMatchObject({ customer, cancel_url: `${platform.url}/missing-money-finder` });
  expect(customersFor(userId)).toHaveLength(1);
  expect(((await finder.json()) as { url: string }).url).not.toBe(first.url);
});

it('the portal needs a customer (404 before any checkout), then opens on it', async () => {
  const { token } = await account();
  const none = await post('portal', token);
  expect(none.status).toBe(404);
  expect(await errorOf(none)).toEqual({
    code: 'no_billing_account',
    message: 'You have no subscription to manage yet. Choose a plan on the pricing page first.',
  });
  expect((await post('checkout', token, { priceId: 'price_omni_pro_monthly' })).status).toBe(200);
  const portal = await post('portal', token);
  expect(portal.status).toBe(200);
  expect(((await portal.json()) as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\//);
  expect((await post('finder/portal', token)).status).toBe(200);
});

it('Stripe being down is a 503 that says to try again, and nothing is half-made', async () => {
  const { userId, token } = await account();
  stripe.failNext(500, 2); // the SDK retries once
  const res = await post('checkout', token, { priceId: 'price_omni_pro_monthly' });
  expect(res.status).toBe(503);
  // The gateway says it in its own words for every 5xx (no internals); the code names the outage.
  expect(await errorOf(res)).toMatchObject({
    code: 'unavailable',
    message: expect.stringMatching(/try again/),
  });
  expect(customersFor(userId)).toHaveLength(0);
  // Back up: the same click works.
  expect((await post('checkout', token, { priceId: 'price_omni_pro_monthly' })).status).toBe(200);
  expect(sessionsFor(userId)).toHaveLength(1);
});

it('two updates in one second with no evidence of their order are settled by re-reading the subscription from Stripe', async () => {
  const { userId, token } = await account();
  const customer = `cus_${randomUUID().slice(0, 12)}`;
  const truth = stripe.addSubscription({
    customer,
    price: 'price_omni_pro_monthly',
    status: 'active',
    cancelAtPeriodEnd: true,
    metadata: { account_id: userId, product: 'pro' },
  });
  const periodEnd = truth.items.data[0]!.current_period_end;
  const s = {
    id: truth.id,
    customer,
    accountId: userId,
    product: 'pro' as const,
    status: 'active' as const,
    cancelAtPeriodEnd: false,
    cancelAt: null,
    periodEnd,
    price: 'price_omni_pro_monthly',
  };
  const t = Math.floor(Date.now() / 1000);
  expect(
    (await postEvent(platform.url, event('customer.subscription.created', t - 5, subscriptionObject(s))))
      .status,
  ).toBe(200);
  // The same second, no previous_attributes: which came last is unknown. Stripe holds active + cancel at period end.
  const first = event('customer.subscription.updated', t, subscriptionObject({ ...s, status: 'past_due' }));
  const second = event(
    'customer.subscription.updated',
    t,
    subscriptionObject({ ...s, cancelAtPeriodEnd: true }),
  );
  expect((await postEvent(platform.url, first)).status).toBe(200);
  expect((await postEvent(platform.url, second)).status).toBe(200);
  const res = await fetch(`${platform.url}/api/billing/subscription`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await res.json()).toMatchObject({ subscribed: true, status: 'active', cancel_at_period_end: true });
  expect(stripe.requests.some((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${truth.id}`)).toBe(
    true,
  );
});
