// The public pages rendered at build time: the gateway's first response carries the page (so it shows
// before any script runs, and without JavaScript at all), and the shell then swaps in the live page in
// one frame: no spinner in between, nothing shown twice, the same page before and after.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seriousAxeViolations } from '../support/axe';
import { artifacts, waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

interface PrerenderFile {
  pages: { path: string; query: Record<string, string>; title: string; html: string }[];
}

const prerendered = (
  JSON.parse(
    readFileSync(join(__dirname, '../../frontends/marketing/dist/prerender.json'), 'utf8'),
  ) as PrerenderFile
).pages;

const urlOf = (page: PrerenderFile['pages'][number]) => {
  const search = new URLSearchParams(Object.entries(page.query).filter(([, v]) => v !== '')).toString();
  return search ? `${page.path}?${search}` : page.path;
};

const h1Of = (html: string) =>
  /<h1[^>]*>([\s\S]*?)<\/h1>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

const suite = browserSuite('prerendered');

it('prerenders every public page whose content is known at build time', () => {
  expect(prerendered.map(urlOf).sort()).toEqual(
    [
      '/',
      '/features',
      '/pricing',
      '/artists',
      '/labels',
      '/managers',
      '/security',
      '/support',
      '/support/account',
      '/support/distribution',
      '/support/royalties',
      '/support/compliance',
      '/support/billing',
      '/company',
      '/demo',
      '/careers',
      '/press',
      '/contact-sales',
      '/contact-sales?type=dpa',
    ].sort(),
  );
});

it('sends the page itself in the first response, with its own title, description and stylesheet', async () => {
  const res = await fetch(`${suite.url}/pricing?utm_source=newsletter`);
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain('<title>Pricing · Omni</title>');
  expect(html).toMatch(/<meta name="description" content="[^"]*Pro[^"]*">/);
  expect(html).toMatch(/<link rel="stylesheet" href="\/remotes\/marketing\/styles\.[0-9a-f]+\.css">/);
  expect(html).toContain('<div id="omni-prerender">');
  expect(html).toContain('Choose your lane');
  // The footer's year is this year, whenever the build ran.
  expect(html).toContain(`© <span data-current-year="">${new Date().getFullYear()}</span> Omni.`);

  // The DPA request is its own rendering; a page that shows data (music) renders in the browser.
  const dpa = await (await fetch(`${suite.url}/contact-sales?type=dpa`)).text();
  expect(h1Of(dpa)).toBe('Request a Data Processing Agreement');
  const music = await (await fetch(`${suite.url}/music`)).text();
  expect(music).not.toContain('omni-prerender');
  // Unknown paths stay the shell's 404.
  const missing = await fetch(`${suite.url}/no-such-page`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).not.toContain('omni-prerender');
});

it('serves the prerendered page compressed', async () => {
  const res = await fetch(`${suite.url}/`, { headers: { 'accept-encoding': 'br' } });
  expect(res.headers.get('content-encoding')).toBe('br');
  expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
  expect(await res.text()).toContain('From the block to the blockchain');
});

it('shows a public page without JavaScript, links and all', async () => {
  const context = await suite.browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 800 },
  });
  try {
    const page = await context.newPage();
    await page.goto(`${suite.url}/pricing`);
    await page.getByRole('heading', { level: 1, name: 'Choose your lane' }).waitFor();
    expect(await page.title()).toBe('Pricing · Omni');
    // (Playwright's text locators skip <noscript>, so the DOM is asked directly.)
    expect(await page.evaluate(() => document.querySelector('noscript p')?.textContent)).toMatch(
      /^You can read this page without JavaScript\. Signing in, forms and uploads need it/,
    );
    await page.screenshot({ path: join(artifacts, 'prerendered-pricing-no-js-375.png'), fullPage: true });
    // The phone menu opens without scripts too (a disclosure in the prerendered header).
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    expect(await menu.isVisible()).toBe(false);
    await page.locator('summary[aria-label="Open menu"]').click();
    await page.screenshot({ path: join(artifacts, 'prerendered-menu-no-js-375.png') });
    await menu.getByRole('link', { name: 'Features' }).click();
    await page.waitForURL(`${suite.url}/features`);
    expect(await page.title()).toBe('Features · Omni');
    // Without scripts a link is an ordinary link: the support page arrives prerendered too.
    await page.goto(`${suite.url}/`);
    // The countdown needs scripts to count and to go anywhere: it is not in the prerendered page.
    await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();
    expect(await page.getByTestId('countdown-bar').count()).toBe(0);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Support centre' }).click();
    await page.waitForURL(/\/support$/);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.title()).toBe('Support · Omni');
  } finally {
    await context.close();
  }
});

it('serves every prerendered page accessible as it arrives, before the live page (axe)', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    // The remote's entry never arrives, so what axe sees is the prerendered page (the shell's own
    // script runs, as it would while a slow remote loads).
    await page.route('**/remotes/marketing/remoteEntry.js', () => undefined);
    const found: Record<string, string[]> = {};
    for (const entry of prerendered) {
      await page.goto(`${suite.url}${urlOf(entry)}`, { waitUntil: 'domcontentloaded' });
      await page.locator('#omni-prerender main').waitFor();
      const violations = await seriousAxeViolations(page);
      if (violations.length > 0) found[urlOf(entry)] = violations;
    }
    expect(found).toEqual({});
    expect(await page.locator('#omni-prerender').count()).toBe(1);
  } finally {
    await context.close();
  }
}, 120_000);

it('swaps in the live page without a spinner, without showing anything twice, and with the same content', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // Watches every change to the document from its first byte: a loading spinner, or a moment with
    // two <main> elements (the prerendered page and the live one side by side), would be recorded.
    await page.addInitScript(() => {
      const w = window as unknown as { __seen: string[] };
      w.__seen = [];
      new MutationObserver(() => {
        if (document.querySelector('[role="status"]')?.textContent?.includes('Loading page'))
          w.__seen.push('spinner');
        if (document.querySelectorAll('main').length > 1) w.__seen.push('two pages');
      }).observe(document, { childList: true, subtree: true });
    });
    for (const entry of prerendered) {
      const url = urlOf(entry);
      await page.goto(`${suite.url}${url}`);
      // The live page is React's: inside #root, and the prerendered copy gone.
      await page.locator('#root main').waitFor();
      expect(await page.locator('#omni-prerender').count()).toBe(0);
      expect(await page.locator('h1').count()).toBe(1);
      expect({ url, h1: (await page.locator('h1').textContent())?.trim() }).toEqual({
        url,
        h1: h1Of(entry.html),
      });
      expect(await page.title()).toBe(entry.title);
      expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).toEqual([]);
    }
    // The live page works: the pricing toggle switches the price.
    await page.goto(`${suite.url}/pricing`);
    await page.locator('#root main').waitFor();
    await page.getByRole('switch').first().click();
    await page.getByText('$99').first().waitFor();
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 120_000);

it('opens a page at the top on a new visit, and where it was on a reload', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${suite.url}/?countdown=60`);
    await waitForLivePage(page);
    // Far down the home page, then away by a client-side link (the router records the position).
    await page.getByRole('button', { name: 'Start Free' }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.getByRole('link', { name: 'Compare plans and read the FAQ' }).click();
    await page.waitForURL(`${suite.url}/pricing`);

    // Coming back by a new visit to the same address starts at the top, as any website does.
    await page.goto(`${suite.url}/?countdown=60`);
    await waitForLivePage(page);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // A reload keeps the place.
    await page.getByRole('heading', { name: 'Browse by category' }).scrollIntoViewIfNeeded();
    const y = await page.evaluate(() => window.scrollY);
    expect(y).toBeGreaterThan(500);
    await page.reload();
    await waitForLivePage(page);
    await page.waitForFunction((expected) => Math.abs(window.scrollY - expected) < 5, y);
  } finally {
    await context.close();
  }
});

it('carries what the visitor typed into the prerendered page, and the focus, into the live page', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    // Hold the marketing remote's entry, as a slow phone would: the prerendered page stays a while.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/remotes/marketing/remoteEntry.js', async (route) => {
      await held;
      await route.continue();
    });

    // Not until 'load': that waits for the held entry (it is preloaded).
    await page.goto(`${suite.url}/contact-sales`, { waitUntil: 'domcontentloaded' });
    const prerendered = page.locator('#omni-prerender');
    await prerendered.getByLabel('Your name').fill('Grace Hopper');
    await prerendered.getByLabel('Number of artists').selectOption('11–50');
    await prerendered.getByLabel('How can we help?').fill('We manage eleven artists.');
    await prerendered.getByLabel('Work email').fill('grace@');
    expect(await prerendered.count()).toBe(1);

    release();
    await waitForLivePage(page);
    const live = page.locator('#root');
    expect(await live.getByLabel('Your name').inputValue()).toBe('Grace Hopper');
    expect(await live.getByLabel('Number of artists').inputValue()).toBe('11–50');
    expect(await live.getByLabel('How can we help?').inputValue()).toBe('We manage eleven artists.');
    // Still typing where they were.
    await page.keyboard.type('label.example');
    expect(await live.getByLabel('Work email').inputValue()).toBe('grace@label.example');
    // React has the values too (not just the DOM): submitting validates only what is really missing.
    await live.getByRole('button', { name: 'Contact sales' }).click();
    await live.locator('input[name="company"][aria-invalid="true"]').waitFor();
    expect(await live.getByLabel('Your name').getAttribute('aria-invalid')).toBeNull();
    expect(await live.getByLabel('Number of artists').getAttribute('aria-invalid')).toBeNull();
  } finally {
    await context.close();
  }
});
