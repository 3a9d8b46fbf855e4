// Subscriptions end to end in a real browser, on the real platform with the embedded checkout sandbox
// (PAYMENTS=embedded, what `npm start` runs): Get Pro → the sandbox's checkout page → paid with a test
// card → back on /app as Pro (the sandbox's signed webhooks, through the gateway, are what make it so) →
// Manage Subscription → cancel at period end (still Pro) → the sandbox clock passes the period end →
// Free again. A declined card leaves the account Free; the Finder subscription goes the same way.
import { BILLING_MESSAGES } from '@omni/proto/api';
import type { Page } from 'playwright-core';
import { waitForLivePage } from '../support/browser';
import { browserSuite, until } from '../support/browser-suite';
import { payInSandbox, SANDBOX_CARDS } from '../support/sandbox-checkout';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('billing', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

/** Webhooks land a moment after the browser is sent back: screens are checked until they show. */
const SETTLE_MS = 20_000;

const pages = suite.keepPages();

/** A verified new artist, signed in, on `path`. */
async function artistOn(path: string, who: string): Promise<{ page: Page; session: ApiSession }> {
  const session = await verifiedSession(suite.url, `${who}-${Date.now()}@example.com`);
  const page = await suite.newPage();
  pages.push(page);
  await storeSession(page, suite.url, session);
  await page.goto(`${suite.url}${path}`);
  await waitForLivePage(page);
  return { page, session };
}

/** Clicks `button` and returns the tab it opens. */
async function tabOpenedBy(page: Page, click: () => Promise<void>): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await click();
  const tab = await popup;
  pages.push(tab);
  return tab;
}

/** Reloads `page` until `text` shows (the webhook may land after the page asked). */
async function reloadUntil(page: Page, text: string) {
  await until(
    async () => {
      await page.reload();
      return page
        .getByText(text)
        .first()
        .waitFor({ timeout: 3_000 })
        .then(() => true)
        .catch(() => false);
    },
    Boolean,
    `'${text}' on ${page.url()}`,
    SETTLE_MS,
  );
}

/** The sandbox clock passes the end of the current period (its page, as a person would use it). */
async function passPeriodEnd(portal: Page) {
  await portal.getByRole('link', { name: 'Sandbox clock' }).click();
  await portal.getByRole('button', { name: 'Advance to the end of the current period' }).click();
  await portal.getByRole('heading', { name: 'Sandbox clock' }).waitFor();
}

async function subscriptionOf(session: ApiSession, product: 'pro' | 'finder') {
  const path = product === 'pro' ? '/api/billing/subscription' : '/api/billing/finder/subscription';
  const res = await fetch(`${suite.url}${path}`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { subscribed: boolean; cancel_at_period_end: boolean; status: string };
}

describe.each([
  { period: 'monthly', price: '$12.99' },
  { period: 'annual', price: '$99' },
])('Pro $period', ({ period, price }) => {
  it('checkout → Pro on /app → cancel at period end (still Pro) → the period ends → Free', async () => {
    const { page: pricing, session } = await artistOn('/pricing', `pro-${period}`);
    if (period === 'annual') {
      await pricing.getByRole('switch', { name: 'Bill annually' }).click();
      await pricing.getByText('Save $56').waitFor();
    }
    const checkout = await tabOpenedBy(pricing, () =>
      pricing.getByRole('button', { name: 'Get Pro' }).click(),
    );
    await checkout.getByRole('button', { name: `Pay ${price}` }).waitFor();
    await suite.shot(checkout, `${period}-checkout`);
    await payInSandbox(checkout, SANDBOX_CARDS.succeeds);

    // The checkout tab comes back to /app?checkout=success, which asks again until the webhook has landed.
    await checkout.waitForURL(/\/app\?checkout=success/);
    const app = checkout;
    await app.getByText('Pro Subscription Active').waitFor({ timeout: SETTLE_MS });
    await app.getByTestId('pro-badge').waitFor();
    await suite.shot(app, `${period}-pro`);
    expect((await subscriptionOf(session, 'pro')).subscribed).toBe(true);

    // A second checkout for Pro is refused with the server's words.
    await pricing.reload();
    await waitForLivePage(pricing);
    const second = await tabOpenedBy(pricing, () => pricing.getByRole('button', { name: 'Get Pro' }).click());
    await suite.toast(pricing, 'Error', BILLING_MESSAGES.alreadySubscribed('Pro'));
    await second.waitForEvent('close', { timeout: 5_000 }).catch(() => undefined);
    expect(second.isClosed()).toBe(true);

    const portal = await tabOpenedBy(app, () =>
      app.getByRole('button', { name: 'Manage Subscription' }).click(),
    );
    await portal.waitForURL(/\/billing-sandbox\/portal\//);
    await portal.getByRole('button', { name: 'Cancel at period end' }).click();
    await portal.getByRole('button', { name: 'Resume subscription' }).waitFor();
    await reloadUntil(app, 'Pro stays on until');
    await app.getByText('Pro Subscription Active').waitFor();
    await app.getByTestId('pro-badge').waitFor();
    await suite.shot(app, `${period}-cancelling`);

    await passPeriodEnd(portal);
    await reloadUntil(app, 'Upgrade to Pro');
    expect(await app.getByTestId('pro-badge').count()).toBe(0);
    expect((await subscriptionOf(session, 'pro')).subscribed).toBe(false);
  });
});

it('a declined card shows the decline on the checkout page and the account stays Free', async () => {
  const { page: pricing, session } = await artistOn('/pricing', 'declined');
  const checkout = await tabOpenedBy(pricing, () => pricing.getByRole('button', { name: 'Get Pro' }).click());
  await payInSandbox(checkout, SANDBOX_CARDS.declined);
  await checkout.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
  await suite.shot(checkout, 'declined');
  expect(checkout.url()).toMatch(/\/billing-sandbox\/checkout\//);
  expect((await subscriptionOf(session, 'pro')).subscribed).toBe(false);
  await pricing.goto(`${suite.url}/app`);
  await pricing.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
  expect(await pricing.getByTestId('pro-badge').count()).toBe(0);
});

it('Finder: subscribe → active with its next billing date → cancel at period end → the period ends → the subscribe card again; Pro stays off', async () => {
  const { page: finder, session } = await artistOn('/missing-money-finder', 'finder');
  const checkout = await tabOpenedBy(finder, () =>
    finder.getByRole('button', { name: 'Subscribe for $99/month' }).click(),
  );
  await checkout.getByRole('button', { name: 'Pay $99' }).waitFor();
  await payInSandbox(checkout, SANDBOX_CARDS.succeeds);
  await checkout.waitForURL(/\/missing-money-finder\?checkout=success/);
  await checkout
    .getByText(/^Active subscription - Next billing: \w{3} \d{1,2}, \d{4}$/)
    .waitFor({ timeout: SETTLE_MS });
  await suite.shot(checkout, 'finder-active');
  expect((await subscriptionOf(session, 'finder')).subscribed).toBe(true);
  // The Finder is its own product: the account is not Pro.
  expect((await subscriptionOf(session, 'pro')).subscribed).toBe(false);

  const portal = await tabOpenedBy(checkout, () =>
    checkout.getByRole('button', { name: 'Manage Subscription' }).click(),
  );
  await portal.waitForURL(/\/billing-sandbox\/portal\//);
  await portal.getByRole('button', { name: 'Cancel at period end' }).click();
  await portal.getByRole('button', { name: 'Resume subscription' }).waitFor();
  await reloadUntil(finder, 'Active subscription - Ends:');

  await passPeriodEnd(portal);
  await reloadUntil(finder, 'Subscribe for $99/month');
  expect((await subscriptionOf(session, 'finder')).subscribed).toBe(false);
});
