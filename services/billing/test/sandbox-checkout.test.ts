// The sandbox's hosted checkout through its pages (HTTP form posts, as a browser without script), with
// every webhook event verified by Stripe's constructEvent at a local endpoint: Stripe's test cards, the
// 3-D Secure step, the events' order and shapes (API 2026-10-28), idempotency keys and expiry.
import type Stripe from 'stripe';
import { CARD, openCheckout, pay, postForm, sandboxPerTest } from './support/sandbox-harness';

const sandbox = sandboxPerTest();

const quiet = () => new Promise((r) => setTimeout(r, 300));

it('shows a labelled test checkout: plan, price, interval, email and the test cards', async () => {
  const { session } = await openCheckout(sandbox.running.sandbox);
  expect(session.id).toMatch(/^cs_test_/);
  expect(session.url).toBe(`${sandbox.running.base}/billing-sandbox/checkout/${session.id}`);
  const res = await fetch(session.url);
  const text = await res.text();
  expect(res.status).toBe(200);
  expect(text).toContain('Omni checkout sandbox');
  expect(text).toContain('test environment');
  expect(text).toContain('Omni Pro monthly');
  expect(text).toContain('$12.99');
  expect(text).toContain('per month');
  expect(text).toContain('ada@example.com');
  for (const n of [
    '4242 4242 4242 4242',
    '4000 0000 0000 0002',
    '4000 0000 0000 9995',
    '4000 0025 0000 3155',
    '4000 0000 0000 0341',
  ])
    expect(text).toContain(n);
  expect(text).toContain('href="http://omni.test/pricing?checkout=cancelled"');
  // Billing's CSP allows no inline script and only our own stylesheets: the page needs neither.
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(text).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
  expect(text).toContain('<link rel="stylesheet" href="/billing-sandbox/sandbox.css">');
  const css = await fetch(`${sandbox.running.base}/billing-sandbox/sandbox.css`);
  expect(css.status).toBe(200);
  expect(css.headers.get('content-type')).toMatch(/text\/css/);
});

it('a paid checkout emits checkout.session.completed, customer.subscription.created, invoice.paid in Stripe shapes, then redirects', async () => {
  const { customer, session } = await openCheckout(sandbox.running.sandbox);
  const before = Math.floor(Date.now() / 1000);
  const res = await pay(session.url, '4242 4242 4242 4242');
  expect(res.status).toBe(303);
  expect(res.location).toBe(`http://omni.test/app?checkout=success&session_id=${session.id}`);

  const events = await sandbox.endpoint.waitFor(3);
  expect(events.map((e) => e.type)).toEqual([
    'checkout.session.completed',
    'customer.subscription.created',
    'invoice.paid',
  ]);
  for (const e of events) {
    expect(e).toMatchObject({
      object: 'event',
      api_version: '2026-10-28.endive',
      livemode: false,
      pending_webhooks: 1,
    });
    expect(e.id).toMatch(/^evt_/);
    expect(e.request).toEqual({ id: null, idempotency_key: null });
    expect(e.created).toBeGreaterThanOrEqual(before);
  }
  const completed = events[0]!.data.object as Stripe.Checkout.Session;
  const sub = events[1]!.data.object as Stripe.Subscription;
  const invoice = events[2]!.data.object as Stripe.Invoice;
  expect(completed).toMatchObject({
    id: session.id,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    customer: customer.id,
    client_reference_id: 'acc_1',
    metadata: { account_id: 'acc_1', product: 'pro' },
    subscription: sub.id,
  });
  expect(sub.id).toMatch(/^sub_/);
  expect(sub).toMatchObject({
    object: 'subscription',
    status: 'active',
    customer: customer.id,
    cancel_at_period_end: false,
    metadata: { account_id: 'acc_1', product: 'pro' },
  });
  const item = sub.items.data[0]!;
  expect(item.id).toMatch(/^si_/);
  expect(item.price.id).toBe('price_pro_monthly');
  expect(item.price.recurring?.interval).toBe('month');
  // One calendar month, from the sandbox clock.
  const start = new Date(item.current_period_start * 1000);
  const end = new Date(item.current_period_end * 1000);
  expect(
    end.getUTCFullYear() * 12 + end.getUTCMonth() - (start.getUTCFullYear() * 12 + start.getUTCMonth()),
  ).toBe(1);
  expect(invoice.id).toMatch(/^in_/);
  expect(invoice).toMatchObject({
    object: 'invoice',
    status: 'paid',
    amount_paid: 1299,
    billing_reason: 'subscription_create',
    customer: customer.id,
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
  });
  expect(await sandbox.running.sandbox.subscription(sub.id)).toEqual(sub);

  // The session page now says so, and a second submit (a double click) makes no second subscription.
  const again = await pay(session.url, '4242 4242 4242 4242');
  expect(again.status).toBe(410);
  expect(again.text).toContain('already complete');
  await quiet();
  expect(sandbox.endpoint.events).toHaveLength(3);
});

it('an annual plan runs for one year', async () => {
  const { session } = await openCheckout(sandbox.running.sandbox, 'price_pro_annual');
  await pay(session.url, '4242424242424242');
  const [, created] = await sandbox.endpoint.waitFor(3);
  const item = (created!.data.object as Stripe.Subscription).items.data[0]!;
  expect(new Date(item.current_period_end * 1000).getUTCFullYear()).toBe(
    new Date(item.current_period_start * 1000).getUTCFullYear() + 1,
  );
});

it.each([
  ['4000 0000 0000 0002', 'Your card was declined.'],
  ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
])('card %s is refused with “%s” and nothing is created', async (number, message) => {
  const { session } = await openCheckout(sandbox.running.sandbox);
  const res = await pay(session.url, number);
  expect(res.status).toBe(402);
  expect(res.text).toContain(message);
  expect(res.text).toContain('<form');
  await quiet();
  expect(sandbox.endpoint.attempts).toEqual([]);
  // The session stays open: a good card still pays it.
  expect((await pay(session.url, '4242 4242 4242 4242')).status).toBe(303);
  await sandbox.endpoint.waitFor(3);
});

it('answers a form mistake with 400 and the field to fix', async () => {
  const { session } = await openCheckout(sandbox.running.sandbox);
  const short = await postForm(session.url, { number: '4242', ...CARD });
  expect(short.status).toBe(400);
  expect(short.text).toContain('Your card number is incomplete.');
  const past = await postForm(session.url, { number: '4242424242424242', ...CARD, expiry: '01 / 20' });
  expect(past.status).toBe(400);
  expect(past.text).toContain('expiration date is in the past');
  const nothing = await postForm(session.url, {});
  expect(nothing.status).toBe(400);
  const missing = await fetch(`${sandbox.running.base}/billing-sandbox/checkout/cs_test_nope`);
  expect(missing.status).toBe(404);
});

it('3-D Secure: failing authentication refuses, completing it pays', async () => {
  const { session } = await openCheckout(sandbox.running.sandbox);
  const first = await pay(session.url, '4000 0025 0000 3155');
  expect(first.status).toBe(303);
  expect(first.location).toBe(`/billing-sandbox/checkout/${session.id}/authenticate`);
  const step = await (await fetch(`${sandbox.running.base}${first.location}`)).text();
  expect(step).toContain('Complete authentication');
  expect(step).toContain('Fail authentication');

  const failed = await postForm(`${sandbox.running.base}${first.location}`, { result: 'fail' });
  expect(failed.status).toBe(402);
  expect(failed.text).toContain('We are unable to authenticate your payment method.');
  await quiet();
  expect(sandbox.endpoint.attempts).toEqual([]);

  const second = await pay(session.url, '4000002500003155');
  const done = await postForm(`${sandbox.running.base}${second.location}`, { result: 'complete' });
  expect(done.status).toBe(303);
  expect(done.location).toContain(session.id);
  expect((await sandbox.endpoint.waitFor(3)).map((e) => e.type)).toEqual([
    'checkout.session.completed',
    'customer.subscription.created',
    'invoice.paid',
  ]);
});

it('honours idempotency keys like Stripe, and sessions expire after 24 hours', async () => {
  const a = await openCheckout(sandbox.running.sandbox, 'price_pro_monthly', 'same');
  const b = await openCheckout(sandbox.running.sandbox, 'price_pro_monthly', 'same');
  const c = await openCheckout(sandbox.running.sandbox, 'price_pro_monthly', 'other');
  expect(b.customer.id).toBe(a.customer.id);
  expect(b.session.id).toBe(a.session.id);
  expect(c.session.id).not.toBe(a.session.id);

  const moved = await fetch(`${sandbox.running.base}/billing-sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: 24 * 3600 + 1 }),
  });
  expect(moved.status).toBe(200);
  const page = await fetch(a.session.url);
  expect(page.status).toBe(410);
  expect(await page.text()).toContain('expired');
  expect((await pay(a.session.url, '4242424242424242')).status).toBe(410);
});

it('a double click — two submits at once — makes one subscription', async () => {
  const { session } = await openCheckout(sandbox.running.sandbox);
  const answers = await Promise.all([
    pay(session.url, '4242424242424242'),
    pay(session.url, '4242424242424242'),
    pay(session.url, '4242424242424242'),
  ]);
  expect(answers.map((a) => a.status).sort()).toEqual([303, 410, 410]);
  await sandbox.endpoint.waitFor(3);
  await quiet();
  expect(sandbox.endpoint.events.filter((e) => e.type === 'customer.subscription.created')).toHaveLength(1);
});
