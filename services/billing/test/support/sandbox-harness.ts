// Runs the checkout sandbox as billing runs it in embedded mode — its own embedded documents store, its
// router on an HTTP server — with a local webhook endpoint in its place that verifies every event with
// Stripe's own constructEvent (so a wrong signature or body fails the test), and can answer 500 on demand.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createHttpApp, createLogger, errorHandler } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import Stripe from 'stripe';
import { createSandboxPayments, type SandboxPayments } from '../../src/providers/payments/sandbox';

export const SECRET = 'whsec_sandbox_test_secret_0123456789';
export const PRICES = {
  price_pro_monthly: { product: 'pro', interval: 'month', amount: 1299 },
  price_pro_annual: { product: 'pro', interval: 'year', amount: 9900 },
  price_finder_monthly: { product: 'finder', interval: 'month', amount: 9900 },
} as const;

export interface WebhookEndpoint {
  url: string;
  /** Every event that arrived with a valid signature and was answered 200, in arrival order. */
  events: Stripe.Event[];
  /** Every POST, including refused ones: event id and the status answered. */
  attempts: Array<{ id: string; status: number }>;
  /** The next n deliveries are answered 500. */
  failNext(n: number): void;
  /** Resolves when `count` events were accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<Stripe.Event[]>;
  close(): Promise<void>;
}

export async function startEndpoint(): Promise<WebhookEndpoint> {
  const events: Stripe.Event[] = [];
  const attempts: Array<{ id: string; status: number }> = [];
  let failing = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(raw, String(req.headers['stripe-signature']), SECRET);
      } catch (err) {
        attempts.push({ id: 'bad-signature', status: 400 });
        res.writeHead(400).end((err as Error).message);
        return;
      }
      if (failing > 0) {
        failing--;
        attempts.push({ id: event.id, status: 500 });
        res.writeHead(500).end('down');
        return;
      }
      attempts.push({ id: event.id, status: 200 });
      events.push(event);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/billing/webhooks/stripe`,
    events,
    attempts,
    failNext: (n) => {
      failing = n;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > until)
          throw new Error(
            `expected ${count} events, got ${events.length}: ${events.map((e) => e.type).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export interface RunningSandbox {
  sandbox: SandboxPayments;
  base: string;
  /** Stops the sandbox and its store (the data directory stays, for a restart). */
  stop(): Promise<void>;
}

export async function startSandbox(o: {
  dataDir: string;
  endpoint: WebhookEndpoint;
}): Promise<RunningSandbox> {
  const documents = createSqliteDocumentStore({ dataDir: o.dataDir, fsync: false });
  let base = '';
  const sandbox = await createSandboxPayments({
    documents,
    publicUrl: () => base,
    webhookUrl: () => o.endpoint.url,
    webhookSecret: SECRET,
    prices: { ...PRICES },
    logger: createLogger('billing-sandbox-test'),
    retry: { baseMs: 50, maxMs: 200, giveUpAfterMs: 60_000 },
  });
  // Billing's HTTP app as the runtime builds it (helmet's headers and CSP included), the router on it.
  const app = createHttpApp({ logger: createLogger('billing-sandbox-test') });
  app.use(sandbox.router());
  app.use(errorHandler(createLogger('billing-sandbox-test')));
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    sandbox,
    base,
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
      await sandbox.close();
      await documents.close();
    },
  };
}

export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'omni-billing-sandbox-'));

/** Posts a form like a browser without script: urlencoded, redirects not followed. */
export async function postForm(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

export const CARD = { expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace' };

/** A customer and an open checkout session for `price`, as billing makes them. */
export async function openCheckout(
  s: SandboxPayments,
  price: keyof typeof PRICES = 'price_pro_monthly',
  key = 'k1',
) {
  const customer = await s.createCustomer({ accountId: 'acc_1', email: 'ada@example.com' }, `cust-${key}`);
  const session = await s.createCheckoutSession(
    {
      customerId: customer.id,
      priceId: price,
      accountId: 'acc_1',
      product: PRICES[price].product,
      successUrl: 'http://omni.test/app?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://omni.test/pricing?checkout=cancelled',
    },
    `checkout-${key}`,
  );
  return { customer, session };
}

/** Pays a session with a test card through the hosted page. */
export const pay = (url: string, number: string) => postForm(url, { number, ...CARD });

/**
 * A sandbox and its webhook endpoint started fresh for each test of a file (and its data folder removed
 * after): `const sandbox = sandboxPerTest();`, then `sandbox.running` and `sandbox.endpoint` in the tests.
 */
export function sandboxPerTest(): { readonly running: RunningSandbox; readonly endpoint: WebhookEndpoint } {
  let dataDir = '';
  let endpoint: WebhookEndpoint | undefined;
  let running: RunningSandbox | undefined;
  beforeEach(async () => {
    dataDir = tempDir();
    endpoint = await startEndpoint();
    running = await startSandbox({ dataDir, endpoint });
  });
  afterEach(async () => {
    await running?.stop();
    await endpoint?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('The sandbox is started for each test: use it inside a test.');
    return value;
  };
  return {
    get running() {
      return started(running);
    },
    get endpoint() {
      return started(endpoint);
    },
  };
}
