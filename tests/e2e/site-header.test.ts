// The headers in a real browser. The public header is one row from 768 to 1440 px with every link
// reachable (in the row or under 'More'); a signed-in visitor gets the way to the dashboard and Sign
// out instead of Sign In / Get Started, already in the page rendered at build time (no flash of the
// wrong buttons); the dashboard's header shows administrators the way to the OMNI CMS, artists not.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { artifacts, waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const LINKS = [
  'Features',
  'Pricing',
  'Artists',
  'Labels',
  'Managers',
  'Missing Money Finder',
  'Security',
  'Support',
  'Company',
];

const suite = browserSuite('header', {
  env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD, AUTH_RATE_LIMIT_PER_IP: '1000' },
});
let page: Page;
let artist: ApiSession;

// Viewport-sized, unlike suite.shot: the header is what matters.
const shot = (name: string) => page.screenshot({ path: join(artifacts, `header-${name}.png`) });

async function freshPage(width = 1280): Promise<Page> {
  await page?.context().close();
  page = await suite.newPage({ viewport: { width, height: 800 } });
  return page;
}

async function adminSession(): Promise<ApiSession> {
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ApiSession;
}

const banner = () => page.getByRole('banner');
const visible = (locator: Locator) => locator.filter({ visible: true });

beforeAll(async () => {
  artist = await verifiedSession(suite.url, `header-${Date.now()}@example.com`);
});

afterEach(async () => {
  await shot(`last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => {});
});

describe('one row from 768 to 1440 px, every link reachable', () => {
  for (const width of [768, 900, 1024, 1100, 1280, 1440]) {
    it(`at ${width} px`, async () => {
      await freshPage(width);
      await page.goto(`${suite.url}/`);
      await waitForLivePage(page);
      const header = await banner().boundingBox();
      const logo = await page.getByRole('link', { name: 'Omni home' }).boundingBox();
      // One row: the header is the logo's row and its padding, nothing under it.
      expect(header!.height).toBeLessThan(logo!.height + 40);
      for (const item of await visible(banner().getByRole('link').or(banner().getByRole('button'))).all()) {
        const box = (await item.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(header!.y + header!.height);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(`row-${width}`);

      const nav = page.getByRole('navigation', { name: 'Main' });
      const more = nav.getByRole('button', { name: 'More' });
      const hidden: string[] = [];
      for (const label of LINKS) {
        if (!(await nav.getByRole('link', { name: label, exact: true }).isVisible())) hidden.push(label);
      }
      if (hidden.length > 0) {
        await more.click();
        for (const label of hidden) {
          await nav.getByRole('link', { name: label, exact: true }).waitFor({ state: 'visible' });
        }
        await shot(`more-${width}`);
        // Each link works from there.
        await nav.getByRole('link', { name: hidden[hidden.length - 1]!, exact: true }).click();
        await page.waitForURL(/\/company$/);
      } else {
        expect(await more.isVisible()).toBe(false);
      }
    });
  }
});

describe('signed in', () => {
  it('the public header offers the dashboard and Sign out, not Sign In / Get Started', async () => {
    await freshPage(1280);
    await storeSession(page, suite.url, artist);
    await page.goto(`${suite.url}/pricing`);
    await waitForLivePage(page);
    const dashboard = banner().getByRole('link', { name: 'Dashboard' });
    await dashboard.waitFor();
    expect(await dashboard.getAttribute('href')).toBe('/app');
    expect(await visible(banner().getByRole('link', { name: 'Sign In' })).count()).toBe(0);
    expect(await visible(banner().getByRole('link', { name: 'Get Started' })).count()).toBe(0);
    await shot('signed-in');

    await banner().getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${suite.url}/`);
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Signed out successfully' }).waitFor();
    await banner().getByRole('link', { name: 'Sign In' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('omni.session'))).toBeNull();
  });

  it('the page rendered at build time already shows the signed-in buttons (no flash of Sign In)', async () => {
    await freshPage(1280);
    await storeSession(page, suite.url, artist);
    // What shows before any script file arrives: the HTML (with its inline script) and the stylesheets.
    // No script file ever arrives here, so nothing replaces the build-time header.
    await page.route('**/*', (route) =>
      ['script', 'fetch', 'xhr'].includes(route.request().resourceType()) ? route.abort() : route.continue(),
    );
    await page.goto(`${suite.url}/features`);
    const prerendered = page.locator('#omni-prerender');
    await prerendered.getByRole('banner').waitFor();
    expect(await visible(prerendered.getByRole('link', { name: 'Dashboard' })).count()).toBe(1);
    expect(await visible(prerendered.getByRole('link', { name: 'Sign In' })).count()).toBe(0);
    await shot('prerendered-signed-in');

    await page.evaluate(() => localStorage.clear());
    await page.goto(`${suite.url}/features`);
    await prerendered.getByRole('banner').waitFor();
    expect(await visible(prerendered.getByRole('link', { name: 'Sign In' })).count()).toBe(1);
    expect(await visible(prerendered.getByRole('link', { name: 'Dashboard' })).count()).toBe(0);
  });

  it('the dashboard header shows an admin the OMNI CMS; an artist does not see it', async () => {
    await freshPage(1280);
    await storeSession(page, suite.url, await adminSession());
    await page.goto(`${suite.url}/app`);
    await banner().getByTestId('signed-in-as').waitFor();
    await banner().getByRole('link', { name: 'OMNI CMS' }).click();
    await page.waitForURL(`${suite.url}/admin/uploads`);
    await page.getByText('OMNI CMS', { exact: true }).waitFor();

    await freshPage(1280);
    await storeSession(page, suite.url, artist);
    await page.goto(`${suite.url}/app`);
    await banner().getByTestId('signed-in-as').waitFor();
    expect(await page.getByRole('link', { name: 'OMNI CMS' }).count()).toBe(0);
  });
});
