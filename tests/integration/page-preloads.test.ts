// The first response for a signed-in screen names everything the page needs before it can render, so
// the browser fetches it all at once instead of in rounds (shell → remote entry → page chunks): the
// shell's entry script first and at high priority, the remote's manifest and entry, the page's own
// scripts and stylesheet (from the remote's build manifest), and the scripts the shell loads lazily.
// A verification link leads to /app, so its page preloads /app's code, not the login form's.
// Checked against the real build (frontends/*/dist) through the real gateway.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const frontends = join(__dirname, '../../frontends');
const json = (file: string) => JSON.parse(readFileSync(join(frontends, file), 'utf8'));

interface ExposeAssets {
  name: string;
  assets: { js: { sync: string[] }; css: { sync: string[] } };
}
const dashboard = json('dashboard/dist/mf-manifest.json') as { exposes: ExposeAssets[] };
const shellLazy = (json('shell/dist/lazy-chunks.json') as { scripts: string[] }).scripts;

/** What a page of the dashboard remote loads at once, as its build manifest says. */
function pageAssets(expose: string): string[] {
  const found = dashboard.exposes.find((e) => e.name === expose);
  if (!found) throw new Error(`the dashboard build exposes no ${expose}`);
  return [...found.assets.css.sync, ...found.assets.js.sync].map((file) => `/remotes/dashboard/${file}`);
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

async function head(path: string): Promise<string> {
  const res = await fetch(`${platform.url}${path}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  return html.slice(0, html.indexOf('</head>'));
}
const preloaded = (headHtml: string) =>
  [...headHtml.matchAll(/<link rel="preload" href="([^"]+)" as="(\w+)"/g)].map((m) => m[1]!);

it.each([
  ['/app', 'DashboardPage'],
  ['/artist-upload', 'ArtistUploadPage'],
  ['/uploader', 'UploaderPage'],
  ['/login', 'LoginPage'],
  ['/release/some-id', 'ReleasePage'],
])('%s preloads the shell, the dashboard remote and its %s', async (path, expose) => {
  const html = await head(path);
  // The entry script comes first among the scripts, in the head, at high priority.
  expect(html).toMatch(/<script defer fetchpriority="high" src="\/main\.[0-9a-f]+\.js"><\/script>/);
  expect(html.indexOf('<script defer')).toBeLessThan(html.indexOf('/remotes/dashboard/'));
  expect(preloaded(html)).toEqual(
    expect.arrayContaining([
      '/remotes/dashboard/mf-manifest.json',
      '/remotes/dashboard/remoteEntry.js',
      ...pageAssets(expose),
      ...shellLazy,
    ]),
  );
  expect(shellLazy.length).toBeGreaterThan(0);
});

it('a verification link preloads /app, where it leads, and not the login form; a magic link its own page', async () => {
  const verify = preloaded(await head('/login?verify=some-token'));
  expect(verify).toEqual(expect.arrayContaining(pageAssets('DashboardPage')));
  const loginOnly = pageAssets('LoginPage').filter((file) => !pageAssets('DashboardPage').includes(file));
  expect(loginOnly.length).toBeGreaterThan(0);
  for (const file of loginOnly) expect(verify).not.toContain(file);

  expect(preloaded(await head('/uploader?magic=some-token'))).toEqual(
    expect.arrayContaining(pageAssets('UploaderPage')),
  );
});

it('every file a page preloads is served', async () => {
  const files = new Set([...preloaded(await head('/app')), ...preloaded(await head('/artist-upload'))]);
  for (const file of files) {
    const res = await fetch(`${platform.url}${file}`, { headers: { 'accept-encoding': 'br' } });
    expect({ file, status: res.status }).toEqual({ file, status: 200 });
    await res.arrayBuffer();
  }
});
