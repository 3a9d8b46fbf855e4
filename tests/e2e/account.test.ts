// Identity's screens in Chromium against the real platform (issue 21 §3.1, §3.5, §3.11): the reset page
// says at once that a used link is dead; /account changes the name (shown at once in the header and the
// welcome), the mail settings, and deletes the account after saying what happens; the contributor page
// says what its magic link does for someone with no account, and a new address gets in through it.
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { browserSuite } from '../support/browser-suite';
import { cmsApi, createLink } from '../support/cms';
import { storeSession, verifiedSession } from '../support/session';
import { signTestToken } from '../support/tokens';

const suite = browserSuite('account', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
const pages = suite.keepPages();
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;
const PASSWORD = 'correct-horse-42';

/** The newest ?<param>= link mailed to `email`, pointed at this test's server. */
async function mailedLink(email: string, param: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${suite.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const { messages } = (await res.json()) as { messages: { links: string[] }[] };
    const link = messages
      .flatMap((m) => m.links)
      .map((l) => new URL(l))
      .find((u) => u.searchParams.has(param));
    if (link) return `${suite.url}${link.pathname}${link.search}`;
    if (Date.now() > deadline) throw new Error(`No ?${param}= mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const post = (path: string, body: unknown) =>
  fetch(`${suite.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function signedInPage(email: string): Promise<Page> {
  const session = await verifiedSession(suite.url, email, PASSWORD);
  const page = await suite.newPage();
  pages.push(page);
  await storeSession(page, suite.url, session);
  return page;
}

describe('a password-reset link (§3.11)', () => {
  it('says at once that a used link no longer works, and offers a new one', async () => {
    const email = uniqueEmail('reset');
    await verifiedSession(suite.url, email, PASSWORD);
    await post('/api/auth/forgot-password', { email });
    const link = await mailedLink(email, 'reset');

    const page = await suite.newPage();
    pages.push(page);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();

    // Spent elsewhere (another tab, or used once already).
    const token = new URL(link).searchParams.get('reset');
    expect((await post('/api/auth/reset-password', { token, password: 'a-new-password' })).status).toBe(200);

    await page.goto(link);
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await page
      .getByText('This reset link has expired or was already used. Request a new one below.')
      .waitFor();
    // No password fields to fill in vain; the way to a new link is right there.
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await suite.shot(page, 'reset-link-used');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByTestId('reset-requested').waitFor();
  });
});

describe('/account (§3.5)', () => {
  it('shows a new display name at once in the header and the welcome, and keeps mail settings', async () => {
    const page = await signedInPage(uniqueEmail('name'));
    await page.goto(`${suite.url}/app`);
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Artist!' }).waitFor();
    // A new account has no name: the dashboard says where to set one.
    await page.getByRole('link', { name: 'Add your name' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    await page.getByLabel('Display name').fill('Nova Reyes');
    await page.getByRole('button', { name: 'Save name' }).click();
    await suite.toast(page, 'Display name saved');
    // The header on this page reads the same session: no reload, no new sign-in.
    await page.getByTestId('signed-in-as').getByText('Nova Reyes').first().waitFor();

    const releases = page.getByRole('switch', { name: 'Release updates' });
    expect(await releases.getAttribute('aria-checked')).toBe('true');
    await releases.click();
    await suite.toast(page, 'Email settings saved');
    await suite.shot(page, 'settings');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Through the app's navigation (no reload): the welcome has the new name at once.
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Nova Reyes!' }).waitFor();
    expect(await page.getByRole('link', { name: 'Add your name' }).count()).toBe(0);

    await page.goto(`${suite.url}/account`);
    await page.getByRole('switch', { name: 'Billing' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Release updates' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    expect(await page.getByRole('switch', { name: 'Billing' }).getAttribute('aria-checked')).toBe('true');
  });

  it('fits a phone: one column, nothing wider than the screen', async () => {
    const session = await verifiedSession(suite.url, uniqueEmail('phone'), PASSWORD);
    const page = await suite.newPage({ viewport: { width: 375, height: 812 } });
    pages.push(page);
    await storeSession(page, suite.url, session);
    await page.goto(`${suite.url}/account`);
    await page.getByRole('button', { name: 'Delete account…' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await suite.shot(page, 'phone');
    await page.getByRole('button', { name: 'Delete account…' }).click();
    await page.getByRole('dialog').getByTestId('deletion-consequences').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await suite.shot(page, 'phone-delete');
  });

  it('changes the email from the page once the link mailed to the new address is followed', async () => {
    const email = uniqueEmail('old');
    const page = await signedInPage(email);
    await page.goto(`${suite.url}/account`);
    const next = uniqueEmail('new');
    await page.getByLabel('New email').fill(next);
    await page.getByLabel('Current password').first().fill(PASSWORD);
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByTestId('email-change-sent').getByText(`We sent a link to ${next}.`).waitFor();
    // Nothing changed until the link is followed.
    await page.getByText(`You sign in with ${email}`).waitFor();

    await page.goto(await mailedLink(next, 'email-change'));
    await suite.toast(page, `Your email is now ${next}.`);
    await page.getByText(`You sign in with ${next}`).waitFor();
    expect(new URL(page.url()).searchParams.has('email-change')).toBe(false);
    expect((await post('/api/auth/login', { email: next, password: PASSWORD })).status).toBe(200);
  });

  it('deletes the account after saying what happens, once DELETE is typed with the password', async () => {
    const email = uniqueEmail('delete');
    const page = await signedInPage(email);
    await page.goto(`${suite.url}/account`);
    await page.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('deletion-consequences').waitFor();
    await dialog
      .getByText('Your sign-in, profile and email settings are deleted. This cannot be undone.')
      .waitFor();
    await dialog.getByText('You have no releases.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByLabel('Type DELETE to confirm').fill('delete');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await suite.shot(page, 'delete-dialog');
    await confirm.click();
    await suite.toast(page, 'Your account is deleted.');
    await page.waitForURL(`${suite.url}/`);
    expect((await post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
  });
});

describe('the contributor page for someone without an account (§3.1)', () => {
  it('says what the magic link does and that a release needs an account; the link signs a new address in', async () => {
    const api = cmsApi(suite.url);
    const admin = await signTestToken(await suite.platform.ports.documents('identity'), { roles: ['admin'] });
    const { uploadUrl } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const url = new URL(uploadUrl);
    const page = await suite.newPage();
    pages.push(page);
    await page.goto(`${suite.url}${url.pathname}${url.search}`);
    await page
      .getByText("We'll email you a sign-in link; if you have no Omni account, one is created for this email")
      .waitFor();
    await page.getByTestId('release-needs-account').waitFor();
    expect(await page.getByTestId('release-needs-account').innerText()).toContain(
      'A release is submitted from an Omni account',
    );
    await suite.shot(page, 'contributor-signed-out');

    const email = uniqueEmail('outsider');
    await page.getByLabel('Email').first().fill(email);
    await page.getByRole('button', { name: /magic link/i }).click();
    const link = await mailedLink(email, 'magic');
    await page.goto(link);
    await page.getByTestId('uploader-session').getByText(email).waitFor();
    expect(await page.getByTestId('release-needs-account').count()).toBe(0);
  });
});
