#!/usr/bin/env node
// Browser smoke check of the built frontends (a developer tool, not part of jest).
//
//   node scripts/build-frontends.mjs && node frontends/scripts/smoke.mjs [--out DIR]
//
// Serves the dists the way the gateway will (shell at / with SPA fallback, each remote under
// /remotes/<name>/, /app-config.json), stubs GET /api/pages/{music,videos}/assets, drives headless
// Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH) through the key screens, and writes
// screenshots to DIR (default: a temp folder). Prints one line per check and 'N passed, N failed'.
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const frontends = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REMOTES = ['marketing', 'dashboard', 'admin', 'finder'];
const outIndex = process.argv.indexOf('--out');
const outDir =
  outIndex >= 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(os.tmpdir(), 'omni-smoke');
mkdirSync(outDir, { recursive: true });

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

// --- the stub API and the static server --------------------------------------------------------

const SAMPLE_ASSETS = [
  {
    id: 'a3',
    title: 'Midnight Drive',
    description: 'Synthwave single from the summer EP.',
    kind: 'music',
    publishedAt: '2025-03-05T14:07:00.000Z',
  },
  { id: 'a2', title: '', description: null, kind: 'music', publishedAt: '2025-02-18T09:00:00.000Z' },
  { id: 'a1', title: 'Block Party', kind: 'music', publishedAt: '2024-12-31T23:30:00.000Z' },
];

/** What the stubbed API answers; each check sets it. */
const api = { mode: 'assets', requests: 0 };
/** Remotes the server pretends are down (404 for all their files). */
const downRemotes = new Set();

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendFile(res, file) {
  res.writeHead(200, {
    'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
  });
  createReadStream(file).pipe(res);
}

function serveFrom(dir, relative, res) {
  const file = path.resolve(dir, `.${relative}`);
  if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) return false;
  sendFile(res, file);
  return true;
}

function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const assetsMatch = url.pathname.match(/^\/api\/pages\/(music|videos)\/assets$/);
  if (assetsMatch) {
    api.requests += 1;
    const slug = assetsMatch[1];
    const page = { id: `page-${slug}`, slug, title: slug === 'music' ? 'Music' : 'Videos' };
    if (api.mode === 'error')
      return sendJson(res, 503, { error: { message: 'The catalogue is resting. Try again soon.' } });
    if (api.mode === 'empty') return sendJson(res, 200, { page, assets: [] });
    return sendJson(res, 200, { page, assets: SAMPLE_ASSETS });
  }
  if (url.pathname.startsWith('/api/')) return sendJson(res, 404, { error: { message: 'Not found' } });

  const remoteMatch = url.pathname.match(/^\/remotes\/([a-z]+)(\/.*)$/);
  if (remoteMatch) {
    const [, name, rest] = remoteMatch;
    if (
      !REMOTES.includes(name) ||
      downRemotes.has(name) ||
      !serveFrom(path.join(frontends, name, 'dist'), rest, res)
    ) {
      res.writeHead(404).end('not found');
    }
    return;
  }
  const shellDist = path.join(frontends, 'shell', 'dist');
  if (serveFrom(shellDist, url.pathname, res)) return;
  // SPA fallback: unknown paths get the shell, which shows its own not-found page.
  sendFile(res, path.join(shellDist, 'index.html'));
}

// --- checks ------------------------------------------------------------------------------------

const results = [];

async function check(name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`  ✓ ${name}`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(
      `  ✗ ${name}\n      ${String(error?.message ?? error)
        .split('\n')
        .join('\n      ')}`,
    );
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Route modules the shell asks for must be exposed by the remotes' built manifests. */
function checkRouteTableAgainstManifests() {
  const table = readFileSync(path.join(frontends, 'shell/src/routes/route-table.ts'), 'utf8');
  const wanted = [...table.matchAll(/remote: '([a-z]+)', expose: '(\.\/[A-Za-z]+)'/g)].map((m) => [
    m[1],
    m[2],
  ]);
  assert(wanted.length > 20, `route table parse found only ${wanted.length} routes`);
  for (const [remote, expose] of wanted) {
    const manifest = JSON.parse(readFileSync(path.join(frontends, remote, 'dist/mf-manifest.json'), 'utf8'));
    const exposed = manifest.exposes.map((e) => e.path);
    assert(exposed.includes(expose), `${remote} does not expose ${expose} (has ${exposed.join(', ')})`);
  }
}

async function main() {
  for (const name of ['shell', ...REMOTES]) {
    const marker = name === 'shell' ? 'index.html' : 'mf-manifest.json';
    if (!existsSync(path.join(frontends, name, 'dist', marker))) {
      console.error(`frontends/${name}/dist is not built: run node scripts/build-frontends.mjs first`);
      process.exit(2);
    }
  }
  const server = http.createServer(handle);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  console.log(`serving on ${base}; screenshots in ${outDir}`);

  /** A fresh page that records console errors and uncaught exceptions. */
  async function openPage(pathname, { width = 1280, height = 900 } = {}) {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    await page.goto(`${base}${pathname}`, { waitUntil: 'load' });
    return { page, errors };
  }
  const shot = (page, name) => page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  const noErrors = (errors) => assert(errors.length === 0, `console errors:\n${errors.join('\n')}`);

  await check('route table matches the remotes’ exposed modules', () => checkRouteTableAgainstManifests());

  await check('home page renders from the marketing remote, with title, description and lang', async () => {
    const { page, errors } = await openPage('/');
    await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();
    assert((await page.locator('html').getAttribute('lang')) === 'en', 'html lang is not en');
    assert((await page.title()).includes('Omni'), `title is "${await page.title()}"`);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    assert(description && description.length > 50, 'meta description missing');
    assert((await page.getByRole('main').count()) === 1, 'expected exactly one main landmark');
    await shot(page, 'home');
    noErrors(errors);
    await page.close();
  });

  // Reported, not asserted: timers on a shared 2-core machine are noise (the bar is measured by
  // benchmarks). Served uncompressed here, so the gateway (gzip/brotli) does better.
  await check('landing page largest contentful paint, cold cache (reported; target under 1 s)', async () => {
    const context = await browser.newContext(); // fresh context: nothing cached
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const lcp = await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1].startTime);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    assert(Number.isFinite(lcp) && lcp > 0, 'no LCP entry recorded');
    console.log(`      LCP ${Math.round(lcp)} ms${lcp < 1000 ? '' : ' (over the 1 s target)'}`);
    await context.close();
  });

  await check('remotes load lazily: only marketing is fetched on /', async () => {
    const page = await browser.newPage();
    const fetched = new Set();
    page.on('request', (request) => {
      const match = new URL(request.url()).pathname.match(/^\/remotes\/([a-z]+)\//);
      if (match) fetched.add(match[1]);
    });
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert(fetched.has('marketing'), 'marketing was not fetched');
    for (const other of ['dashboard', 'admin', 'finder'])
      assert(!fetched.has(other), `${other} was fetched on /`);
    await page.close();
  });

  await check(
    'the remote uses the shell’s React, ReactDOM and router (its fallback copies are not fetched)',
    async () => {
      const manifest = JSON.parse(
        readFileSync(path.join(frontends, 'marketing/dist/mf-manifest.json'), 'utf8'),
      );
      const fallbackFiles = new Set(
        manifest.shared
          .filter((s) => ['react', 'react-dom', 'react-dom/client', 'react-router'].includes(s.name))
          .flatMap((s) => [...s.assets.js.sync, ...s.assets.js.async]),
      );
      assert(fallbackFiles.size > 0, 'manifest lists no fallback chunks to watch for');
      const page = await browser.newPage();
      const fetched = [];
      page.on('request', (request) => {
        const file = new URL(request.url()).pathname.replace('/remotes/marketing/', '');
        if (fallbackFiles.has(file)) fetched.push(file);
      });
      api.mode = 'assets';
      await page.goto(`${base}/music`);
      await page.getByTestId('asset-card').first().waitFor();
      assert(fetched.length === 0, `remote fetched its own copies: ${fetched.join(', ')}`);
      await page.close();
    },
  );

  await check('client-side navigation to /pricing keeps the page (shared router singleton)', async () => {
    const { page, errors } = await openPage('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => {
      window.__omniSmokeMarker = true;
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Choose your lane' }).waitFor();
    assert(await page.evaluate(() => window.__omniSmokeMarker === true), 'navigation reloaded the page');
    assert(new URL(page.url()).pathname === '/pricing', `url is ${page.url()}`);
    noErrors(errors);
    await page.close();
  });

  await check('/music lists published assets as cards (title fallback, description, date)', async () => {
    api.mode = 'assets';
    const { page, errors } = await openPage('/music');
    await page.getByRole('heading', { level: 1, name: 'Music' }).waitFor();
    const cards = page.getByTestId('asset-card');
    await cards.first().waitFor();
    assert((await cards.count()) === 3, `expected 3 cards, got ${await cards.count()}`);
    const titles = await page.getByTestId('asset-title').allTextContents();
    assert(
      JSON.stringify(titles) === JSON.stringify(['Midnight Drive', 'Untitled', 'Block Party']),
      `titles ${titles}`,
    );
    const first = await cards.first().textContent();
    assert(first.includes('Synthwave single from the summer EP.'), 'description missing');
    assert(first.includes('Mar 5, 2025'), `date not formatted 'MMM d, yyyy': ${first}`);
    assert((await page.getByTestId('asset-description').count()) === 1, 'cards without description show one');
    assert((await page.title()).startsWith('Music'), `title is "${await page.title()}"`);
    await shot(page, 'music');
    noErrors(errors);
    await page.close();
  });

  await check('/music and /videos show the empty texts', async () => {
    api.mode = 'empty';
    const { page, errors } = await openPage('/music');
    await page.getByText('No music available yet', { exact: true }).waitFor();
    await shot(page, 'music-empty');
    await page.goto(`${base}/videos`);
    await page.getByRole('heading', { level: 1, name: 'Videos' }).waitFor();
    await page.getByText('No videos available yet', { exact: true }).waitFor();
    noErrors(errors);
    await page.close();
  });

  await check('/music shows the server’s error and recovers with the retry button', async () => {
    api.mode = 'error';
    const { page } = await openPage('/music');
    const alert = page.getByRole('alert').filter({ hasText: 'The catalogue is resting. Try again soon.' });
    await alert.waitFor({ timeout: 15_000 }); // react-query retries a 5xx twice first
    await shot(page, 'music-error');
    api.mode = 'assets';
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('asset-card').first().waitFor();
    await page.close();
  });

  await check('unknown path shows the not-found page and logs the path', async () => {
    const { page, errors } = await openPage('/nope');
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    assert(await page.getByText('404', { exact: true }).isVisible(), '404 not shown');
    const home = page.getByRole('link', { name: 'Return to Home' });
    assert((await home.getAttribute('href')) === '/', 'Return to Home does not go to /');
    assert(
      errors.some((e) => e.includes('/nope')),
      `missing path not logged: ${errors.join(' | ')}`,
    );
    await shot(page, 'not-found');
    await home.click();
    await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();
    await page.close();
  });

  await check('/admin redirects to uploads inside the OMNI CMS layout', async () => {
    const { page, errors } = await openPage('/admin');
    await page.getByRole('heading', { level: 1, name: 'Upload Assets' }).waitFor();
    assert(new URL(page.url()).pathname === '/admin/uploads', `url is ${page.url()}`);
    await page.getByText('OMNI CMS', { exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Moderation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Moderation Queue' }).waitFor();
    await shot(page, 'admin');
    noErrors(errors);
    await page.close();
  });

  await check('every spec route renders a heading (no blank page)', async () => {
    const routes = [
      ['/features', 'Features'],
      ['/artists', 'For Artists'],
      ['/labels', 'For Labels'],
      ['/managers', 'For Managers'],
      ['/security', 'Trust & Security'],
      ['/support', 'Support'],
      ['/support/billing', 'Billing support'],
      ['/company', 'About Omni'],
      ['/demo', 'Book a Demo'],
      ['/careers', 'Careers'],
      ['/press', 'Press'],
      ['/contact-sales?type=dpa', 'Request a DPA'],
      ['/app', 'Dashboard'],
      ['/login', 'Sign in'],
      ['/signup', 'Create account'],
      ['/forgot-password', 'Reset your password'],
      ['/artist-upload', 'Artist Upload'],
      ['/uploader', 'Uploader'],
      ['/upload?token=abc', 'Contributor Upload'],
      ['/release/r1', 'Release'],
      ['/missing-money-finder', 'Missing Money Finder'],
      ['/admin/links', 'Contributor Links'],
    ];
    const { page, errors } = await openPage('/');
    for (const [route, heading] of routes) {
      await page.goto(`${base}${route}`);
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor({ timeout: 10_000 });
    }
    noErrors(errors);
    await page.close();
  });

  await check('a remote that is down shows a friendly fallback, the rest keeps working', async () => {
    downRemotes.add('dashboard');
    try {
      const { page, errors } = await openPage('/login');
      await page.getByTestId('remote-unavailable').waitFor({ timeout: 15_000 });
      // The runtime plugin answered the failed load; the error boundary (last resort) was not needed.
      assert(
        errors.some((e) => e.includes('failed to load (onLoad)')),
        'runtime plugin did not report the failure',
      );
      assert(!errors.some((e) => e.includes('a remote page failed')), 'fell through to the error boundary');
      await page.getByRole('heading', { name: 'This part of Omni is temporarily unavailable' }).waitFor();
      await shot(page, 'remote-down');
      await page.getByRole('link', { name: 'Return to Home' }).click();
      await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();
      await page.close();
    } finally {
      downRemotes.delete('dashboard');
    }
  });

  await check('mobile header toggles its menu', async () => {
    const { page } = await openPage('/', { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Pricing' }).waitFor();
    await shot(page, 'home-mobile-menu');
    await page.close();
  });

  await browser.close();
  server.close();
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
