// Issue 21 §4.6: the embedded checkout sandbox (its checkout and portal pages, its clock and its JSON API)
// subscribes anyone without paying and can end every sandbox subscription, so under `npm start` (bound to
// every interface) it answers only callers on this machine: the dev mailbox's rule (the platform kit's
// onlyThisMachine), at the gateway and, for billing started alone, at billing's own HTTP port.
//
// A genuinely remote caller, as tests/integration/dev-mailbox.test.ts does it: the platform listens on
// 0.0.0.0 and the test connects to this machine's own non-loopback address from that address, so the
// server's socket sees a non-loopback peer exactly as it would for another host; no header or mock decides.
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { BILLING_MESSAGES } from '@omni/proto/api';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
if (!external)
  console.log(
    '[billing-sandbox] remote-caller case: SKIPPED — this machine has no non-loopback IPv4 interface',
  );

function call(
  base: string,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const port = Number(new URL(base).port);
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, path, method: options.method ?? 'GET', headers: options.headers, localAddress: host },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const advance = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ seconds: 86_400 }),
};
/** Every kind of thing under /billing-sandbox: a page, the clock's page and JSON, a form post. */
const SANDBOX_CALLS: [string, Parameters<typeof call>[3]][] = [
  ['/billing-sandbox/clock', {}],
  ['/billing-sandbox/clock/now', {}],
  ['/billing-sandbox/clock/advance', advance],
  ['/billing-sandbox/checkout/cs_test_anything', {}],
  ['/billing-sandbox/portal/bps_anything/subscriptions/sub_x/cancel', { method: 'POST' }],
  ['/billing-sandbox/sandbox.css', {}],
];

async function clockNow(base: string): Promise<number> {
  const res = await call(base, '127.0.0.1', '/billing-sandbox/clock/now');
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as { now: number }).now;
}

async function expectRefusedFromElsewhere(base: string) {
  const before = await clockNow(base);
  const headerSets: Record<string, string>[] = [{}, { 'x-forwarded-for': '127.0.0.1' }];
  for (const headers of headerSets) {
    for (const [path, options] of SANDBOX_CALLS) {
      const res = await call(base, external!, path, {
        ...options,
        headers: { ...options?.headers, ...headers },
      });
      expect({ path, headers, status: res.status }).toEqual({ path, headers, status: 403 });
      expect(JSON.parse(res.body).error.message).toBe(BILLING_MESSAGES.sandboxLocalOnly);
    }
  }
  // The refused advance did not move the clock (a day would show; a few real seconds may pass).
  expect((await clockNow(base)) - before).toBeLessThan(60);
}

describe('through the gateway, on npm start (bound to every interface)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      services: 'gateway,identity,billing',
      env: { BIND_HOST: '0.0.0.0', PAYMENTS: 'embedded' },
    });
  });
  afterAll(() => platform?.close());

  it('answers callers on this machine', async () => {
    const page = await call(platform.url, '127.0.0.1', '/billing-sandbox/clock');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Sandbox clock');
    const moved = await call(platform.url, '127.0.0.1', '/billing-sandbox/clock/advance', advance);
    expect(moved.status).toBe(200);
  });

  it('refuses a remote caller forwarded by a proxy on this machine', async () => {
    for (const [path, options] of SANDBOX_CALLS) {
      const res = await call(platform.url, '127.0.0.1', path, {
        ...options,
        headers: { ...options?.headers, 'x-forwarded-for': '203.0.113.9' },
      });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
  });

  (external ? it : it.skip)(
    `refuses a caller from another address (${external ?? 'none here'}), whatever its headers say`,
    async () => {
      await expectRefusedFromElsewhere(platform.url);
      // The rest of the platform still answers that caller: only the sandbox (and the mailbox) are local.
      expect((await call(platform.url, external!, '/api/billing/plans')).status).toBe(200);
    },
  );
});

describe('billing started alone (its HTTP port bound to every interface)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      services: 'billing',
      env: { BIND_HOST: '0.0.0.0', PAYMENTS: 'embedded' },
    });
  });
  afterAll(() => platform?.close());

  it('answers this machine', async () => {
    expect((await call(platform.url, '127.0.0.1', '/billing-sandbox/clock')).status).toBe(200);
  });

  (external ? it : it.skip)('refuses a caller from another address on its own port too', async () => {
    await expectRefusedFromElsewhere(platform.url);
  });
});
