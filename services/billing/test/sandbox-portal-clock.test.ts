// After checkout: the portal's actions and the clock, each observed as the webhook events Stripe would
// send (verified with constructEvent at a local endpoint): cancel at period end and resume, switching
// monthly ↔ annual, cancelling now, renewals, a failing card's retries to past_due and then deletion,
// and the end of a period set to cancel.
import type Stripe from 'stripe';
import { openCheckout, pay, postForm, sandboxPerTest } from './support/sandbox-harness';

const sandbox = sandboxPerTest();

const DAY = 86_400;

/** Subscribes with `card` and returns the subscription and its customer once the three events arrived. */
async function subscribe(
  card = '4242424242424242',
  price: 'price_pro_monthly' | 'price_pro_annual' = 'price_pro_monthly',
) {
  const { customer, session } = await openCheckout(sandbox.running.sandbox, price);
  expect((await pay(session.url, card)).status).toBe(303);
  const events = await sandbox.endpoint.waitFor(3);
  return { customer, sub: events[1]!.data.object as Stripe.Subscription };
}

/** The events after the first `from`, once there are `count` of them. */
async function next(from: number, count: number) {
  const events = await sandbox.endpoint.waitFor(from + count);
  return events.slice(from);
}

const advance = (body: object) =>
  fetch(`${sandbox.running.base}/billing-sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const item = (e: Stripe.Event) => (e.data.object as Stripe.Subscription).items.data[0]!;

it('portal: cancel at period end, resume, switch to annual, cancel now — each as Stripe emits it', async () => {
  const { customer, sub } = await subscribe();
  const { url } = await sandbox.running.sandbox.createPortalSession({
    customerId: customer.id,
    returnUrl: 'http://omni.test/app',
  });
  expect(url).toMatch(new RegExp(`^${sandbox.running.base}/billing-sandbox/portal/bps_`));
  const page = await (await fetch(url)).text();
  expect(page).toContain('Omni Pro monthly');
  expect(page).toContain('Cancel at period end');
  expect(page).toContain('href="http://omni.test/app"');
  expect(page).toContain('Return to Omni');
  expect(page).toContain('href="/billing-sandbox/clock"');
  const act = (action: string, fields: Record<string, string> = {}) =>
    postForm(`${url}/subscriptions/${sub.id}/${action}`, fields);

  expect((await act('cancel-at-period-end')).status).toBe(303);
  const [cancelling] = await next(3, 1);
  expect(cancelling!.type).toBe('customer.subscription.updated');
  expect(cancelling!.data.object).toMatchObject({
    id: sub.id,
    status: 'active',
    cancel_at_period_end: true,
    cancel_at: item(cancelling!).current_period_end,
  });
  expect(cancelling!.data.previous_attributes).toMatchObject({
    cancel_at_period_end: false,
    cancel_at: null,
  });
  expect(await fetch(url).then((r) => r.text())).toContain('Resume subscription');

  expect((await act('resume')).status).toBe(303);
  const [resumed] = await next(4, 1);
  expect(resumed!.data.object).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
  expect(resumed!.data.previous_attributes).toMatchObject({ cancel_at_period_end: true });

  expect((await act('switch', { price: 'price_pro_annual' })).status).toBe(303);
  const [switched, paid] = await next(5, 2);
  expect(switched!.type).toBe('customer.subscription.updated');
  expect(item(switched!).price.id).toBe('price_pro_annual');
  const previousItems = (switched!.data.previous_attributes as { items: Stripe.Subscription['items'] }).items;
  expect(previousItems.data[0]!.price.id).toBe('price_pro_monthly');
  expect(paid!.type).toBe('invoice.paid');
  expect(paid!.data.object).toMatchObject({ amount_paid: 9900, billing_reason: 'subscription_update' });

  const refused = await act('switch', { price: 'price_finder_monthly' });
  expect(refused.status).toBe(409);
  expect(refused.text).toContain('Choose a plan of the same product.');

  expect((await act('cancel')).status).toBe(303);
  const [deleted] = await next(7, 1);
  expect(deleted!.type).toBe('customer.subscription.deleted');
  expect(deleted!.data.object).toMatchObject({ id: sub.id, status: 'canceled' });
  expect((await sandbox.running.sandbox.subscription(sub.id)).status).toBe('canceled');
  expect((await act('resume')).status).toBe(409);
});

it('clock: advancing to the period end renews — subscription.updated with the next period, invoice.paid', async () => {
  const { sub } = await subscribe();
  const end = sub.items.data[0]!.current_period_end;
  const res = await advance({ to: 'period_end' });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { now: number }).now).toBeGreaterThanOrEqual(end);
  const [updated, paid] = await next(3, 2);
  expect(updated!.type).toBe('customer.subscription.updated');
  expect(item(updated!).current_period_start).toBe(end);
  expect(item(updated!).current_period_end).toBeGreaterThan(end + 27 * DAY);
  expect(paid!.type).toBe('invoice.paid');
  expect(paid!.data.object).toMatchObject({
    billing_reason: 'subscription_cycle',
    status: 'paid',
    parent: { subscription_details: { subscription: sub.id } },
  });
  const clock = await (await fetch(`${sandbox.running.base}/billing-sandbox/clock`)).text();
  expect(clock).toContain('Advance to the end of the current period');
  expect(clock).toContain('Advance 1 day');
  expect(clock).toContain('Advance 1 month');
});

it('clock: a year in one step renews a monthly subscription twelve times, in order', async () => {
  await subscribe();
  expect((await advance({ seconds: 366 * DAY })).status).toBe(200);
  const renewals = await next(3, 24);
  const ends = renewals
    .filter((e) => e.type === 'customer.subscription.updated')
    .map((e) => item(e).current_period_end);
  expect(ends).toHaveLength(12);
  expect([...ends].sort((a, b) => a - b)).toEqual(ends);
});

it('clock: renewals of 4000 0000 0000 0341 fail — past_due, retries, then deleted', async () => {
  const { sub } = await subscribe('4000 0000 0000 0341');
  await advance({ to: 'period_end' });
  const [failed, pastDue] = await next(3, 2);
  expect(failed!.type).toBe('invoice.payment_failed');
  expect(failed!.data.object).toMatchObject({
    status: 'open',
    attempt_count: 1,
    parent: { subscription_details: { subscription: sub.id } },
  });
  expect((failed!.data.object as Stripe.Invoice).next_payment_attempt).toBeGreaterThan(0);
  expect(pastDue!.type).toBe('customer.subscription.updated');
  expect(pastDue!.data.object).toMatchObject({ status: 'past_due' });
  expect(pastDue!.data.previous_attributes).toMatchObject({ status: 'active' });

  // Still past_due during Stripe's retries.
  await advance({ seconds: 3 * DAY });
  const [retry] = await next(5, 1);
  expect(retry!.data.object).toMatchObject({ attempt_count: 2 });
  expect((await sandbox.running.sandbox.subscription(sub.id)).status).toBe('past_due');

  await advance({ seconds: 5 * DAY });
  const [last, deleted] = await next(6, 2);
  expect(last!.type).toBe('invoice.payment_failed');
  expect(last!.data.object).toMatchObject({ attempt_count: 3, next_payment_attempt: null });
  expect(deleted!.type).toBe('customer.subscription.deleted');
  expect(deleted!.data.object).toMatchObject({
    status: 'canceled',
    cancellation_details: { reason: 'payment_failed' },
  });
});

it('clock: a subscription set to cancel at period end is deleted when the period ends, not before', async () => {
  const { customer, sub } = await subscribe();
  const { url } = await sandbox.running.sandbox.createPortalSession({
    customerId: customer.id,
    returnUrl: 'http://omni.test/app',
  });
  await postForm(`${url}/subscriptions/${sub.id}/cancel-at-period-end`, {});
  await next(3, 1);
  await advance({ seconds: DAY });
  expect((await sandbox.running.sandbox.subscription(sub.id)).status).toBe('active');
  await advance({ to: 'period_end' });
  const [deleted] = await next(4, 1);
  expect(deleted!.type).toBe('customer.subscription.deleted');
  expect(deleted!.data.object).toMatchObject({
    status: 'canceled',
    ended_at: sub.items.data[0]!.current_period_end,
  });
});

it('clock: bad input gets a 400 that says what to send; nothing to end gets a 409', async () => {
  for (const body of [{}, { seconds: -5 }, { seconds: 1.5 }, { seconds: 'x' }, { to: 'tomorrow' }]) {
    const res = await advance(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('{"seconds": n}');
  }
  const none = await advance({ to: 'period_end' });
  expect(none.status).toBe(409);
  expect(((await none.json()) as { error: { message: string } }).error.message).toContain(
    'No subscription is running',
  );
  // The page's own buttons post a form and get the page back.
  const form = await postForm(`${sandbox.running.base}/billing-sandbox/clock/advance`, { seconds: '86400' });
  expect(form.status).toBe(303);
  expect(form.location).toBe('/billing-sandbox/clock');
});
