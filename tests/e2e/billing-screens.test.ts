// The billing screens in a real browser on a real platform, in the states the billing service cannot be
// made to answer on demand: a checkout without an address, an annual price that fails, a pop-up refused,
// a frame, a check slower than the spec's 6 s, a portal that fails, the Finder's error texts. Those
// answers are given at the browser's network layer (page.route); everything else is the real platform,
// and tests/e2e/billing.test.ts walks the real checkout, portal and clock end to end.
import { BILLING_MESSAGES } from '@omni/proto/api';
import type { Page, Route } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('billing-screens', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let session: ApiSession;
let page: Page;

const PRICES = {
  pro_monthly: 'price_test_monthly',
  pro_annual: 'price_test_annual',
  finder: 'price_test_finder',
};
const PLANS = {
  plans: [
    {
      key: 'pro_monthly',
      product: 'pro',
      interval: 'month',
      amount: 1299,
      currency: 'usd',
      priceId: PRICES.pro_monthly,
    },
    {
      key: 'pro_annual',
      product: 'pro',
      interval: 'year',
      amount: 9900,
      currency: 'usd',
      priceId: PRICES.pro_annual,
    },
    {
      key: 'finder_monthly',
      product: 'finder',
      interval: 'month',
      amount: 9900,
      currency: 'usd',
      priceId: PRICES.finder,
    },
  ],
};
const FREE = { subscribed: false, subscription_end: null, status: 'none', cancel_at_period_end: false };
const ACTIVE = {
  subscribed: true,
  subscription_end: '2026-12-24T12:00:00Z',
  status: 'active',
  cancel_at_period_end: false,
};

/** Where a stubbed checkout "goes": a real page of the platform, so the tab has something to show. */
const checkoutTarget = () => `${suite.url}/support?checkout=test`;

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
const refusal = (code: string, message: string) => ({ error: { code, message } });
const priceOf = (route: Route) => (route.request().postDataJSON() as { priceId: string }).priceId;

beforeAll(async () => {
  session = await verifiedSession(suite.url, `billing-screens-${Date.now()}@example.com`);
});

beforeEach(async () => {
  page = await suite.newPage();
});

afterEach(async () => {
  await suite
    .shot(page, `last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`)
    .catch(() => {});
  await page?.context().close();
});

async function signedInAt(path: string) {
  await storeSession(page, suite.url, session);
  await page.route('**/api/billing/plans', (route) => json(route, 200, PLANS));
  await page.goto(`${suite.url}${path}`);
  await waitForLivePage(page);
}

describe('/pricing: Get Pro', () => {
  it('signed out: the spec toast, then /signup, and no checkout is asked for', async () => {
    let asked = 0;
    await page.route('**/api/billing/**', (route) => {
      asked++;
      return route.continue();
    });
    await page.goto(`${suite.url}/pricing`);
    await waitForLivePage(page);
    await page.getByRole('button', { name: 'Get Pro' }).click();
    await suite.toast(page, BILLING_MESSAGES.authRequired, BILLING_MESSAGES.authRequiredDetail);
    await page.waitForURL(`${suite.url}/signup`);
    expect(asked).toBe(0);
  });

  it('a session the server refuses counts as signed out: the spec toast, then /signup', async () => {
    await signedInAt('/pricing');
    await page.route('**/api/billing/checkout', (route) =>
      json(route, 401, refusal('unauthenticated', 'Sign in to continue.')),
    );
    await page.getByRole('button', { name: 'Get Pro' }).click();
    await suite.toast(page, BILLING_MESSAGES.authRequired, BILLING_MESSAGES.authRequiredDetail);
    await page.waitForURL(`${suite.url}/signup`);
  });

  it("shows 'Loading...' while checkout is created, then points the tab opened during the click at it", async () => {
    await signedInAt('/pricing');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const asked: string[] = [];
    await page.route('**/api/billing/checkout', async (route) => {
      asked.push(priceOf(route));
      await held;
      await json(route, 200, { url: checkoutTarget() });
    });
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Get Pro' }).click();
    // The tab exists before the answer: it was opened inside the click, so no pop-up blocker stops it.
    const tab = await popup;
    const loading = page.getByRole('button', { name: 'Loading...' });
    await loading.waitFor();
    expect(await loading.isDisabled()).toBe(true);
    await suite.shot(page, 'pricing-loading');
    release();
    await tab.waitForURL(checkoutTarget());
    await page.getByRole('button', { name: 'Get Pro' }).waitFor();
    expect(asked).toEqual([PRICES.pro_monthly]);
    expect(page.url()).toBe(`${suite.url}/pricing`);
  });

  it('annual: a failed annual checkout is retried with the monthly price', async () => {
    await signedInAt('/pricing');
    const asked: string[] = [];
    await page.route('**/api/billing/checkout', (route) => {
      asked.push(priceOf(route));
      return priceOf(route) === PRICES.pro_annual
        ? json(route, 500, refusal('internal', 'Something went wrong.'))
        : json(route, 200, { url: checkoutTarget() });
    });
    await page.getByRole('switch', { name: 'Bill annually' }).click();
    await page.getByText('Save $56').waitFor();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Get Pro' }).click();
    await (await popup).waitForURL(checkoutTarget());
    expect(asked).toEqual([PRICES.pro_annual, PRICES.pro_monthly]);
  });

  it("annual: an answer without an address is retried monthly; none at all says 'No checkout URL returned' and closes the tab", async () => {
    await signedInAt('/pricing');
    const asked: string[] = [];
    await page.route('**/api/billing/checkout', (route) => {
      asked.push(priceOf(route));
      return json(route, 200, {});
    });
    await page.getByRole('switch', { name: 'Bill annually' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Get Pro' }).click();
    const tab = await popup;
    await suite.toast(page, 'Error', BILLING_MESSAGES.noCheckoutUrl);
    await tab.waitForEvent('close', { timeout: 5_000 }).catch(() => undefined);
    expect(tab.isClosed()).toBe(true);
    expect(asked).toEqual([PRICES.pro_annual, PRICES.pro_monthly]);
    await suite.shot(page, 'pricing-no-url');
  });

  it('a refusal shows the server’s own message and is not retried (already subscribed)', async () => {
    await signedInAt('/pricing');
    const asked: string[] = [];
    const message = BILLING_MESSAGES.alreadySubscribed('Pro');
    await page.route('**/api/billing/checkout', (route) => {
      asked.push(priceOf(route));
      return json(route, 409, refusal('already_subscribed', message));
    });
    await page.getByRole('switch', { name: 'Bill annually' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Get Pro' }).click();
    const tab = await popup;
    await suite.toast(page, 'Error', message);
    await tab.waitForEvent('close', { timeout: 5_000 }).catch(() => undefined);
    expect(tab.isClosed()).toBe(true);
    expect(asked).toEqual([PRICES.pro_annual]);
  });

  it("a failure without a message of its own says 'Failed to create checkout session. Please try again.'", async () => {
    await signedInAt('/pricing');
    await page.route('**/api/billing/checkout', (route) => route.fulfill({ status: 502, body: '' }));
    await page.getByRole('button', { name: 'Get Pro' }).click();
    await suite.toast(page, 'Error', BILLING_MESSAGES.checkoutFailed);
  });

  it('when the browser refuses a new tab, checkout opens in this one', async () => {
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await signedInAt('/pricing');
    await page.route('**/api/billing/checkout', (route) => json(route, 200, { url: checkoutTarget() }));
    await page.getByRole('button', { name: 'Get Pro' }).click();
    await page.waitForURL(checkoutTarget());
  });

  it("inside a frame: 'Open secure checkout' with the 'Open Secure Checkout' link", async () => {
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/plans', (route) => json(route, 200, PLANS));
    await page.route('**/api/billing/checkout', (route) => json(route, 200, { url: checkoutTarget() }));
    // A page of the same site that frames the pricing page (a preview pane would).
    await page.goto(`${suite.url}/no-such-page`);
    await page.evaluate((src) => {
      document.body.innerHTML = `<iframe title="pricing" src="${src}" style="width:1200px;height:850px"></iframe>`;
    }, `${suite.url}/pricing`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#omni-prerender').waitFor({ state: 'detached' });
    let popups = 0;
    page.on('popup', () => popups++);
    await frame.getByRole('button', { name: 'Get Pro' }).click();
    await frame.getByText(BILLING_MESSAGES.openInNewTab, { exact: true }).waitFor();
    await frame.getByText(BILLING_MESSAGES.openInNewTabDetail).waitFor();
    const link = frame.getByRole('link', { name: 'Open Secure Checkout' });
    expect(await link.getAttribute('href')).toBe(checkoutTarget());
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(popups).toBe(0);
    await suite.shot(page, 'pricing-in-frame');
  });
});

describe('/app: the subscription', () => {
  it("a free account sees 'Upgrade to Pro' and no Pro badge (the real platform's answer)", async () => {
    await storeSession(page, suite.url, session);
    await page.goto(`${suite.url}/app`);
    await page.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    expect(await page.getByTestId('pro-badge').count()).toBe(0);
    expect(await page.getByText('Pro Subscription Active').count()).toBe(0);
    await page.getByRole('link', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(`${suite.url}/pricing`);
  });

  it('stops waiting for the check after 6 s and shows the free plan', async () => {
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/subscription', () => undefined); // never answered
    const started = Date.now();
    await page.goto(`${suite.url}/app`);
    await page.getByText('Checking your plan…').waitFor();
    await page.getByRole('link', { name: 'Upgrade to Pro' }).waitFor({ timeout: 12_000 });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(5_500);
    expect(waited).toBeLessThan(10_000);
  });

  it("a subscriber: the Pro badge, 'Pro Subscription Active', the renewal date; 'Manage Subscription' opens the portal in a new tab", async () => {
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/subscription', (route) => json(route, 200, ACTIVE));
    await page.route('**/api/billing/portal', (route) =>
      json(route, 200, { url: `${suite.url}/support?portal=test` }),
    );
    await page.goto(`${suite.url}/app`);
    await page.getByText('Pro Subscription Active').waitFor();
    await page.getByTestId('pro-badge').waitFor();
    await page.getByText('Renews on Dec 24, 2026.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await suite.shot(page, 'app-pro');
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Manage Subscription' }).click();
    await (await popup).waitForURL(`${suite.url}/support?portal=test`);
  });

  it('back from checkout (?checkout=success) it asks again until the webhook has made the account Pro', async () => {
    await storeSession(page, suite.url, session);
    let asked = 0;
    // The first answers come before the provider's webhook has landed.
    await page.route('**/api/billing/subscription', (route) => {
      asked++;
      return json(route, 200, asked < 3 ? FREE : ACTIVE);
    });
    await page.goto(`${suite.url}/app?checkout=success`);
    await page.getByText('Pro Subscription Active').waitFor({ timeout: 15_000 });
    await page.getByTestId('pro-badge').waitFor();
    expect(asked).toBe(3);
  });

  it('without ?checkout=success a free answer stands (no polling)', async () => {
    await storeSession(page, suite.url, session);
    let asked = 0;
    await page.route('**/api/billing/subscription', (route) => {
      asked++;
      return json(route, 200, asked < 3 ? FREE : ACTIVE);
    });
    await page.goto(`${suite.url}/app`);
    await page.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    await page.waitForTimeout(4_000);
    expect(asked).toBe(1);
    expect(await page.getByText('Pro Subscription Active').count()).toBe(0);
  });

  it('cancelled at period end: still Pro, and says until when', async () => {
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/subscription', (route) =>
      json(route, 200, { ...ACTIVE, cancel_at_period_end: true }),
    );
    await page.goto(`${suite.url}/app`);
    await page.getByText('Pro Subscription Active').waitFor();
    await page.getByText('Pro stays on until Dec 24, 2026').waitFor();
    await page.getByTestId('pro-badge').waitFor();
  });

  it('past due: still Pro, a banner asking to update the card, and a card that says neither Active nor Renews', async () => {
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/subscription', (route) =>
      json(route, 200, { ...ACTIVE, status: 'past_due' }),
    );
    await page.goto(`${suite.url}/app`);
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'Your last payment failed — update your card to keep Pro' });
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Update card' }).waitFor();
    await page.getByText('Pro Subscription Payment Failed').waitFor();
    expect(await page.getByText('Pro Subscription Active').count()).toBe(0);
    expect(await page.getByText(/Renews on/).count()).toBe(0);
    await page.getByTestId('pro-badge').waitFor();
    await suite.shot(page, 'app-past-due');
  });

  it("a portal that fails says 'Failed to open subscription management. Please try again.' and closes its tab", async () => {
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/subscription', (route) => json(route, 200, ACTIVE));
    await page.route('**/api/billing/portal', (route) => json(route, 503, refusal('unavailable', 'down')));
    await page.goto(`${suite.url}/app`);
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Manage Subscription' }).click();
    const tab = await popup;
    await suite.toast(page, 'Error', BILLING_MESSAGES.portalFailed);
    await tab.waitForEvent('close', { timeout: 5_000 }).catch(() => undefined);
    expect(tab.isClosed()).toBe(true);
  });
});

describe('/missing-money-finder', () => {
  it('signed out goes to /login', async () => {
    await page.goto(`${suite.url}/missing-money-finder`);
    await page.waitForURL(`${suite.url}/login`);
  });

  it("a free account: the $99/month card with its four bullets and 'Subscribe for $99/month'", async () => {
    await page.route('**/api/billing/finder/subscription', (route) => json(route, 200, FREE));
    await signedInAt('/missing-money-finder');
    await page.getByRole('heading', { level: 1, name: 'Missing Money Finder' }).waitFor();
    const card = page.getByTestId('finder-plan');
    await card.getByRole('button', { name: 'Subscribe for $99/month' }).waitFor();
    const included = card.getByTestId('finder-included');
    for (const text of [
      'metadata gaps and missing contributors',
      'value at risk',
      'actionable recommendations',
    ]) {
      await included.getByText(text).waitFor();
    }
    // Registration checks do not run yet: sold as coming, never as included (issue 21 §3.13).
    expect(await included.innerText()).not.toMatch(/SoundExchange|PPL|IMPEL|registration/i);
    await card
      .getByTestId('finder-coming')
      .getByText(/Coming later, not included yet/)
      .waitFor();
    await card
      .getByTestId('finder-coming')
      .getByText(/SoundExchange, PPL and IMPEL registrations/)
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await suite.shot(page, 'finder-free');
  });

  it('asks the Finder check and the general check together; a Pro plan does not unlock the Finder', async () => {
    const asked: string[] = [];
    await page.route('**/api/billing/finder/subscription', (route) => {
      asked.push('finder');
      return json(route, 200, FREE);
    });
    await page.route('**/api/billing/subscription', (route) => {
      asked.push('general');
      return json(route, 200, ACTIVE);
    });
    await signedInAt('/missing-money-finder');
    await page.getByRole('button', { name: 'Subscribe for $99/month' }).waitFor();
    expect(asked.sort()).toEqual(['finder', 'general']);
  });

  it("a subscriber: 'Active subscription - Next billing: {date}'", async () => {
    await page.route('**/api/billing/finder/subscription', (route) =>
      json(route, 200, { ok: true, data: ACTIVE }),
    );
    await signedInAt('/missing-money-finder');
    await page.getByText('Active subscription - Next billing: Dec 24, 2026').waitFor();
    await suite.shot(page, 'finder-subscribed');
  });

  it("a failed check says 'Failed to check subscription status'", async () => {
    await page.route('**/api/billing/finder/subscription', (route) =>
      json(route, 500, refusal('internal', 'x')),
    );
    await signedInAt('/missing-money-finder');
    await suite.toast(page, 'Error', BILLING_MESSAGES.finderCheckFailed);
    await page.getByRole('button', { name: 'Subscribe for $99/month' }).waitFor();
  });

  it('create-finder-checkout with the Finder price; the general create-checkout when the Finder route is missing', async () => {
    await page.route('**/api/billing/finder/subscription', (route) => json(route, 200, FREE));
    const asked: string[] = [];
    await page.route('**/api/billing/finder/checkout', (route) => {
      asked.push(`finder:${priceOf(route)}`);
      return json(route, 404, refusal('not_found', 'No such route.'));
    });
    await page.route('**/api/billing/checkout', (route) => {
      asked.push(`general:${priceOf(route)}`);
      return json(route, 200, { data: { url: checkoutTarget() }, ok: true });
    });
    await signedInAt('/missing-money-finder');
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Subscribe for $99/month' }).click();
    await (await popup).waitForURL(checkoutTarget());
    expect(asked).toEqual([`finder:${PRICES.finder}`, `general:${PRICES.finder}`]);
  });

  it("checkout errors: 'Checkout unavailable' when payments are down, 'Checkout Error' with the server's words or the spec's text", async () => {
    await page.route('**/api/billing/finder/subscription', (route) => json(route, 200, FREE));
    let answer: { status: number; body: unknown } = {
      status: 503,
      body: refusal('unavailable', 'down'),
    };
    await page.route('**/api/billing/finder/checkout', (route) => json(route, answer.status, answer.body));
    await signedInAt('/missing-money-finder');
    const subscribe = page.getByRole('button', { name: 'Subscribe for $99/month' });

    await subscribe.click();
    await suite.toast(page, 'Checkout unavailable', BILLING_MESSAGES.finderCheckoutUnavailable);

    const already = BILLING_MESSAGES.alreadySubscribed('Missing Money Finder');
    answer = { status: 409, body: refusal('already_subscribed', already) };
    await subscribe.click();
    await suite.toast(page, 'Checkout Error', already);

    answer = { status: 500, body: '' };
    await subscribe.click();
    await suite.toast(page, 'Checkout Error', BILLING_MESSAGES.finderCheckoutError);
    // Every failed attempt closed the tab it had opened.
    expect(page.context().pages()).toHaveLength(1);
  });

  it("no price to check out with: 'Checkout unavailable'", async () => {
    await page.route('**/api/billing/finder/subscription', (route) => json(route, 200, FREE));
    await storeSession(page, suite.url, session);
    await page.route('**/api/billing/plans', (route) => json(route, 503, refusal('unavailable', 'down')));
    await page.goto(`${suite.url}/missing-money-finder`);
    await page.getByRole('button', { name: 'Subscribe for $99/month' }).click();
    await suite.toast(page, 'Checkout unavailable', BILLING_MESSAGES.finderCheckoutUnavailable);
  });
});
