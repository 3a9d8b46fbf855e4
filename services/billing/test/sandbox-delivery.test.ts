// Webhook delivery at least once, as Stripe's: an endpoint that answers 500 (or is down) gets the same
// event again, signed afresh, and a subscription's events still arrive in order; the outgoing queue and
// the sandbox's state survive a restart.
import fs from 'node:fs';
import type Stripe from 'stripe';
import {
  openCheckout,
  pay,
  type RunningSandbox,
  startEndpoint,
  startSandbox,
  tempDir,
  type WebhookEndpoint,
} from './support/sandbox-harness';

let dataDir: string;
let endpoint: WebhookEndpoint;
let running: RunningSandbox | undefined;

beforeEach(async () => {
  dataDir = tempDir();
  endpoint = await startEndpoint();
});
afterEach(async () => {
  await running?.stop();
  await endpoint.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ORDER = ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid'];

it('redelivers an event the endpoint answered 500, then sends the rest in order', async () => {
  running = await startSandbox({ dataDir, endpoint });
  endpoint.failNext(2);
  const { session } = await openCheckout(running.sandbox);
  await pay(session.url, '4242424242424242');
  const events = await endpoint.waitFor(3);
  expect(events.map((e) => e.type)).toEqual(ORDER);
  // The first event was refused twice, then accepted: the same id each time; nothing overtook it.
  expect(endpoint.attempts.map((a) => a.status)).toEqual([500, 500, 200, 200, 200]);
  expect(new Set(endpoint.attempts.slice(0, 3).map((a) => a.id)).size).toBe(1);
  expect(endpoint.attempts[2]!.id).toBe(events[0]!.id);
});

it('keeps its state and its outgoing queue across a restart', async () => {
  running = await startSandbox({ dataDir, endpoint });
  endpoint.failNext(1_000_000);
  const { customer, session } = await openCheckout(running.sandbox, 'price_pro_monthly', 'restart');
  await pay(session.url, '4242424242424242');
  const advanced = await fetch(`${running.base}/billing-sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: 3600 }),
  });
  const { now } = (await advanced.json()) as { now: number };
  // Wait until delivery was tried and refused, so the events sit in the queue when the sandbox stops.
  for (let i = 0; i < 100 && endpoint.attempts.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(endpoint.events).toEqual([]);
  await running.stop();

  endpoint.failNext(0);
  running = await startSandbox({ dataDir, endpoint });
  const events = await endpoint.waitFor(3);
  expect(events.map((e) => e.type)).toEqual(ORDER);
  const sub = events[1]!.data.object as Stripe.Subscription;
  expect(await running.sandbox.subscription(sub.id)).toEqual(sub);
  // Same key after the restart: the same customer and session, as Stripe's keys last 24 hours.
  const again = await openCheckout(running.sandbox, 'price_pro_monthly', 'restart');
  expect(again.customer.id).toBe(customer.id);
  expect(again.session.id).toBe(session.id);
  // The clock does not rewind.
  const clock = (await (await fetch(`${running.base}/billing-sandbox/clock/now`)).json()) as { now: number };
  expect(clock.now).toBeGreaterThanOrEqual(now);
  expect((await fetch(again.session.url)).status).toBe(410);
});
