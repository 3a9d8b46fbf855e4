// Issue 21 §3.2 in a real browser on the real platform with the embedded checkout sandbox (what `npm start`
// runs): Get Pro paid with Stripe's 4000 0000 0000 0341 (it attaches and pays now, then fails every later
// charge) → the sandbox clock passes the period end → the renewal fails and the sandbox's signed events
// make billing past_due → /app shows the past-due banner and a subscription card that no longer says
// Active or Renews → the banner's "Update card" opens the portal → a good card pays the open invoice →
// back on /app the banner is gone and Pro is active again. No request is mocked.
import type { Page } from 'playwright-core';
import { waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { payInSandbox } from '../support/sandbox-checkout';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('billing-past-due', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
const pages = suite.keepPages();

/** Webhooks land a moment after the browser is sent back. */
const SETTLE_MS = 20_000;
const BANNER = 'Your last payment failed — update your card to keep Pro';

async function tabOpenedBy(page: Page, click: () => Promise<void>): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await click();
  const tab = await popup;
  pages.push(tab);
  return tab;
}

async function subscriptionOf(session: ApiSession) {
  const res = await fetch(`${suite.url}/api/billing/subscription`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
  });
  return (await res.json()) as { subscribed: boolean; status: string };
}

it('a renewal that fails shows the past-due banner on /app; updating the card in the portal clears it', async () => {
  const session = await verifiedSession(suite.url, `past-due-${Date.now()}@example.com`);
  const pricing = await suite.newPage();
  pages.push(pricing);
  await storeSession(pricing, suite.url, session);
  await pricing.goto(`${suite.url}/pricing`);
  await waitForLivePage(pricing);
  const checkout = await tabOpenedBy(pricing, () => pricing.getByRole('button', { name: 'Get Pro' }).click());
  await payInSandbox(checkout, '4000 0000 0000 0341');
  await checkout.waitForURL(/\/app\?checkout=success/);
  const app = checkout;
  await app.getByText('Pro Subscription Active').waitFor({ timeout: SETTLE_MS });
  expect(await app.getByText(BANNER).count()).toBe(0);

  // The sandbox clock passes the period end, as a person does it from the portal's link.
  const portal = await tabOpenedBy(app, () =>
    app.getByRole('button', { name: 'Manage Subscription' }).click(),
  );
  await portal.waitForURL(/\/billing-sandbox\/portal\//);
  const portalUrl = portal.url();
  await portal.getByRole('link', { name: 'Sandbox clock' }).click();
  await portal.getByRole('button', { name: 'Advance to the end of the current period' }).click();
  await portal.getByRole('cell', { name: 'past_due' }).waitFor();
  const deadline = Date.now() + SETTLE_MS;
  while ((await subscriptionOf(session)).status !== 'past_due' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));

  // Back on the /app tab, reloaded as a person would (headless Chromium sends no visibilitychange on a
  // tab switch, so the dashboard's ask-again-on-focus cannot be shown here).
  await app.bringToFront();
  await app.reload();
  const banner = app.getByRole('alert').filter({ hasText: BANNER });
  await banner.waitFor({ timeout: SETTLE_MS });
  await app.getByText('Pro Subscription Payment Failed').waitFor();
  expect(await app.getByText('Pro Subscription Active').count()).toBe(0);
  expect(await app.getByText(/Renews on/).count()).toBe(0);
  await suite.shot(app, 'banner');

  // The banner's action: the portal, where a good card pays the open invoice.
  const fix = await tabOpenedBy(app, () => banner.getByRole('button', { name: 'Update card' }).click());
  await fix.waitForURL(/\/billing-sandbox\/portal\//);
  expect(fix.url().split('/portal/')[0]).toBe(portalUrl.split('/portal/')[0]);
  await fix.getByText('Your last payment failed').waitFor();
  await fix.getByLabel('Card number').fill('4242 4242 4242 4242');
  await fix.getByLabel(/Expiry/).fill('12 / 34');
  await fix.getByLabel('CVC').fill('123');
  await fix.getByLabel('Name on card').fill('Test Artist');
  await fix.getByRole('button', { name: 'Update card' }).click();
  await fix.getByText('Card ending 4242').waitFor();
  await suite.shot(fix, 'portal-card-updated');

  await app.bringToFront();
  await app.reload();
  await app.getByText('Pro Subscription Active').waitFor({ timeout: SETTLE_MS });
  await app.getByText(/Renews on/).waitFor();
  expect(await app.getByText(BANNER).count()).toBe(0);
  expect(await subscriptionOf(session)).toMatchObject({ subscribed: true, status: 'active' });
  await suite.shot(app, 'fixed');
});
