// The slice in a real browser: the shell loads the marketing remote at run time and renders the
// published assets of /music and /videos; an unknown path shows the not-found page.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'date-fns';
import type { Page } from 'playwright-core';
import { artifacts } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { adminUpload, cmsApi } from '../support/cms';
import { wav } from '../support/media';
import { signTestToken } from '../support/tokens';

const suite = browserSuite('slice');
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(__dirname, '../../frontends/shell/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build:frontends` (npm test does it first).');
  }
  const admin = await signTestToken(await suite.platform.ports.documents('identity'), { roles: ['admin'] });
  // An admin's upload is published at once.
  for (const [title, description] of [
    ['Midnight Drive', 'Synthwave single'],
    ['Untitled Draft', ''],
  ]) {
    await adminUpload(
      cmsApi(suite.url),
      admin,
      { pageSlug: 'music', kind: 'music', title: title!, description },
      { fileName: `${title}.wav`, contentType: 'audio/wav', bytes: wav(1) },
    );
  }
  page = await suite.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
});

it('renders the published music through the shell and the marketing remote', async () => {
  await page.goto(`${suite.url}/music`);
  await page.getByRole('heading', { name: 'Music', level: 1 }).waitFor();
  const cards = page.getByTestId('asset-card');
  await cards.first().waitFor();
  expect(await cards.count()).toBe(2);
  // Newest published first; description shown when present; published date as 'MMM d, yyyy'.
  expect(await cards.nth(0).textContent()).toContain('Untitled Draft');
  expect(await cards.nth(1).textContent()).toContain('Midnight Drive');
  expect(await cards.nth(1).textContent()).toContain('Synthwave single');
  expect(await cards.nth(1).textContent()).toContain(format(new Date(), 'MMM d, yyyy'));
  await page.screenshot({ path: join(artifacts, 'music.png'), fullPage: true });
});

it('shows the empty text on /videos', async () => {
  await page.goto(`${suite.url}/videos`);
  await page.getByText('No videos available yet').waitFor();
  expect(await page.getByTestId('asset-card').count()).toBe(0);
});

it('shows the not-found page for an unknown path, with status 404, and logs the path', async () => {
  const response = await page.goto(`${suite.url}/no-such-page`);
  expect(response?.status()).toBe(404);
  await page.getByText('Oops! Page not found').waitFor();
  expect(await page.getByText('404', { exact: true }).count()).toBeGreaterThan(0);
  const home = page.getByRole('link', { name: 'Return to Home' });
  expect(await home.getAttribute('href')).toBe('/');
  expect(consoleErrors.some((e) => e.includes('/no-such-page'))).toBe(true);
  await page.screenshot({ path: join(artifacts, 'not-found.png') });
  await home.click();
  await page.waitForURL(`${suite.url}/`);
});

it('serves the web app compressed (brotli or gzip written at build time) with long caching for hashed files', async () => {
  const html = await (await fetch(`${suite.url}/music`)).text();
  const entry = /src="(\/[^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeTruthy();
  const br = await fetch(`${suite.url}${entry}`, { headers: { 'accept-encoding': 'br' } });
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(br.headers.get('content-type')).toMatch(/javascript/);
  expect(br.headers.get('cache-control')).toContain('immutable');
  const gzip = await fetch(`${suite.url}${entry}`, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers.get('content-encoding')).toBe('gzip');
  const plain = await fetch(`${suite.url}${entry}`, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers.get('content-encoding')).toBeNull();
  // The decoded bodies are the same file.
  expect(await br.text()).toBe(await plain.text());
});

it('hints the browser to fetch the remote that renders the screen while the shell loads', async () => {
  const music = await (await fetch(`${suite.url}/music`)).text();
  expect(music).toContain(
    '<link rel="preload" href="/remotes/marketing/mf-manifest.json" as="fetch" crossorigin>',
  );
  const app = await (await fetch(`${suite.url}/app`)).text();
  expect(app).toContain('href="/remotes/dashboard/remoteEntry.js"');
  const missing = await (await fetch(`${suite.url}/no-such-page`)).text();
  expect(missing).not.toContain('/remotes/');
});
