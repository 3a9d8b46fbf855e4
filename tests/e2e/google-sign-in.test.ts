// 'Continue with Google' in a real browser, the platform in Keycloak mode against the fake Keycloak
// (tests/support/fake-keycloak.ts), whose authorization endpoint plays Keycloak and Google: the browser
// leaves for it, comes back to the gateway's callback with a code, and lands on the web app with a
// one-time ?handoff= code that the shell spends for the session. No token ever appears in an address.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { artifacts, waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { type FakeKeycloak, keycloakModeEnv, startFakeKeycloak } from '../support/fake-keycloak';

let fake: FakeKeycloak;
beforeAll(async () => {
  fake = await startFakeKeycloak();
});
afterAll(() => fake?.close());
// Registered after the hooks above: the platform starts in Keycloak mode against the fake.
const suite = browserSuite('google', () => ({ env: keycloakModeEnv(fake) }));

/** Every address the page's main frame asked for, redirects included, in order. */
function addressesOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) seen.push(request.url());
  });
  return seen;
}

const toast = (page: Page, title: string) => suite.toast(page, title);

it('signs a new person in with Google and keeps them signed in across a reload', async () => {
  const person = { email: `ada-${Date.now()}@gmail.com`, name: 'Ada Lovelace' };
  fake.nextPerson = person;
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const addresses = addressesOf(page);
    await page.goto(`${suite.url}/login`);
    await waitForLivePage(page);
    await page.getByRole('button', { name: 'Continue with Google' }).click();

    await page.waitForURL(`${suite.url}/app`);
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    await page.getByRole('heading', { name: 'Welcome back, Ada Lovelace!' }).waitFor();
    await page.screenshot({ path: join(artifacts, 'google-signed-in.png') });

    // The trip: Keycloak, our callback, then the app with a one-time code, which leaves the address
    // bar at once (history.replaceState, so no navigation request for /app without it).
    const trip = addresses
      .map((a) => new URL(a))
      .map((u) => `${u.origin === fake.url ? 'keycloak' : 'omni'} ${u.pathname}`);
    expect(trip).toEqual([
      'omni /login',
      'omni /api/auth/google',
      'keycloak /realms/omni/protocol/openid-connect/auth',
      'omni /api/auth/google/callback',
      'omni /app',
    ]);
    const landing = addresses.find((a) => a.includes('handoff='));
    expect(landing).toMatch(new RegExp(`^${suite.url}/app\\?handoff=[A-Za-z0-9_-]+$`));
    expect(addresses.join(' ')).not.toMatch(/access_token|refresh_token|id_token/);
    expect(page.url()).toBe(`${suite.url}/app`);

    // The code was spent: opening that address again signs nobody in.
    const other = await suite.browser.newContext();
    try {
      const replay = await other.newPage();
      await replay.goto(landing ?? '');
      await replay.waitForURL(`${suite.url}/login`);
    } finally {
      await other.close();
    }

    await page.reload();
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await toast(page, 'Signed out successfully');
    await page.waitForURL(`${suite.url}/`);
  } finally {
    await context.close();
  }
}, 60_000);

it('comes back to /login with an explanation when the person cancels at Google', async () => {
  fake.nextPerson = undefined;
  const context = await suite.browser.newContext({ viewport: { width: 375, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${suite.url}/login`);
    await waitForLivePage(page);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await toast(page, 'Google sign-in cancelled');
    // The error leaves the address bar, so a reload does not repeat it.
    await page.waitForURL(`${suite.url}/login`);
    expect(await page.evaluate(() => localStorage.getItem('omni.session'))).toBeNull();
  } finally {
    await context.close();
  }
}, 60_000);
