// A checkout under a dot-folder (~/.cache/omni, ~/.local/src/omni) must serve the web app like any other:
// every screen, every script and stylesheet the pages name, in each encoding a browser may ask for, and a
// page that renders in Chromium. The built frontends are reached through a link inside a `.cache` folder,
// so every file path the gateway serves from has a dot-folder in it.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { browserSuite } from '../support/browser-suite';

const FRONTENDS = resolve(__dirname, '../../frontends');
/** The screens of the spec, one per remote at least, and a path that is none (the shell's 404 page). */
const SCREENS = [
  '/',
  '/pricing',
  '/support/billing',
  '/music',
  '/login',
  '/app',
  '/artist-upload',
  '/admin/uploads',
  '/missing-money-finder',
  '/no-such-page',
];
const REMOTES = ['marketing', 'dashboard', 'admin', 'finder'];
/** What a browser sends, and what it says it accepts when it wants the file as it is. */
const ENCODINGS = ['br', 'gzip', 'identity'] as const;

let home: string;
const previousDir = process.env.FRONTENDS_DIR;

beforeAll(async () => {
  if (!existsSync(join(FRONTENDS, 'shell/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build:frontends` (npm test does it first).');
  }
  home = mkdtempSync(join(tmpdir(), 'omni-hidden-'));
  const checkout = join(home, '.cache', 'omni');
  mkdirSync(checkout, { recursive: true });
  symlinkSync(FRONTENDS, join(checkout, 'frontends'), 'dir');
  // Read by the gateway when it mounts the web app (the default is the checkout's own frontends/).
  process.env.FRONTENDS_DIR = join(checkout, 'frontends');
});

afterAll(() => {
  if (previousDir === undefined) delete process.env.FRONTENDS_DIR;
  else process.env.FRONTENDS_DIR = previousDir;
  if (home) rmSync(home, { recursive: true, force: true });
});

// Registered after the hook above, so the platform starts once FRONTENDS_DIR names the dot-folder.
const suite = browserSuite('hidden-folder');

/** Scripts and stylesheets a page names (its own tags and the remote it preloads). */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css|json))"/g)].map((m) => m[1]!);
}

/** Every file of a remote its manifest names (entry, exposed modules, shared chunks, styles). */
async function remoteAssets(remote: string): Promise<string[]> {
  const manifest = await (await fetch(`${suite.url}/remotes/${remote}/mf-manifest.json`)).text();
  const files = [...manifest.matchAll(/"([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return [
    `/remotes/${remote}/mf-manifest.json`,
    ...files.map((f) => `/remotes/${remote}/${f.replace(/^\//, '')}`),
  ];
}

it('serves every screen from a checkout under a dot-folder', async () => {
  for (const screen of SCREENS) {
    for (const encoding of ENCODINGS) {
      const res = await fetch(`${suite.url}${screen}`, { headers: { 'accept-encoding': encoding } });
      expect({ screen, encoding, status: res.status }).toEqual({
        screen,
        encoding,
        status: screen === '/no-such-page' ? 404 : 200,
      });
      expect(await res.text()).toContain('<div id="root">');
    }
  }
});

it('serves every script and stylesheet the pages and remotes name, in every encoding, as the same file', async () => {
  const assets = new Set<string>();
  for (const screen of SCREENS) {
    for (const asset of assetsOf(await (await fetch(`${suite.url}${screen}`)).text())) assets.add(asset);
  }
  for (const remote of REMOTES) for (const asset of await remoteAssets(remote)) assets.add(asset);
  expect(assets.size).toBeGreaterThan(20);
  const compressed = new Set<string>();
  for (const asset of assets) {
    const plain = await fetch(`${suite.url}${asset}`, { headers: { 'accept-encoding': 'identity' } });
    expect({ asset, status: plain.status }).toEqual({ asset, status: 200 });
    const body = await plain.text();
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await fetch(`${suite.url}${asset}`, { headers: { 'accept-encoding': encoding } });
      expect({ asset, encoding, status: res.status }).toEqual({ asset, encoding, status: 200 });
      if (res.headers.get('content-encoding') === encoding) compressed.add(asset);
      // fetch decodes what it is told is compressed: the same bytes must come out.
      expect((await res.text()) === body).toBe(true);
    }
  }
  // The build writes .br/.gz beside the larger files: those are answered compressed, not refused.
  expect(compressed.size).toBeGreaterThan(10);
});

it('renders pages in Chromium with no failed request', async () => {
  const page = await suite.browser.newPage();
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/no-such-page')) {
      failed.push(`${response.url()} ${response.status()}`);
    }
  });
  await page.goto(`${suite.url}/pricing`);
  // The live page replaces the build-time copy only once the shell and the remote have run.
  await page.locator('#omni-prerender').waitFor({ state: 'detached', timeout: 10_000 });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.goto(`${suite.url}/login`);
  await page
    .getByRole('button', { name: /sign in|log in/i })
    .first()
    .waitFor({ timeout: 10_000 });
  await page.goto(`${suite.url}/no-such-page`);
  await page.getByText('Oops! Page not found').waitFor();
  expect(failed).toEqual([]);
  await page.close();
});
