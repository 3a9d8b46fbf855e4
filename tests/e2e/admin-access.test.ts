// OMNI CMS is for administrators: the screens refuse visitors and artists, as the admin API does.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { type ApiSession, storeSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-tests';
let platform: TestPlatform;
let browser: Browser;

async function login(email: string, password: string): Promise<ApiSession> {
  const res = await fetch(`${platform.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ApiSession;
}

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD } });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

it('sends a signed-out visitor from /admin/moderation to /login', async () => {
  const page = await freshPage();
  await page.goto(`${platform.url}/admin/moderation`);
  await page.waitForURL(`${platform.url}/login`);
});

it('tells a signed-in artist the CMS needs an administrator account', async () => {
  const email = `artist-${Date.now()}@example.com`;
  const signup = await fetch(`${platform.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret-123' }),
  });
  expect(signup.status).toBe(201);
  const mail = (await (
    await fetch(`${platform.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`)
  ).json()) as {
    messages: { links: string[] }[];
  };
  const token = new URL(mail.messages[0]!.links[0]!).searchParams.get('verify');
  const verified = await fetch(`${platform.url}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const page = await freshPage();
  await storeSession(page, platform.url, (await verified.json()) as ApiSession);
  await page.goto(`${platform.url}/admin/uploads`);
  await page.getByRole('heading', { name: 'Administrators only' }).waitFor();
  expect(await page.getByText('OMNI CMS', { exact: true }).count()).toBe(0);
});

it('shows the CMS to the seeded admin', async () => {
  const page = await freshPage();
  await storeSession(page, platform.url, await login('admin@omni.local', ADMIN_PASSWORD));
  await page.goto(`${platform.url}/admin/moderation`);
  await page.getByText('OMNI CMS', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'Moderation Queue' }).waitFor();
});
