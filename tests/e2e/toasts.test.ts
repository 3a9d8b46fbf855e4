// Toasts in a real browser: they do not pile up. A form's latest outcome replaces its earlier ones
// ('Welcome back!' replaces 'Invalid email or password.'), the same error twice is one toast, and a
// page's toasts go when the user leaves it, except the one that announces the navigation itself
// ('Welcome back!', 'Signed out successfully'), which stays for that one navigation.
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { browserSuite, until } from '../support/browser-suite';
import { verifiedSession } from '../support/session';

const suite = browserSuite('toasts', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let page: Page;

const PASSWORD = 'correct-horse-42';
const shot = (name: string) => suite.shot(page, name);
const shownToasts = () => suite.toasts(page);
const signIn = (email: string, password: string) => suite.signIn(page, email, password);

/**
 * Waits until the toasts on screen satisfy `check`. Toasts that should be gone get 1.5 s: well under a
 * toast's own 4 s, so their timer cannot pass the test.
 */
const toastsUntil = (check: (texts: string[]) => boolean, what: string, ms = 10_000) =>
  until(shownToasts, check, what, ms);

const mentions = (texts: string[], text: string) => texts.filter((t) => t.includes(text)).length;

beforeEach(async () => {
  page = await suite.newPage();
});

afterEach(async () => {
  await shot(`last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => {});
  await page?.context().close();
});

it("a wrong password twice is one toast; 'Welcome back!' replaces it and stays on /app, once", async () => {
  const email = `toasts-${Date.now()}@example.com`;
  await verifiedSession(suite.url, email, PASSWORD);
  await page.goto(`${suite.url}/login`);

  await signIn(email, 'wrong-password-1');
  await toastsUntil((t) => mentions(t, 'Invalid email or password.') === 1, 'the error once');
  await signIn(email, 'wrong-password-2');
  // The second answer arrives and is the same toast again, not a second one.
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(mentions(await shownToasts(), 'Invalid email or password.')).toBe(1);

  await signIn(email, PASSWORD);
  await page.waitForURL(`${suite.url}/app`);
  await toastsUntil((t) => t.length === 1 && mentions(t, 'Welcome back!') === 1, "'Welcome back!' alone");
  await shot('welcome-back');
  // A success toast's text is readable (sonner's own green on pale green is about 4.2:1, under AA's 4.5).
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The next navigation is not the one it announced: it goes.
  await page.getByRole('link', { name: /Upload Release/ }).click();
  await page.waitForURL(`${suite.url}/artist-upload`);
  await toastsUntil((t) => t.length === 0, 'no toasts on /artist-upload', 1500);
});

it("a validation toast does not follow the user to the next page; 'Signed out successfully' does", async () => {
  await page.goto(`${suite.url}/signup`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await toastsUntil((t) => mentions(t, 'Validation error') === 1, "'Validation error'");
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${suite.url}/login`);
  await toastsUntil((t) => t.length === 0, 'no toasts on /login', 1500);

  const email = `signout-${Date.now()}@example.com`;
  await verifiedSession(suite.url, email, PASSWORD);
  await signIn(email, PASSWORD);
  await page.waitForURL(`${suite.url}/app`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${suite.url}/`);
  // 'Welcome back!' announced /app, not /: it goes (well before its own timer would take it).
  await toastsUntil(
    (t) => t.length === 1 && mentions(t, 'Signed out successfully') === 1,
    "'Signed out successfully' alone on /",
    2000,
  );
  await shot('signed-out');
});
