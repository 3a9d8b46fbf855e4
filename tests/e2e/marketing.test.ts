// The public site in a real browser, through the real gateway: every marketing route at phone and
// desktop widths (key texts, title, description, no sideways scrolling, axe), and the interactive
// pieces: header and mobile menu, pricing toggle, FAQ, support search, categories and
// ticket, 'Start Free', the countdown bar, the particle canvas, and the not-found page.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { artifacts, waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

const WIDTHS = [375, 1440] as const;

/** Every public route the marketing remote serves, with texts that prove the right page rendered. */
const ROUTES: ReadonlyArray<{ path: string; h1: string | RegExp; texts: string[] }> = [
  {
    path: '/',
    h1: 'From the block to the blockchain',
    texts: ['Core Feature', 'Monetization', 'Global reach', 'Browse by category', 'Start Free', 'Skip Now'],
  },
  { path: '/features', h1: 'Every tool a release needs', texts: ['Distribution engine', 'Book a Demo'] },
  {
    path: '/pricing',
    h1: 'Choose your lane',
    texts: ['$0', '$12.99', 'Minimum payout: $100', '30-day cycle', 'Who owns the music I distribute?'],
  },
  {
    path: '/artists',
    h1: 'Your music, everywhere, on your terms',
    texts: ['Create Account', 'Browse Music'],
  },
  {
    path: '/labels',
    h1: 'One roster, one dashboard',
    texts: ['Sub-labels', 'Roll-up analytics', 'View Pricing'],
  },
  {
    path: '/managers',
    h1: 'Every artist you manage, at a glance',
    texts: ['Permission scoping', 'Explore Features'],
  },
  { path: '/security', h1: 'Your catalog is safe with us', texts: ['Request DPA', '99.95%'] },
  { path: '/support', h1: 'How can we help?', texts: ['Open a ticket', 'All articles'] },
  { path: '/support/account', h1: 'How can we help?', texts: ['Account articles', 'Creating your account'] },
  {
    path: '/support/distribution',
    h1: 'How can we help?',
    texts: ['Distribution articles', '24 to 72 hours'],
  },
  {
    path: '/support/royalties',
    h1: 'How can we help?',
    texts: ['Royalties articles', 'When and how you get paid'],
  },
  {
    path: '/support/compliance',
    h1: 'How can we help?',
    texts: ['Compliance articles', '1 to 2 business days'],
  },
  { path: '/support/billing', h1: 'How can we help?', texts: ['Billing articles', 'Plans and prices'] },
  {
    path: '/company',
    h1: 'From the block to the blockchain',
    texts: ['1997', '2010', '2025', 'Careers', 'Press'],
  },
  { path: '/demo', h1: 'See Omni in action', texts: ['Book a live walkthrough', 'Request a demo'] },
  { path: '/careers', h1: 'Build the home of independent music', texts: ['Send us your CV'] },
  { path: '/press', h1: 'Press and media', texts: ['Fact sheet', '142'] },
  { path: '/contact-sales', h1: 'Contact Sales', texts: ['Number of artists'] },
  {
    path: '/contact-sales?type=dpa',
    h1: 'Request a Data Processing Agreement',
    texts: ['Who signs the DPA (name and title)'],
  },
];

const suite = browserSuite('marketing');
const contexts = new Map<number, BrowserContext>();
const pages = new Map<number, Page>();
const pageErrors: string[] = [];

const pageAt = (width: number) => pages.get(width) as Page;
const url = (path: string) => `${suite.url}${path}`;

beforeAll(async () => {
  if (!existsSync(join(__dirname, '../../frontends/marketing/dist/mf-manifest.json'))) {
    throw new Error('The web app is not built: run `node scripts/build-frontends.mjs`.');
  }
  for (const width of WIDTHS) {
    const page = await suite.newPage({ viewport: { width, height: width < 768 ? 740 : 900 } });
    const context = page.context();
    page.on('pageerror', (error) => pageErrors.push(`${width}px: ${error.message}`));
    contexts.set(width, context);
    pages.set(width, page);
  }
});

async function open(page: Page, path: string, h1: string | RegExp = /./) {
  await page.goto(url(path));
  await page.getByRole('heading', { level: 1, name: h1 }).waitFor();
  await waitForLivePage(page);
}

/**
 * Client-side navigation (what a click on a header link does): no reload, so the shell and the
 * remote stay parsed and the route sweep takes a fraction of a second per page.
 */
async function visit(page: Page, path: string, h1: string | RegExp) {
  if (!page.url().startsWith(suite.url)) return open(page, path, h1);
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { level: 1, name: h1 }).waitFor();
}

/** axe on every route at desktop width; at phone width on the pages with their own mobile layout. */
const AXE_AT_375 = new Set(['/', '/pricing', '/support', '/contact-sales?type=dpa']);
/** Full-page screenshots for a human look: OMNI_SCREENSHOTS=1 npx jest tests/e2e/marketing.test.ts */
const SCREENSHOTS = process.env.OMNI_SCREENSHOTS === '1';

describe.each(WIDTHS)('every public route at %i px', (width) => {
  it.each(ROUTES)('$path', async ({ path, h1, texts }) => {
    const page = pageAt(width);
    await visit(page, path, h1);
    // Waits, not a one-off check: the support topics share their h1 with /support, so the heading
    // alone does not prove the new route has rendered.
    for (const text of texts)
      await page.getByText(text, { exact: false }).first().waitFor({ timeout: 5_000 });
    // Title and description are the page's own, and no claim exceeds the store list.
    expect(await page.title()).toMatch(/Omni/);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length).toBeGreaterThan(40);
    expect(description).not.toContain('150+');
    expect(await page.locator('body').innerText()).not.toMatch(/150\+|100\+ (stores|platforms)/);
    // Nothing wider than the window: a phone never scrolls sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    if (width > 768 || AXE_AT_375.has(path)) expect(await seriousAxeViolations(page)).toEqual([]);
    if (SCREENSHOTS) {
      const name = path === '/' ? 'home' : path.slice(1).replace(/[/?=]/g, '-');
      await page.screenshot({ path: join(artifacts, `marketing-${name}-${width}.png`), fullPage: true });
      await page.screenshot({ path: join(artifacts, `marketing-${name}-${width}-top.png`) });
    }
  });
});

describe('header', () => {
  it('links reach their pages; Sign In is a full page load; Get Started goes to /signup', async () => {
    const page = pageAt(1440);
    await open(page, '/features');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [label, path] of [
      ['Pricing', '/pricing'],
      ['Artists', '/artists'],
      ['Labels', '/labels'],
      ['Managers', '/managers'],
      ['Security', '/security'],
      ['Support', '/support'],
      ['Company', '/company'],
      ['Features', '/features'],
      ['Missing Money Finder', '/missing-money-finder'],
    ] as const) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(url(path));
    }
    await open(page, '/pricing');
    await page.getByRole('link', { name: 'Omni home' }).click();
    await page.waitForURL(url('/'));
    await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();

    // A marker on window survives client-side navigation and is gone after a real page load.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL(url('/login'));
    expect(
      await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument),
    ).toBeUndefined();

    await open(page, '/artists');
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL(url('/signup'));
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it('folds the links into a menu below 768 px that opens, closes with Escape and navigates', async () => {
    const page = pageAt(375);
    await open(page, '/');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await menu.waitFor();
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('link').count()).toBe(11); // nine links, Sign In, Get Started
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(url('/pricing'));
    await menu.waitFor({ state: 'detached' });
  });
});

describe('pricing', () => {
  it('switches Pro between monthly and annual prices', async () => {
    const page = pageAt(1440);
    await open(page, '/pricing', 'Choose your lane');
    const price = page.getByTestId('pro-price');
    expect(await price.innerText()).toMatch(/\$12\.99\s+per month/);
    const toggle = page.getByRole('switch', { name: 'Bill annually' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await price.innerText()).toMatch(/\$99\s+per year/);
    expect(await price.innerText()).toContain('Save $56');
    await toggle.press('Space');
    expect(await price.innerText()).toMatch(/\$12\.99\s+per month/);
  });

  it('shows the revenue share, payout box and an Enterprise mailto', async () => {
    const page = pageAt(1440);
    await open(page, '/pricing', 'Choose your lane');
    const share = await page.getByTestId('revenue-share').innerText();
    for (const stream of ['Streaming', 'Video', 'Publishing', 'Sync', 'Physical'])
      expect(share).toContain(stream);
    expect(share.match(/100%/g)).toHaveLength(5);
    const sales = page.getByRole('main').getByRole('link', { name: 'Contact sales' });
    expect(await sales.getAttribute('href')).toMatch(/^mailto:sales@/);
    await page.getByRole('link', { name: 'Start for free' }).click();
    await page.waitForURL(url('/signup'));
  });

  it('opens a FAQ answer', async () => {
    const page = pageAt(375);
    await open(page, '/pricing', 'Choose your lane');
    const question = page.getByRole('button', { name: 'When do I get paid?' });
    expect(await question.getAttribute('aria-expanded')).toBe('false');
    await question.click();
    expect(await question.getAttribute('aria-expanded')).toBe('true');
    await page.getByText('Once your balance reaches $100').waitFor();
    expect(await page.getByRole('heading', { level: 3 }).filter({ hasText: '?' }).count()).toBe(4);
  });
});

describe('support', () => {
  it('filters the documents as you type', async () => {
    const page = pageAt(1440);
    await open(page, '/support', 'How can we help?');
    const list = page.getByTestId('doc-list').getByRole('listitem');
    const all = await list.count();
    expect(all).toBeGreaterThanOrEqual(10);
    await page.getByRole('searchbox', { name: 'Search help articles' }).fill('payout');
    await page.getByText('match “payout”').waitFor();
    const filtered = await list.count();
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(all);
    for (const text of await list.allInnerTexts()) expect(text).toBeTruthy();
    await page.getByRole('searchbox', { name: 'Search help articles' }).fill('zzzz-nothing');
    await page.getByText('No articles match your search').waitFor();
  });

  it('opens a category on its first document, and another document on click', async () => {
    const page = pageAt(375);
    await open(page, '/support', 'How can we help?');
    await page.getByRole('button', { name: /^Billing/ }).click();
    const reader = page.getByTestId('doc-reader');
    await reader.getByRole('heading', { name: 'Plans and prices' }).waitFor();
    expect(await reader.innerText()).toContain('$99 per year');
    await page.getByRole('button', { name: /^Failed payments/ }).click();
    await reader.getByRole('heading', { name: 'Failed payments' }).waitFor();
    expect(await reader.innerText()).toContain('7 days');
    // The reader's heading takes focus, so a screen reader announces the chosen article.
    await page.waitForFunction(() => document.activeElement?.id === 'doc-title');
  });

  it('validates the ticket form and confirms a complete ticket', async () => {
    const page = pageAt(1440);
    await open(page, '/support', 'How can we help?');
    const submit = page.getByRole('button', { name: 'Submit ticket' });
    await submit.click();
    for (const message of ['Subject is required', 'Choose a category', 'Message is required']) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(
      await page.getByLabel('Subject', { exact: true }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.getByLabel('Subject', { exact: true }).fill('Payout not received');
    await page.getByLabel('Category', { exact: true }).selectOption('royalties');
    await page.getByLabel('Message', { exact: true }).fill('My balance is over $100 but nothing arrived.');
    await submit.click();
    await page.getByText('Ticket submitted').waitFor();
    await page.getByText('We’ll respond within 1 business day.').waitFor();
    expect(await page.getByLabel('Subject', { exact: true }).inputValue()).toBe('');
  });
});

describe('home', () => {
  it("'Start Free' bursts confetti and reaches /signup", async () => {
    const page = pageAt(1440);
    await open(page, '/?countdown=60');
    await page.getByRole('button', { name: 'Start Free' }).click();
    await page.locator('canvas[data-testid="confetti"]').waitFor({ state: 'attached' });
    await page.waitForURL(url('/signup'));
  });

  it('counts down to the chosen destination', async () => {
    const page = pageAt(375);
    await open(page, '/?countdown=2');
    const bar = page.getByTestId('countdown-bar');
    expect(await bar.innerText()).toContain('Go to Sign Up');
    await page.waitForURL(url('/signup'), { timeout: 5_000 });

    await open(page, '/?countdown=3');
    await page.getByLabel('Where to go next').selectOption({ label: 'View Pricing' });
    await page.waitForURL(url('/pricing'), { timeout: 6_000 });
  });

  it("'Skip Now' goes at once; the bar can be dismissed", async () => {
    const page = pageAt(1440);
    await open(page, '/?countdown=60');
    expect(Number(await page.getByTestId('countdown-seconds').innerText())).toBeGreaterThan(50);
    await page.getByLabel('Where to go next').selectOption({ label: 'View Pricing' });
    await page.getByRole('button', { name: 'Skip Now' }).click();
    await page.waitForURL(url('/pricing'));

    await open(page, '/?countdown=2');
    await page.getByRole('button', { name: 'Dismiss countdown' }).click();
    await page.getByTestId('countdown-bar').waitFor({ state: 'detached' });
    await page.waitForTimeout(2_500);
    expect(page.url()).toBe(url('/?countdown=2'));
  });

  it('animates the hero particles, pauses them in a hidden tab, keeps them still for reduced motion', async () => {
    const page = pageAt(1440);
    await open(page, '/?countdown=60');
    const canvas = page.getByTestId('particle-field');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="particle-field"]')?.getAttribute('data-state') === 'running',
    );
    expect(await canvas.getAttribute('data-particles')).toBe('60');
    expect(Math.round((await canvas.boundingBox())?.height ?? 0)).toBe(500);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await canvas.getAttribute('data-state')).toBe('paused');

    const reduced = await suite.browser.newContext({
      reducedMotion: 'reduce',
      viewport: { width: 1440, height: 900 },
    });
    try {
      const still = await reduced.newPage();
      await open(still, '/?countdown=60');
      await still.waitForFunction(
        () =>
          document.querySelector('[data-testid="particle-field"]')?.getAttribute('data-state') === 'static',
      );
      await still.getByRole('button', { name: 'Start Free' }).click();
      await still.waitForURL(url('/signup'));
      expect(await still.locator('canvas[data-testid="confetti"]').count()).toBe(0);
    } finally {
      await reduced.close();
    }
  });

  it('links the browse-by-category cards to the spec targets and the demo to the live walkthrough', async () => {
    const page = pageAt(1440);
    await open(page, '/?countdown=60');
    const grid = page.getByTestId('browse-categories');
    const hrefs = await grid
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/login', '/artist-upload', '/app', '/security', '/pricing']);
    // No demo video exists: the hero offers a live walkthrough on /demo, not a YouTube search (issue 21 §3.14).
    expect(await page.getByRole('link', { name: /Watch the demo/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Book a live demo' }).getAttribute('href')).toBe('/demo');
    expect(await page.getByTestId('footer-copyright').innerText()).toContain(
      String(new Date().getFullYear()),
    );
    await page.getByRole('link', { name: 'Launch your release' }).click();
    await page.waitForURL(url('/signup'));
  });
});

it('shows the not-found page for an unknown path', async () => {
  const page = pageAt(375);
  const response = await page.goto(url('/no-such-marketing-page'));
  expect(response?.status()).toBe(404);
  await page.getByText('Oops! Page not found').waitFor();
  expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
});

it('raised no uncaught errors in any page', () => {
  expect(pageErrors).toEqual([]);
});

it('the axe check does catch a serious violation (so a clean result means something)', async () => {
  const page = pageAt(1440);
  await visit(page, '/press', 'Press and media');
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.src = '/no-such-image.png';
    document.querySelector('main')?.append(img);
  });
  expect((await seriousAxeViolations(page)).join('\n')).toContain('image-alt');
});
