// The signed-in app's one navigation (issue 21 §3.3, §3.14) in a real browser: every app screen, whichever
// remote renders it (dashboard, finder, the CMS's refusal page), carries the same header and links with the
// current page marked; below 1,024 px the links open in a sheet; the keyboard reaches them; /releases lists
// the artist's releases; the logo is one component on the public site, the app and the CMS.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { artifacts } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { png, wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const suite = browserSuite('app-nav', {
  env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD, AUTH_RATE_LIMIT_PER_IP: '1000' },
});
const pages = suite.keepPages();

const ARTIST_LINKS = [
  ['Dashboard', '/app'],
  ['Releases', '/releases'],
  ['Analytics', '/app/analytics'],
  ['Payouts', '/app/payouts'],
  ['Upload', '/artist-upload'],
  ['Uploader', '/uploader'],
  ['Finder', '/missing-money-finder'],
  ['Account', '/account'],
] as const;

let artist: ApiSession;
let releaseId: string;

async function adminSession(): Promise<ApiSession> {
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ApiSession;
}

/** A release made through the API as the artist upload makes it, so /releases and /release/:id have one. */
async function createRelease(session: ApiSession, title: string): Promise<string> {
  const token = session.accessToken;
  const audio = await uploadFile(suite.url, token, {
    bucket: 'omni-assets',
    fileName: 'take.wav',
    contentType: 'audio/wav',
    bytes: wav(3, { tone: true }),
    role: 'audio',
  });
  const artwork = await uploadFile(suite.url, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const res = await fetch(`${suite.url}/api/releases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      artistName: 'Nav Artist',
      releaseTitle: title,
      trackTitle: title,
      releaseType: 'single',
      genre: 'Hip-Hop/Rap',
      explicit: false,
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      stores: ['spotify', 'tidal'],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

async function signedInPage(session: ApiSession, width: number): Promise<Page> {
  const page = await suite.newPage({ viewport: { width, height: 900 } });
  pages.push(page);
  await storeSession(page, suite.url, session);
  return page;
}

const appNav = (page: Page) => page.getByRole('banner').getByRole('navigation', { name: 'App' });

/** The nav's links as [name, href, aria-current] in order. */
async function navLinks(page: Page): Promise<[string, string | null, string | null][]> {
  const nav = appNav(page);
  await nav.getByRole('link').first().waitFor();
  const links = await nav.getByRole('link').all();
  return Promise.all(
    links.map(async (link) => [
      (await link.innerText()).trim(),
      await link.getAttribute('href'),
      await link.getAttribute('aria-current'),
    ]),
  );
}

const expected = (current: string | null, links: readonly (readonly [string, string])[] = ARTIST_LINKS) =>
  links.map(([name, href]) => [name, href, name === current ? 'page' : null]);

beforeAll(async () => {
  artist = await verifiedSession(suite.url, `nav-${Date.now()}@example.com`);
  releaseId = await createRelease(artist, 'Nav Single');
}, 60_000);

describe('at 1280 px, every app screen has the one navigation with the current page marked', () => {
  const screens: [string, () => string, string | null, string][] = [
    ['/app', () => '/app', 'Dashboard', 'Welcome back'],
    ['/releases', () => '/releases', 'Releases', 'Releases'],
    ['/release/:id', () => `/release/${releaseId}`, 'Releases', 'Nav Single'],
    ['/app/analytics', () => '/app/analytics', 'Analytics', 'Analytics'],
    ['/app/payouts', () => '/app/payouts', 'Payouts', 'Payouts'],
    // Reached from /app's Manage Splits card; no link of its own, so none is marked.
    ['/app/splits', () => '/app/splits', null, 'Splits'],
    ['/artist-upload', () => '/artist-upload', 'Upload', 'Artist Upload'],
    ['/uploader', () => '/uploader', 'Uploader', 'Uploader'],
    ['/missing-money-finder', () => '/missing-money-finder', 'Finder', 'Missing Money Finder'],
    ['/account', () => '/account', 'Account', 'Account'],
    // The CMS refuses an artist, but the artist is still in the app: the same header and links.
    ['/admin/uploads (artist)', () => '/admin/uploads', null, 'Administrators only'],
  ];
  for (const [name, path, current, heading] of screens) {
    it(name, async () => {
      const page = await signedInPage(artist, 1280);
      await page.goto(`${suite.url}${path()}`);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      expect(await navLinks(page)).toEqual(expected(current));
      // The logo leads back into the app, not to the public site.
      expect(await page.getByRole('banner').getByTestId('omni-logo').getAttribute('href')).toBe('/app');
      await page.getByRole('banner').getByTestId('signed-in-as').waitFor();
      await page.screenshot({
        path: join(artifacts, `app-nav-1280-${name.replace(/\W+/g, '-')}.png`),
      });
    });
  }

  it('gets from one screen to the next through the links', async () => {
    const page = await signedInPage(artist, 1280);
    await page.goto(`${suite.url}/uploader`);
    await appNav(page).getByRole('link', { name: 'Finder' }).click();
    await page.waitForURL(`${suite.url}/missing-money-finder`);
    await appNav(page).getByRole('link', { name: 'Releases' }).click();
    await page.waitForURL(`${suite.url}/releases`);
    await page.getByRole('link', { name: 'Nav Single' }).click();
    await page.waitForURL(`${suite.url}/release/${releaseId}`);
    expect(await appNav(page).getByRole('link', { name: 'Releases' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await appNav(page).getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(`${suite.url}/app/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    await appNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${suite.url}/app`);
    // The dashboard's recent releases lead to the whole list.
    await page.getByRole('link', { name: 'All releases' }).click();
    await page.waitForURL(`${suite.url}/releases`);
  });

  it('shows administrators the OMNI CMS entry, last', async () => {
    const page = await signedInPage(await adminSession(), 1280);
    await page.goto(`${suite.url}/app`);
    expect(await navLinks(page)).toEqual(
      expected('Dashboard', [...ARTIST_LINKS, ['OMNI CMS', '/admin/uploads']]),
    );
  });

  it("fits an admin's eight links and Sign out in one row from 1,024 px", async () => {
    for (const width of [1024, 1100]) {
      const page = await signedInPage(await adminSession(), width);
      await page.goto(`${suite.url}/app`);
      await appNav(page).getByRole('link', { name: 'OMNI CMS' }).waitFor();
      const header = (await page.getByRole('banner').boundingBox())!;
      expect(header.height).toBeLessThanOrEqual(72);
      for (const item of await page
        .getByRole('banner')
        .getByRole('link')
        .or(page.getByRole('banner').getByRole('button'))
        .filter({ visible: true })
        .all()) {
        const box = (await item.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(artifacts, `app-nav-${width}-admin.png`) });
    }
  });

  it('is reachable with the keyboard, in order, from the top of the page', async () => {
    const page = await signedInPage(artist, 1280);
    await page.goto(`${suite.url}/releases`);
    await page.getByRole('heading', { level: 1, name: 'Releases' }).waitFor();
    const focused: string[] = [];
    for (let i = 0; i < 12 && focused.length < ARTIST_LINKS.length; i++) {
      await page.keyboard.press('Tab');
      const text = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.closest('nav[aria-label="App"]') ? el.innerText.trim() : null;
      });
      if (text) focused.push(text);
    }
    expect(focused).toEqual(ARTIST_LINKS.map(([name]) => name));
    await page.keyboard.press('Enter'); // the last one reached: Account
    await page.waitForURL(`${suite.url}/account`);
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
  });

  it('has no serious accessibility findings in the header', async () => {
    const page = await signedInPage(artist, 1280);
    await page.goto(`${suite.url}/releases`);
    await page.getByRole('heading', { level: 1, name: 'Releases' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('at 375 px, the links open in a sheet', () => {
  for (const [path, current] of [
    ['/app', 'Dashboard'],
    ['/missing-money-finder', 'Finder'],
    ['/uploader', 'Uploader'],
  ] as const) {
    it(`on ${path}`, async () => {
      const page = await signedInPage(artist, 375);
      await page.goto(`${suite.url}${path}`);
      const menu = page.getByRole('banner').getByRole('button', { name: 'Open app menu' });
      await menu.waitFor();
      // The row of links is not shown on a phone, and nothing runs off the side of the screen.
      expect(await page.getByRole('banner').getByRole('navigation', { name: 'App' }).isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.screenshot({ path: join(artifacts, `app-nav-375-${path.replace(/\W+/g, '-')}.png`) });

      // Opened from the keyboard: focus moves into the sheet.
      await menu.focus();
      await page.keyboard.press('Enter');
      const sheet = page.getByTestId('app-menu');
      await sheet.waitFor();
      const links = await sheet.getByRole('navigation', { name: 'App' }).getByRole('link').all();
      const seen = await Promise.all(
        links.map(async (l) => [
          (await l.innerText()).trim(),
          await l.getAttribute('href'),
          await l.getAttribute('aria-current'),
        ]),
      );
      expect(seen).toEqual(expected(current));
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="app-menu"]'))).toBe(
        true,
      );
      await sheet.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.screenshot({ path: join(artifacts, `app-nav-375-${path.replace(/\W+/g, '-')}-menu.png`) });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
    });
  }

  it('follows a link from the sheet and closes it', async () => {
    const page = await signedInPage(artist, 375);
    await page.goto(`${suite.url}/app`);
    await page.getByRole('button', { name: 'Open app menu' }).click();
    await page.getByTestId('app-menu').getByRole('link', { name: 'Releases' }).click();
    await page.waitForURL(`${suite.url}/releases`);
    await page.getByTestId('app-menu').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Nav Single' }).waitFor();
  });

  it('signs out from the sheet and lands on the home page', async () => {
    const other = await verifiedSession(suite.url, `nav-out-${Date.now()}@example.com`);
    const page = await signedInPage(other, 375);
    await page.goto(`${suite.url}/missing-money-finder`);
    await page.getByRole('button', { name: 'Open app menu' }).click();
    await page.getByTestId('app-menu').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${suite.url}/`);
    await suite.toast(page, 'Signed out successfully');
    expect(await page.evaluate(() => localStorage.getItem('omni.session'))).toBeNull();
  });
});

describe('/releases', () => {
  it("lists the artist's releases, each to its page; a new artist is offered the upload", async () => {
    const page = await signedInPage(artist, 1280);
    await page.goto(`${suite.url}/releases`);
    const row = page.getByTestId('release-row').filter({ hasText: 'Nav Single' });
    await row.waitFor();
    expect(await row.getByRole('link', { name: 'Nav Single' }).getAttribute('href')).toBe(
      `/release/${releaseId}`,
    );
    await suite.shot(page, 'releases');

    const newcomer = await verifiedSession(suite.url, `nav-new-${Date.now()}@example.com`);
    const fresh = await signedInPage(newcomer, 1280);
    await fresh.goto(`${suite.url}/releases`);
    await fresh.getByText('You have no releases yet.').waitFor();
    expect(await fresh.getByRole('link', { name: 'Upload your first release' }).getAttribute('href')).toBe(
      '/artist-upload',
    );
  });

  it('sends a signed-out visitor to /login, and answers 200 as a screen', async () => {
    const res = await fetch(`${suite.url}/releases`);
    expect(res.status).toBe(200);
    const page = await suite.newPage();
    pages.push(page);
    await page.goto(`${suite.url}/releases`);
    await page.waitForURL(`${suite.url}/login`);
  });
});

describe('one logo on the public site, the app and the CMS', () => {
  /**
   * The logo's look: its mark's computed background and size, and its text. The prerendered page's logo is
   * replaced when the app hydrates; a node read while detached has no computed style, so this waits until the
   * mark in the document is styled.
   */
  async function logoOf(page: Page) {
    await page.getByTestId('omni-logo').first().waitFor();
    const look = await page.waitForFunction(() => {
      const logo = document.querySelector<HTMLElement>('[data-testid="omni-logo"]');
      const mark = logo?.querySelector('span');
      if (!logo || !mark?.isConnected) return null;
      const style = getComputedStyle(mark);
      if (style.backgroundImage === '' || style.backgroundImage === 'none') return null;
      return {
        text: logo.innerText.trim(),
        background: style.backgroundImage,
        size: `${style.width}x${style.height}`,
      };
    });
    // waitForFunction resolves only on a truthy value: the look, never null.
    return (await look.jsonValue())!;
  }

  it('draws the same logo on /, /app, the Finder and /admin', async () => {
    const admin = await signedInPage(await adminSession(), 1280);
    await admin.goto(`${suite.url}/`);
    const marketing = await logoOf(admin);
    expect(marketing.background).toContain('gradient');
    await admin.goto(`${suite.url}/app`);
    expect(await logoOf(admin)).toEqual(marketing);
    await admin.goto(`${suite.url}/missing-money-finder`);
    expect(await logoOf(admin)).toEqual(marketing);
    await admin.goto(`${suite.url}/admin/moderation`);
    await admin.getByRole('heading', { name: 'Moderation Queue' }).waitFor();
    expect(await logoOf(admin)).toEqual(marketing);
    await suite.shot(admin, 'cms-logo');
  });
});
