// Spec issue 21 §3.2: a renewal that fails must show. The whole embedded path as `npm start` runs it:
// checkout through the gateway with Stripe's 4000 0000 0000 0341 (it attaches, then fails every later
// charge) → the sandbox clock passes the period end → the renewal charge fails → the sandbox's signed
// invoice.payment_failed and customer.subscription.updated (past_due) reach billing through the gateway's
// webhook → GET /api/billing/subscription says past_due (still Pro: Stripe is retrying), and
// `subscription.updated` carries what a failed-payment mail needs. Stripe's retries (3 and 5 days later)
// fail too, and the subscription ends.
import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ services: 'gateway,identity,billing', env: { PAYMENTS: 'embedded' } });
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

const advance = (body: object) =>
  fetch(`${platform.url}/billing-sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const DAY = 86_400;

interface Announced {
  accountId: string;
  product: string;
  status: string;
  previousStatus?: string | null;
  subscribed: boolean;
  currentPeriodEnd: string | null;
  lastPayment?: { outcome: string; at: string; nextAttemptAt: string | null };
  version: number;
}

it('4000 0000 0000 0341: checkout succeeds, the renewal fails → past_due through the webhook and announced for the mail; Stripe’s retries fail too, then it ends', async () => {
  const userId = randomUUID();
  const token = await signTestToken(await platform.ports.documents('identity'), {
    userId,
    email: 'renewal-fails@example.com',
  });
  // What a consumer (identity's failed-payment mail) reads from the bus.
  const seen: Announced[] = [];
  const bus = await platform.ports.events();
  const consumer = await bus.subscribe({
    groupId: `past-due-test-${randomUUID()}`,
    topics: ['subscription.updated'],
    handler: async (message) => {
      const envelope = JSON.parse(message.value) as { data: Announced };
      if (envelope.data.accountId === userId) seen.push(envelope.data);
    },
  });
  try {
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const checkout = await fetch(`${platform.url}/api/billing/checkout`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ priceId: 'price_omni_pro_monthly' }),
    });
    expect(checkout.status).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    // The card attaches and the first charge goes through, as with Stripe's card.
    const paid = await fetch(
      url,
      form({ number: '4000 0000 0000 0341', expiry: '12 / 34', cvc: '123', name: 'Sandbox Tester' }),
    );
    expect(paid.status).toBe(303);
    const pro = await until(token, (s) => s.subscribed);
    expect(pro).toMatchObject({ subscribed: true, status: 'active' });
    const firstEnd = Date.parse(pro.subscription_end!);

    // Past the period end: the renewal charge fails; Pro stays on while the provider retries.
    const renewal = await advance({ to: 'period_end' });
    expect(renewal.status).toBe(200);
    expect(((await renewal.json()) as { now: number }).now * 1000).toBeGreaterThanOrEqual(firstEnd);
    const pastDue = await until(token, (s) => s.status === 'past_due');
    expect(pastDue).toMatchObject({ subscribed: true, status: 'past_due', cancel_at_period_end: false });
    expect(Date.parse(pastDue.subscription_end!)).toBeGreaterThan(firstEnd);

    // billing recorded both of the sandbox's events, as it would Stripe's.
    const audit = await (await platform.ports.documents('billing'))
      .collection<{ _id: string; type: string; outcome: string; accountId: string }>('webhook_events')
      .find({ accountId: userId });
    expect(audit.filter((e) => e.type === 'invoice.payment_failed').map((e) => e.outcome)).toEqual([
      'applied',
    ]);
    expect(audit.filter((e) => e.type === 'customer.subscription.updated').length).toBe(1);

    // The announcement a failed-payment mail is written from: who, what happened, until when.
    const deadline = Date.now() + 5000;
    while (!seen.some((e) => e.status === 'past_due') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const announced = seen.find((e) => e.status === 'past_due');
    expect(announced).toEqual(
      expect.objectContaining({
        accountId: userId,
        product: 'pro',
        status: 'past_due',
        previousStatus: 'active',
        subscribed: true,
        currentPeriodEnd: pastDue.subscription_end,
        lastPayment: {
          outcome: 'failed',
          // The renewal ran at the period end (the sandbox clock keeps ticking in real time, so the clock
          // read after the advance may already be a second later).
          at: new Date(firstEnd).toISOString(),
          nextAttemptAt: new Date(firstEnd + 3 * DAY * 1000).toISOString(),
        },
      }),
    );
    expect(seen.map((e) => e.status)).toEqual(['active', 'past_due']);

    // Stripe's retries: 3 days later it fails again (still past_due, Pro still on) …
    expect((await advance({ seconds: 3 * DAY })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(await subscription(token)).toMatchObject({ subscribed: true, status: 'past_due' });
    // … and 5 days after that the last one fails: the subscription ends and Pro with it.
    expect((await advance({ seconds: 5 * DAY })).status).toBe(200);
    expect(await until(token, (s) => !s.subscribed)).toMatchObject({
      subscribed: false,
      status: 'canceled',
    });
    const failures = await (await platform.ports.documents('billing'))
      .collection<{ _id: string; type: string }>('webhook_events')
      .count({ accountId: userId, type: 'invoice.payment_failed' });
    expect(failures).toBe(3);
  } finally {
    await consumer.close();
  }
});

it('past_due → Update card in the portal with a good card pays the open invoice at once: active again', async () => {
  const token = await signTestToken(await platform.ports.documents('identity'), {
    userId: randomUUID(),
    email: 'fixes-card@example.com',
  });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const checkout = await fetch(`${platform.url}/api/billing/checkout`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ priceId: 'price_omni_pro_monthly' }),
  });
  const { url } = (await checkout.json()) as { url: string };
  const card = (number: string) => form({ number, expiry: '12 / 34', cvc: '123', name: 'Sandbox Tester' });
  expect((await fetch(url, card('4000 0000 0000 0341'))).status).toBe(303);
  await until(token, (s) => s.subscribed);
  // The shared clock goes to the first period end of any running subscription: on until this one's.
  let pastDue = await subscription(token);
  for (let i = 0; i < 3 && pastDue.status !== 'past_due'; i += 1) {
    expect((await advance({ to: 'period_end' })).status).toBe(200);
    pastDue = await until(token, (s) => s.status === 'past_due');
  }
  expect(pastDue.status).toBe('past_due');

  // The banner's action: the portal, which says what failed and takes a new card.
  const portal = await fetch(`${platform.url}/api/billing/portal`, { method: 'POST', headers: auth });
  expect(portal.status).toBe(200);
  const portalUrl = ((await portal.json()) as { url: string }).url;
  const page = await (await fetch(portalUrl)).text();
  expect(page).toContain('Your last payment failed');
  expect(page).toContain('Card ending <strong>0341</strong>');

  // A declined card is refused with its reason and changes nothing.
  const declined = await fetch(`${portalUrl}/card`, card('4000 0000 0000 0002'));
  expect(declined.status).toBe(402);
  expect(await declined.text()).toContain('Your card was declined.');
  expect((await subscription(token)).status).toBe('past_due');

  const fixed = await fetch(`${portalUrl}/card`, card('4242 4242 4242 4242'));
  expect(fixed.status).toBe(303);
  const active = await until(token, (s) => s.status === 'active');
  expect(active).toMatchObject({
    subscribed: true,
    status: 'active',
    subscription_end: pastDue.subscription_end,
  });
  const after = await (await fetch(portalUrl)).text();
  expect(after).toContain('Card ending <strong>4242</strong>');
  expect(after).not.toContain('Your last payment failed');
});
