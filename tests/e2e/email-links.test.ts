// Opening a link from an email goes straight to where it leads, in a real browser with a cold cache:
// a verification link (/login?verify=…) opens /app signed in without loading or showing the login
// form on the way, and a magic link to /app never passes through /login while its token is spent.
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';

const suite = browserSuite('email-links');
let counter = 0;

const PASSWORD = 'correct-horse-42';
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

async function post(path: string, body: unknown, expected: number): Promise<void> {
  const res = await fetch(`${suite.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect({ path, status: res.status }).toEqual({ path, status: expected });
}

/** The newest ?<param>= link mailed to `email`, pointed at this test's server. */
async function mailedLink(email: string, param: 'verify' | 'magic'): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${suite.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const { messages } = (await res.json()) as { messages: { links: string[] }[] };
    const link = messages[0]?.links.map((l) => new URL(l)).find((u) => u.searchParams.has(param));
    if (link) return `${suite.url}${link.pathname}${link.search}`;
    if (Date.now() > deadline) throw new Error(`No ?${param}= mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A fresh browser context (empty cache) recording every script the page requests and every path the
 * page shows, from its first byte, plus whether a password field (the login form) ever appeared.
 */
async function watchedPage(): Promise<{ context: BrowserContext; page: Page; scripts: string[] }> {
  const page = await suite.newPage({});
  const context = page.context();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __paths: string[]; __loginForm: boolean };
    w.__paths = [location.pathname];
    w.__loginForm = false;
    new MutationObserver(() => {
      if (w.__paths.at(-1) !== location.pathname) w.__paths.push(location.pathname);
      if (document.querySelector('input[type="password"]')) w.__loginForm = true;
    }).observe(document, { childList: true, subtree: true });
  });
  return { context, page, scripts };
}

const seen = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __paths: string[]; __loginForm: boolean };
    return { paths: w.__paths, loginForm: w.__loginForm };
  });

it('a verification link opens /app signed in, without loading or showing the login form', async () => {
  const email = uniqueEmail('verify');
  await post('/api/auth/signup', { email, password: PASSWORD }, 201);
  const link = await mailedLink(email, 'verify');
  expect(new URL(link).pathname).toBe('/login');

  const { context, page, scripts } = await watchedPage();
  try {
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: /^Welcome back, .+!$/ }).waitFor();
    await page.getByText(email).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/app');
    expect(new URL(page.url()).searchParams.has('verify')).toBe(false);
    expect(await seen(page)).toEqual({ paths: ['/login', '/app'], loginForm: false });
    expect(scripts.some((path) => path.includes('__federation_expose_DashboardPage'))).toBe(true);
    expect(scripts.filter((path) => path.includes('__federation_expose_LoginPage'))).toEqual([]);
  } finally {
    await context.close();
  }
});

it('a magic link to /app signs in there without passing through /login', async () => {
  const email = uniqueEmail('magic');
  await post('/api/auth/signup', { email, password: PASSWORD }, 201);
  const verify = new URL(await mailedLink(email, 'verify')).searchParams.get('verify');
  await post('/api/auth/verify', { token: verify }, 200);
  await post('/api/auth/magic-link', { email, redirectTo: '/app' }, 200);
  const link = await mailedLink(email, 'magic');

  const { context, page, scripts } = await watchedPage();
  try {
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: /^Welcome back, .+!$/ }).waitFor();
    expect(new URL(page.url()).searchParams.has('magic')).toBe(false);
    expect(await seen(page)).toEqual({ paths: ['/app'], loginForm: false });
    expect(scripts.filter((path) => path.includes('__federation_expose_LoginPage'))).toEqual([]);
  } finally {
    await context.close();
  }
});
