// The whole embedded path as `npm start` runs it (PAYMENTS=embedded, the webhook secret made on first
// start): checkout through the gateway → the sandbox's hosted page paid with a test card → the sandbox's
// signed events back through the gateway's webhook → billing → GET /api/billing/subscription; then the
// portal's cancel at period end (still Pro) and the sandbox clock passing the period end (Free again).
import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { PAYMENTS: 'embedded' } });
});
afterAll(async () => {
  await platform?.close();
});

interface Subscription {
  subscribed: boolean;
  subscription_end: string | null;
  status: string;
  cancel_at_period_end: boolean;
}

async function subscription(token: string): Promise<Subscription> {
  const res = await fetch(`${platform.url}/api/billing/subscription`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as Subscription;
}

/** Events arrive asynchronously (the sandbox delivers them as Stripe does): wait for the state to show. */
async function until(token: string, wanted: (s: Subscription) => boolean): Promise<Subscription> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const s = await subscription(token);
    if (wanted(s) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

it('checkout in the sandbox makes Pro; cancel at period end keeps it; the period’s end takes it away', async () => {
  const token = await signTestToken(await platform.ports.documents('identity'), {
    userId: randomUUID(),
    email: 'sandbox@example.com',
  });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const checkout = await fetch(`${platform.url}/api/billing/checkout`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ priceId: 'price_omni_pro_monthly' }),
  });
  expect(checkout.status).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  expect(url).toMatch(new RegExp(`^${platform.url}/billing-sandbox/checkout/`));

  // The hosted page, through the gateway.
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('4242 4242 4242 4242');
  const paid = await fetch(
    url,
    form({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Sandbox Tester' }),
  );
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(`${platform.url}/app?checkout=success`);

  const pro = await until(token, (s) => s.subscribed);
  expect(pro).toMatchObject({ subscribed: true, status: 'active', cancel_at_period_end: false });
  expect(Date.parse(pro.subscription_end!)).toBeGreaterThan(Date.now());

  // A second checkout for Pro is refused now.
  const again = await fetch(`${platform.url}/api/billing/checkout`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ priceId: 'price_omni_pro_annual' }),
  });
  expect(again.status).toBe(409);

  const portal = await fetch(`${platform.url}/api/billing/portal`, { method: 'POST', headers: auth });
  expect(portal.status).toBe(200);
  const portalUrl = ((await portal.json()) as { url: string }).url;
  const portalPage = await (await fetch(portalUrl)).text();
  const sub = /subscriptions\/(sub_[A-Za-z0-9_]+)\//.exec(portalPage)?.[1];
  expect(sub).toBeDefined();
  const cancelled = await fetch(`${portalUrl}/subscriptions/${sub}/cancel-at-period-end`, form({}));
  expect(cancelled.status).toBe(303);
  const ending = await until(token, (s) => s.cancel_at_period_end);
  expect(ending).toMatchObject({ subscribed: true, status: 'active', cancel_at_period_end: true });

  const advanced = await fetch(`${platform.url}/billing-sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: 'period_end' }),
  });
  expect(advanced.status).toBe(200);
  expect(await until(token, (s) => !s.subscribed)).toMatchObject({ subscribed: false, status: 'canceled' });
});

/** A new user who checked out Pro monthly with 4242…: their token, portal URL and subscription id. */
async function subscribedUser(email: string) {
  const token = await signTestToken(await platform.ports.documents('identity'), {
    userId: randomUUID(),
    email,
  });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const checkout = await fetch(`${platform.url}/api/billing/checkout`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ priceId: 'price_omni_pro_monthly' }),
  });
  const { url } = (await checkout.json()) as { url: string };
  await fetch(url, form({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: email }));
  await until(token, (s) => s.subscribed);
  const portal = await fetch(`${platform.url}/api/billing/portal`, { method: 'POST', headers: auth });
  const portalUrl = ((await portal.json()) as { url: string }).url;
  const sub = /subscriptions\/(sub_[A-Za-z0-9_]+)\//.exec(await (await fetch(portalUrl)).text())?.[1] ?? '';
  return { token, portalUrl, sub };
}

const advance = (body: Record<string, unknown>) =>
  fetch(`${platform.url}/billing-sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

it("advances to one subscription's period end when it is named, not to whichever ends first", async () => {
  const first = await subscribedUser('first-to-end@example.com');
  expect((await advance({ seconds: 86_400 })).status).toBe(200);
  const later = await subscribedUser('ends-a-day-later@example.com');
  await fetch(`${later.portalUrl}/subscriptions/${later.sub}/cancel-at-period-end`, form({}));
  await until(later.token, (s) => s.cancel_at_period_end);

  // The clock page offers each running subscription its own button.
  const clock = await (await fetch(`${platform.url}/billing-sandbox/clock`)).text();
  expect(clock).toContain(`name="subscription" value="${later.sub}"`);

  expect((await advance({ to: 'period_end', subscription: later.sub })).status).toBe(200);
  expect(await until(later.token, (s) => !s.subscribed)).toMatchObject({
    subscribed: false,
    status: 'canceled',
  });
  // The one that ended a day earlier renewed on the way (4242 pays) and is still Pro.
  expect(await subscription(first.token)).toMatchObject({ subscribed: true, status: 'active' });

  const unknown = await advance({ to: 'period_end', subscription: 'sub_nope' });
  expect(unknown.status).toBe(409);
  expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
    'Subscription sub_nope is not running, so it has no period end to advance to.',
  );
}, 60_000);
