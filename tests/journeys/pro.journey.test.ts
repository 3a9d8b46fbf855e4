// Going Pro on Omni started as `npm start` starts it, with the embedded checkout sandbox it runs: an artist
// signs in, Get Pro on /pricing opens the sandbox's checkout, paid with the test card 4242…, back on /app
// with the Pro badge (the sandbox's signed webhooks through the gateway make it so), Manage Subscription
// opens the sandbox's portal, cancel at period end: still Pro, until the date /app names. Then another
// artist pays with 4000 0000 0000 0341 (it pays now and fails every later charge); the sandbox clock passes
// the period end, the renewal fails, and /app shows the past-due banner instead of 'Active'.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, waitForLivePage } from '../support/browser';
import { payInSandbox, SANDBOX_CARDS } from '../support/sandbox-checkout';
import { verifiedSession } from '../support/session';
import { call } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { newEmail, PASSWORD, personPage, shot, signIn } from './support/people';

const JOURNEY = 'pro';
const PAST_DUE_BANNER = 'Your last payment failed — update your card to keep Pro';
let omni: Omni;
let browser: Browser;

beforeAll(async () => {
  omni = await startOmni({ name: JOURNEY });
  browser = await launchBrowser();
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
}, 120_000);

/** Reloads `page` until `text` shows: a webhook may land after the page asked. */
async function reloadUntil(page: Page, text: string): Promise<void> {
  await eventually(
    async () => {
      await page.reload();
      return page
        .getByText(text)
        .first()
        .waitFor({ timeout: 5_000 })
        .then(() => true);
    },
    `'${text}' on ${page.url()}`,
    60_000,
  );
}

/** Clicks and returns the tab the click opens. */
async function tabOpenedBy(page: Page, click: () => Promise<void>): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await click();
  return popup;
}

it('checkout in the sandbox → Pro badge on /app → portal → cancel at period end (still Pro)', async () => {
  const started = Date.now();
  const email = newEmail('pro');
  const session = await verifiedSession(omni.url, email, PASSWORD);
  const page = await personPage(browser);
  try {
    await signIn(page, omni.url, email, PASSWORD);
    await page.getByRole('link', { name: 'Upgrade to Pro' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('pro-badge').count()).toBe(0);

    // /pricing → Get Pro → the sandbox's checkout in a new tab, paid with 4242….
    await page.goto(`${omni.url}/pricing`);
    await waitForLivePage(page);
    const checkout = await tabOpenedBy(page, () => page.getByRole('button', { name: 'Get Pro' }).click());
    await checkout.getByRole('button', { name: 'Pay $12.99' }).waitFor({ timeout: 30_000 });
    await shot(checkout, JOURNEY, 'checkout');
    await payInSandbox(checkout, SANDBOX_CARDS.succeeds);

    // Back on /app, Pro once the webhook has landed.
    await checkout.waitForURL(/\/app\?checkout=success/, { timeout: 30_000 });
    const app = checkout;
    await app.getByText('Pro Subscription Active').waitFor({ timeout: 60_000 });
    await app.getByTestId('pro-badge').waitFor();
    await shot(app, JOURNEY, 'pro');
    const subscribed = await call(omni.url, '/api/billing/subscription', session.accessToken);
    expect(await subscribed.json()).toMatchObject({ subscribed: true, cancel_at_period_end: false });

    // Manage Subscription → the portal → cancel at period end.
    const portal = await tabOpenedBy(app, () =>
      app.getByRole('button', { name: 'Manage Subscription' }).click(),
    );
    await portal.waitForURL(/\/billing-sandbox\/portal\//, { timeout: 30_000 });
    await portal.getByRole('button', { name: 'Cancel at period end' }).click();
    await portal.getByRole('button', { name: 'Resume subscription' }).waitFor({ timeout: 30_000 });
    await shot(portal, JOURNEY, 'portal-cancelled');
    await reloadUntil(app, 'Pro stays on until');
    await app.getByText('Pro Subscription Active').waitFor();
    await app.getByTestId('pro-badge').waitFor();
    await shot(app, JOURNEY, 'cancelling');
    const cancelling = await call(omni.url, '/api/billing/subscription', session.accessToken);
    expect(await cancelling.json()).toMatchObject({ subscribed: true, cancel_at_period_end: true });
    process.stdout.write(`pro journey: ${Math.round((Date.now() - started) / 1000)} s\n`);
  } catch (err) {
    await shot(page, JOURNEY, 'failed').catch(() => undefined);
    omni.explain(err);
  } finally {
    await page.context().close();
  }
}, 600_000);

it('a card that fails at renewal: the sandbox clock passes the period end → the past-due banner on /app', async () => {
  const started = Date.now();
  const email = newEmail('renewal-fails');
  await verifiedSession(omni.url, email, PASSWORD);
  const page = await personPage(browser);
  let portal: Page | undefined;
  try {
    await signIn(page, omni.url, email, PASSWORD);
    await page.goto(`${omni.url}/pricing`);
    await waitForLivePage(page);
    const checkout = await tabOpenedBy(page, () => page.getByRole('button', { name: 'Get Pro' }).click());
    await payInSandbox(checkout, '4000 0000 0000 0341');
    await checkout.waitForURL(/\/app\?checkout=success/, { timeout: 30_000 });
    const app = checkout;
    await app.getByText('Pro Subscription Active').waitFor({ timeout: 60_000 });
    expect(await app.getByText(PAST_DUE_BANNER).count()).toBe(0);

    // The sandbox clock, from the portal's link, passes the end of the period: the renewal charge fails.
    // The clock is the whole sandbox's: 'the current period' is the one that ends first, here the first
    // test's subscription (a few seconds earlier). As a person would, click again while this one is active.
    const opened = await tabOpenedBy(app, () =>
      app.getByRole('button', { name: 'Manage Subscription' }).click(),
    );
    portal = opened;
    await opened.waitForURL(/\/billing-sandbox\/portal\//, { timeout: 30_000 });
    await opened.getByRole('link', { name: 'Sandbox clock' }).click();
    await eventually(
      async () => {
        // The click posts a form: read the page it loads, not the one it leaves.
        await Promise.all([
          opened.waitForEvent('load'),
          opened.getByRole('button', { name: 'Advance to the end of the current period' }).click(),
        ]);
        return (await opened.getByRole('cell', { name: 'past_due' }).count()) > 0 ? true : undefined;
      },
      'the sandbox clock to show the subscription past_due',
      60_000,
      1_000,
    );

    await app.bringToFront();
    await reloadUntil(app, PAST_DUE_BANNER);
    await app.getByRole('alert').filter({ hasText: PAST_DUE_BANNER }).waitFor();
    expect(await app.getByText('Pro Subscription Active').count()).toBe(0);
    expect(await app.getByText(/Renews on/).count()).toBe(0);
    await shot(app, JOURNEY, 'past-due');
    process.stdout.write(`pro journey, failed renewal: ${Math.round((Date.now() - started) / 1000)} s\n`);
  } catch (err) {
    await shot(page, JOURNEY, 'past-due-failed').catch(() => undefined);
    if (portal) await shot(portal, JOURNEY, 'past-due-failed-portal').catch(() => undefined);
    omni.explain(err);
  } finally {
    await page.context().close();
  }
}, 600_000);
