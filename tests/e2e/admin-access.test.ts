// OMNI CMS is for administrators: the screens refuse visitors and artists, as the admin API does.
import { browserSuite } from '../support/browser-suite';
import { type ApiSession, storeSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const suite = browserSuite('admin-access', { env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD } });

async function login(email: string, password: string): Promise<ApiSession> {
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ApiSession;
}

it('sends a signed-out visitor from /admin/moderation to /login', async () => {
  const page = await suite.newPage();
  await page.goto(`${suite.url}/admin/moderation`);
  await page.waitForURL(`${suite.url}/login`);
});

it('tells a signed-in artist the CMS needs an administrator account', async () => {
  const email = `artist-${Date.now()}@example.com`;
  const signup = await fetch(`${suite.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret-123' }),
  });
  expect(signup.status).toBe(201);
  const mail = (await (
    await fetch(`${suite.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`)
  ).json()) as {
    messages: { links: string[] }[];
  };
  const token = new URL(mail.messages[0]!.links[0]!).searchParams.get('verify');
  const verified = await fetch(`${suite.url}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const page = await suite.newPage();
  await storeSession(page, suite.url, (await verified.json()) as ApiSession);
  await page.goto(`${suite.url}/admin/uploads`);
  await page.getByRole('heading', { name: 'Administrators only' }).waitFor();
  expect(await page.getByText('OMNI CMS', { exact: true }).count()).toBe(0);
});

it('shows the CMS to the seeded admin', async () => {
  const page = await suite.newPage();
  await storeSession(page, suite.url, await login('admin@omni.local', ADMIN_PASSWORD));
  await page.goto(`${suite.url}/admin/moderation`);
  await page.getByText('OMNI CMS', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'Moderation Queue' }).waitFor();
});
