import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowScripts, HtmlPages, inlineScriptHashes } from '../src/http/web/html-pages';

const shell = (script: string) =>
  `<!doctype html><html><head><title>Omni</title><meta name="description" content="x"></head><body><div id="root"></div><script defer src="/${script}"></script></body></html>`;

const prerender = (h1: string) =>
  JSON.stringify({
    remote: 'marketing',
    pages: [
      {
        path: '/',
        query: {},
        title: 'Omni',
        description: 'Home',
        html: `<main id="main"><h1>${h1}</h1></main>`,
        styles: ['/remotes/marketing/styles.1.css'],
        scripts: [],
      },
    ],
  });

let dir: string;
let clock: number;
const warnings: string[] = [];
const logger = { warn: (_obj: unknown, msg: string) => warnings.push(msg) } as never;
const SCREENS: Record<string, { remote: string; exposes: string[] }> = {
  '/': { remote: 'marketing', exposes: ['./HomePage'] },
  '/music': { remote: 'marketing', exposes: ['./MusicPage'] },
  '/app': { remote: 'dashboard', exposes: ['./DashboardPage'] },
  '/login': { remote: 'dashboard', exposes: ['./LoginPage'] },
};
const screenOf = (path: string) => SCREENS[path];
const text = (pages: HtmlPages, path: string, query = '') =>
  pages.pageFor(path, new URLSearchParams(query)).raw.toString('utf8');

/** Writes a build's file with a modification time of its own, as a new build would. */
function build(file: string, content: string, mtimeSeconds: number) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  utimesSync(file, mtimeSeconds, mtimeSeconds);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omni-html-pages-'));
  clock = 0;
  warnings.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const indexFile = () => join(dir, 'shell', 'dist', 'index.html');
const prerenderFile = () => join(dir, 'marketing', 'dist', 'prerender.json');
const newPages = () => new HtmlPages(dir, ['marketing', 'dashboard'], screenOf, logger, () => clock);

it('is not built until index.html exists, and notices the build without a restart', () => {
  const pages = newPages();
  expect(pages.built()).toBe(false);
  build(indexFile(), shell('main.1.js'), 1000);
  clock += 1000;
  expect(pages.built()).toBe(true);
});

it('serves the new build after a rebuild under it: new script names, new prerendered page', () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(prerenderFile(), prerender('Old'), 1000);
  const pages = newPages();
  expect(text(pages, '/')).toContain('src="/main.1.js"');
  expect(text(pages, '/')).toContain('<h1>Old</h1>');
  expect(text(pages, '/music')).toContain('/remotes/marketing/remoteEntry.js');

  build(indexFile(), shell('main.2.js'), 2000);
  build(prerenderFile(), prerender('New'), 2000);
  // Within the check interval the composed pages stand (no file system calls per request)…
  expect(text(pages, '/')).toContain('<h1>Old</h1>');
  // …then the rebuild shows.
  clock += 1000;
  const page = text(pages, '/');
  expect(page).toContain('src="/main.2.js"');
  expect(page).toContain('<h1>New</h1>');
  expect(text(pages, '/music')).toContain('src="/main.2.js"');
});

it('serves pages without the prerendered content when the file is unreadable, and says so', () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(prerenderFile(), '{"remote": "marketing", "pages": [{"path": 1}]}', 1000);
  const pages = newPages();
  expect(pages.built()).toBe(true);
  const page = text(pages, '/');
  expect(page).not.toContain('omni-prerender');
  expect(page).toContain('src="/main.1.js"');
  expect(warnings).toEqual(['prerendered pages not served: their file could not be read']);

  build(prerenderFile(), prerender('Fixed'), 2000);
  clock += 1000;
  expect(text(pages, '/')).toContain('<h1>Fixed</h1>');
});

it('writes the current year into the prerendered footer, and a new year shows without a rebuild', () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(
    prerenderFile(),
    prerender('Home</h1><p>© <span data-current-year="">2025</span> Omni.</p><h1>'),
    1000,
  );
  clock = new Date(2026, 11, 31, 23, 59, 59).getTime();
  const pages = newPages();
  expect(text(pages, '/')).toContain('© <span data-current-year="">2026</span> Omni.');
  clock = new Date(2027, 0, 1, 0, 0, 1).getTime();
  expect(text(pages, '/')).toContain('© <span data-current-year="">2027</span> Omni.');
});

/** A dashboard build's manifest, as the module federation plugin writes it (the fields the gateway reads). */
const manifest = (hash: string) =>
  JSON.stringify({
    metaData: { publicPath: '/remotes/dashboard/' },
    exposes: [
      {
        name: 'DashboardPage',
        assets: {
          js: { sync: ['zod.1.js', `dashboard.${hash}.js`], async: ['later.js'] },
          css: { sync: ['styles.1.css'], async: [] },
        },
      },
      {
        name: 'LoginPage',
        assets: {
          js: { sync: ['form.1.js', 'login.1.js'], async: [] },
          css: { sync: ['styles.1.css'], async: [] },
        },
      },
    ],
  });
const manifestFile = () => join(dir, 'dashboard', 'dist', 'mf-manifest.json');
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="preload" href="([^"]+)" as="(\w+)"/g)].map((m) => `${m[2]} ${m[1]}`);

const lazyChunksFile = () => join(dir, 'shell', 'dist', 'lazy-chunks.json');

it("preloads the screen's own scripts and stylesheet from its remote's manifest, and a rebuild's new names", () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(manifestFile(), manifest('a'), 1000);
  build(lazyChunksFile(), JSON.stringify({ scripts: ['/query.1.js', '/session.1.js'] }), 1000);
  const pages = newPages();
  expect(preloads(text(pages, '/app'))).toEqual([
    'fetch /remotes/dashboard/mf-manifest.json',
    'script /remotes/dashboard/remoteEntry.js',
    'style /remotes/dashboard/styles.1.css',
    'script /remotes/dashboard/zod.1.js',
    'script /remotes/dashboard/dashboard.a.js',
    'script /query.1.js',
    'script /session.1.js',
  ]);
  expect(preloads(text(pages, '/login'))).toContain('script /remotes/dashboard/login.1.js');
  expect(preloads(text(pages, '/login'))).not.toContain('script /remotes/dashboard/dashboard.a.js');

  build(manifestFile(), manifest('b'), 2000);
  clock += 1000;
  expect(preloads(text(pages, '/app'))).toContain('script /remotes/dashboard/dashboard.b.js');
});

it("leaves a prerendered page's files to the page, and the shell's lazy scripts to the shell", () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(prerenderFile(), prerender('Home'), 1000);
  build(lazyChunksFile(), JSON.stringify({ scripts: ['/query.1.js'] }), 1000);
  const pages = newPages();
  expect(preloads(text(pages, '/'))).toEqual([
    'fetch /remotes/marketing/mf-manifest.json',
    'script /remotes/marketing/remoteEntry.js',
  ]);
  // Not prerendered: the shell's lazy scripts come with the page.
  expect(preloads(text(pages, '/music'))).toContain('script /query.1.js');
});

it('preloads /app, not the login form, for a verification link, which signs in and opens /app', () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(manifestFile(), manifest('a'), 1000);
  const pages = newPages();
  const page = preloads(text(pages, '/login', 'verify=abc'));
  expect(page).toContain('script /remotes/dashboard/dashboard.a.js');
  expect(page).not.toContain('script /remotes/dashboard/login.1.js');
  // A magic link stays on the page it names.
  expect(preloads(text(pages, '/login', 'magic=abc'))).toContain('script /remotes/dashboard/login.1.js');
});

it('serves pages without the page preloads when a manifest is unreadable, and says so', () => {
  build(indexFile(), shell('main.1.js'), 1000);
  build(manifestFile(), '{"exposes": 1}', 1000);
  const pages = newPages();
  expect(preloads(text(pages, '/app'))).toEqual([
    'fetch /remotes/dashboard/mf-manifest.json',
    'script /remotes/dashboard/remoteEntry.js',
  ]);
  expect(warnings).toEqual([
    "page scripts not preloaded: a remote manifest or the shell's chunk list could not be read",
  ]);
});

describe('inline scripts and the policy', () => {
  it('allows exactly the page’s inline scripts, by hash, in script-src', () => {
    const html = '<head><script>a()</script><script src="/x.js"></script><script defer>b()</script></head>';
    const hashes = inlineScriptHashes(html);
    const hash = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
    expect(hashes).toEqual([hash('a()'), hash('b()')]);
    const policy = "default-src 'self';script-src 'self';script-src-attr 'none'";
    expect(allowScripts(policy, hashes)).toBe(
      `default-src 'self';script-src 'self' ${hashes.join(' ')};script-src-attr 'none'`,
    );
    expect(allowScripts(policy, [])).toBe(policy);
  });
});
