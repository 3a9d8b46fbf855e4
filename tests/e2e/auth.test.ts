// Identity in a real browser, against the real platform (embedded issuer, dev mailbox): sign-up,
// email verification, password and magic-link sign-in, the unconfirmed-email path, password reset,
// sign-out, every validation text of spec section 5, and the session shared by the shell and the
// dashboard remote.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';

// Every test here signs in from 127.0.0.1: lift the per-IP budget, keep the per-email one.
const suite = browserSuite('auth', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let page: Page;
let counter = 0;

const PASSWORD = 'correct-horse-42';
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;
const shot = (name: string) => suite.shot(page, name);

interface Mail {
  to: string;
  subject: string;
  links: string[];
}

/** The mails sent to `email`, newest first; waits until there are at least `count`. */
async function mailsTo(email: string, count = 1): Promise<Mail[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${suite.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const { messages } = (await res.json()) as { messages: Mail[] };
    if (messages.length >= count) return messages;
    if (Date.now() > deadline)
      throw new Error(`Expected ${count} mail(s) to ${email}, got ${messages.length}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The link in the newest mail to `email` that carries `param`, pointed at this test's server. */
async function linkFromMail(email: string, param: 'verify' | 'magic' | 'reset', count = 1): Promise<string> {
  const [newest] = await mailsTo(email, count);
  const link = newest?.links.find((l) => new URL(l).searchParams.has(param));
  if (!link) throw new Error(`No ?${param}= link in the newest mail to ${email}: ${JSON.stringify(newest)}`);
  const url = new URL(link);
  return `${suite.url}${url.pathname}${url.search}`;
}

async function api(path: string, body: unknown): Promise<Response> {
  return fetch(`${suite.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** An account whose email is confirmed, made through the API (the browser flow has its own test). */
async function verifiedUser(label: string): Promise<string> {
  const email = uniqueEmail(label);
  expect((await api('/api/auth/signup', { email, password: PASSWORD })).status).toBe(201);
  const token = new URL(await linkFromMail(email, 'verify')).searchParams.get('verify');
  expect((await api('/api/auth/verify', { token })).status).toBe(200);
  return email;
}

/** A sonner toast with this title (and description, if given). */
const toast = (title: string, description?: string) => suite.toast(page, title, description);

const fieldError = (label: string) =>
  page.locator('div', { has: page.getByLabel(label, { exact: true }) }).getByTestId('field-error');

async function signOutEverywhere(): Promise<void> {
  await page.evaluate(() => localStorage.clear());
}

beforeAll(async () => {
  if (!existsSync(join(__dirname, '../../frontends/shell/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build:frontends` (npm test does it first).');
  }
  page = await suite.newPage();
});

beforeEach(async () => {
  await page.goto(`${suite.url}/`);
  await signOutEverywhere();
});

describe('validation (spec section 5)', () => {
  it('login: invalid email and short password, typed values kept', async () => {
    await page.goto(`${suite.url}/login`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await fieldError('Email').getByText('Invalid email address').waitFor();
    await fieldError('Password').getByText('Password must be at least 6 characters').waitFor();

    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await fieldError('Email').getByText('Invalid email address').waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('not-an-email');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('12345');
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await shot('login-validation');
  });

  it("sign-up: the first message under the toast title 'Validation error', and inline", async () => {
    await page.goto(`${suite.url}/signup`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await toast('Validation error', 'Invalid email address');
    await fieldError('Password').getByText('Password must be at least 6 characters').waitFor();

    await page.getByLabel('Email', { exact: true }).fill('fan@example.com');
    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByLabel('Confirm password', { exact: true }).fill('secret2');
    await page.getByRole('button', { name: 'Create account' }).click();
    await toast('Validation error', "Passwords don't match");
    await fieldError('Confirm password').getByText("Passwords don't match").waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('fan@example.com');
    await shot('signup-validation');
  });

  it("magic link needs an email ('Enter email') on /login and /uploader", async () => {
    await page.goto(`${suite.url}/login`);
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await toast('Enter email');
    await page.goto(`${suite.url}/uploader`);
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await toast('Enter email');
  });

  it('the new-password form has the same rules', async () => {
    // A live link: a dead one is refused before the form shows (issue 21 §3.11).
    const email = await verifiedUser('rules');
    expect((await api('/api/auth/forgot-password', { email })).status).toBe(200);
    await page.goto(await linkFromMail(email, 'reset', 2));
    await page.getByLabel('New password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await fieldError('New password').getByText('Password must be at least 6 characters').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('123456');
    await page.getByLabel('Confirm new password', { exact: true }).fill('1234567');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await fieldError('Confirm new password').getByText("Passwords don't match").waitFor();
  });
});

it('sign up → verification mail → verify → /app with the email → reload stays → sign out lands on /', async () => {
  const email = uniqueEmail('newcomer');
  await page.goto(`${suite.url}/signup`);
  await shot('signup');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await toast('Account created!', 'Check your email for the verification link.');
  // Then /login, with the address filled in and a reminder.
  await page.waitForURL(`${suite.url}/login`);
  await page.getByText('Check your email for the verification link, then sign in.').waitFor();
  expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);

  const verifyLink = await linkFromMail(email, 'verify');
  expect(new URL(verifyLink).pathname).toBe('/login');
  await page.goto(verifyLink);
  await page.waitForURL(`${suite.url}/app`);
  await toast('Email verified');
  await page.getByTestId('signed-in-as').getByText(email).waitFor();
  await page.getByRole('heading', { name: 'Welcome back, Artist!' }).waitFor();
  await shot('dashboard');

  await page.reload();
  await page.getByTestId('signed-in-as').getByText(email).waitFor();
  expect(page.url()).toBe(`${suite.url}/app`);

  // A signed-in user opening /login or /signup goes to /app.
  await page.goto(`${suite.url}/login`);
  await page.waitForURL(`${suite.url}/app`);
  await page.goto(`${suite.url}/signup`);
  await page.waitForURL(`${suite.url}/app`);

  const stored = await page.evaluate(() => localStorage.getItem('omni.session'));
  const { refreshToken } = JSON.parse(stored ?? '{}') as { refreshToken: string };
  await page.getByRole('button', { name: 'Sign out' }).click();
  await toast('Signed out successfully');
  await page.waitForURL(`${suite.url}/`);
  expect(await page.evaluate(() => localStorage.getItem('omni.session'))).toBeNull();
  // Sign-out revoked the refresh token on the server.
  expect((await api('/api/auth/refresh', { refreshToken })).status).toBe(401);

  // /app now sends to /login; signing in with the password comes back.
  await page.goto(`${suite.url}/app`);
  await page.waitForURL(`${suite.url}/login`);
  await shot('login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await toast('Welcome back!');
  await page.waitForURL(`${suite.url}/app`);
  await page.getByTestId('signed-in-as').getByText(email).waitFor();
});

it('wrong password shows the server message and keeps what was typed', async () => {
  const email = await verifiedUser('wrong-password');
  await page.goto(`${suite.url}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('not-my-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await toast('Invalid email or password.');
  expect(page.url()).toBe(`${suite.url}/login`);
  expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
  expect(await page.getByRole('button', { name: 'Resend verification email' }).count()).toBe(0);
});

it('an unconfirmed email reveals the resend button, which needs an email and sends the mail again', async () => {
  const email = uniqueEmail('unconfirmed');
  expect((await api('/api/auth/signup', { email, password: PASSWORD })).status).toBe(201);
  await page.goto(`${suite.url}/login`);
  expect(await page.getByRole('button', { name: 'Resend verification email' }).count()).toBe(0);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await toast(
    'Email not confirmed',
    'Please confirm your email. You can resend the verification email below.',
  );
  const resend = page.getByRole('button', { name: 'Resend verification email' });
  await resend.waitFor();
  await shot('login-unconfirmed');

  await page.getByLabel('Email', { exact: true }).fill('');
  await resend.click();
  await toast('Enter email first', 'Type your email above so we can resend the link.');

  await page.getByLabel('Email', { exact: true }).fill(email);
  await resend.click();
  await toast('Verification sent');
  const mails = await mailsTo(email, 2);
  expect(mails.every((m) => m.links.some((l) => l.includes('verify=')))).toBe(true);
});

it('magic link on /uploader signs in on that page; the dashboard remote sees the shell’s session', async () => {
  const email = await verifiedUser('magic');
  await page.goto(`${suite.url}/uploader`);
  await page.getByTestId('uploader-session').getByText('Not signed in').waitFor();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await toast('Magic link sent. Check your email.');
  await shot('uploader');

  const link = await linkFromMail(email, 'magic');
  expect(new URL(link).pathname).toBe('/uploader');

  // Hold the shell's consume call until the dashboard page has rendered. The shell spends the token
  // through the session store; the remote's page shows 'loading' and then the email, without a
  // reload. A private copy of the store in the remote would have stayed on 'Not signed in'.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/auth/magic-link/consume', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(link);
  await page.getByTestId('uploader-session').getByText('Checking your session…').waitFor();
  release();
  await page.getByTestId('uploader-session').getByText(email).waitFor();
  await page.unroute('**/api/auth/magic-link/consume');
  const url = new URL(page.url());
  expect(url.pathname).toBe('/uploader');
  expect(url.searchParams.has('magic')).toBe(false);

  // Single use: the same link again does not sign in.
  await signOutEverywhere();
  await page.goto(link);
  await toast('Sign-in link not valid');
  await page.getByTestId('uploader-session').getByText('Not signed in').waitFor();
});

it('the session module is one federated singleton', () => {
  const manifest = JSON.parse(
    readFileSync(join(__dirname, '../../frontends/dashboard/dist/mf-manifest.json'), 'utf8'),
  ) as { shared: { name: string; singleton?: boolean }[] };
  expect(manifest.shared.find((s) => s.name === '@omni/ui/session')).toMatchObject({ singleton: true });
});

it('forgot password: same answer for any email, the link sets a new password once', async () => {
  const email = await verifiedUser('forgot');
  await page.goto(`${suite.url}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL(`${suite.url}/forgot-password`);
  const answer = 'If an account exists for that email, we sent a link to reset the password.';

  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByTestId('reset-requested').getByText(answer).waitFor();

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByTestId('reset-requested').getByText(answer).waitFor();
  await shot('forgot-password');

  const link = await linkFromMail(email, 'reset');
  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
  await page.getByLabel('Confirm new password', { exact: true }).fill('brand-new-pass');
  await shot('new-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await toast('Password updated. You can sign in now.');
  await page.waitForURL(`${suite.url}/login`);

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('brand-new-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${suite.url}/app`);
  await signOutEverywhere();

  // The spent link says so as the page opens, with no password fields to fill in vain (issue 21 §3.11).
  await page.goto(link);
  await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
  await page.getByText('This reset link has expired or was already used. Request a new one below.').waitFor();
  expect(await page.locator('input[type="password"]').count()).toBe(0);
  await page.getByRole('button', { name: 'Send reset link' }).waitFor();
});

it('Continue with Google explains when the server has no Google provider', async () => {
  await page.goto(`${suite.url}/login`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await toast('Google sign-in unavailable', 'Google sign-in is not set up on this server.');
  expect(new URL(page.url()).pathname).toBe('/login');
});

it('an old or typed-in Google sign-in address comes back to the sign-in page with the explanation', async () => {
  await page.goto(`${suite.url}/api/auth/google?redirectTo=/app`);
  await toast('Google sign-in unavailable', 'Google sign-in is not set up on this server.');
  await page.waitForURL((url) => url.pathname === '/login' && !url.searchParams.has('error'));
});

it('signing out in one tab signs the other tab out too (storage event)', async () => {
  const email = await verifiedUser('two-tabs');
  await page.goto(`${suite.url}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${suite.url}/app`);

  const other = await page.context().newPage();
  await other.goto(`${suite.url}/app`);
  await other.getByTestId('signed-in-as').getByText(email).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${suite.url}/`);
  await other.waitForURL(`${suite.url}/login`);
  await other.close();
});
