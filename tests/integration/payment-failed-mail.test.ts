// Issue 21 §3.2/§3.4: a failed renewal mails the account, once, through the whole embedded path: checkout
// in the sandbox with 4000 0000 0000 0341 → the sandbox clock passes the period end → the renewal fails →
// billing announces past_due on the bus → identity mails the account's address (dev mailbox), linking to
// /app and saying when the payment is tried again.
import { startTestPlatform, type TestPlatform } from '../support/platform';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ services: 'gateway,identity,billing', env: { PAYMENTS: 'embedded' } });
});
afterAll(() => platform?.close());

interface Mail {
  subject: string;
  text: string;
  links: string[];
}

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${platform.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
const mailsTo = async (email: string) =>
  (
    (await (await fetch(`${platform.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as {
      messages: Mail[];
    }
  ).messages;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('mails "Your Pro payment failed" once when the renewal with 4000 0000 0000 0341 fails', async () => {
  const email = `renewal-${Date.now()}@example.com`;
  expect((await post('/api/auth/signup', { email, password: 'secret-pass' })).status).toBe(201);
  const verify = new URL((await mailsTo(email))[0]!.links[0]!).searchParams.get('verify');
  const session = (await (await post('/api/auth/verify', { token: verify })).json()) as {
    accessToken: string;
  };

  const checkout = await post(
    '/api/billing/checkout',
    { priceId: 'price_omni_pro_monthly' },
    session.accessToken,
  );
  expect(checkout.status).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const paid = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      number: '4000 0000 0000 0341',
      expiry: '12 / 34',
      cvc: '123',
      name: 'Tester',
    }),
  });
  expect(paid.status).toBe(303);
  await waitFor('Pro to be active', async () => {
    const res = await fetch(`${platform.url}/api/billing/subscription`, {
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    return ((await res.json()) as { status: string }).status === 'active' ? true : undefined;
  });

  const advanced = await post('/billing-sandbox/clock/advance', { to: 'period_end' });
  expect(advanced.status).toBe(200);
  const mail = await waitFor('the failed-payment mail', async () =>
    (await mailsTo(email)).find((m) => m.subject === 'Your Pro payment failed'),
  );
  expect(mail.links[0]).toBe(`${platform.config.publicUrl}/app`);
  expect(mail.text).toMatch(
    /We will try again on \d{1,2} \w+ \d{4}; until then your subscription stays active\./,
  );
  // Later events of the same past_due subscription (none change its status) mail nothing more.
  await new Promise((r) => setTimeout(r, 1000));
  expect((await mailsTo(email)).filter((m) => m.subject === 'Your Pro payment failed')).toHaveLength(1);
});
