// Puts an API session into the browser the way the web app stores it (localStorage 'omni.session'), so a
// browser test can start signed in without walking through the sign-in screens again.
import type { Page } from 'playwright-core';
import { mailpitFor, mailpitLink } from './mailpit';

export interface ApiSession {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  user: unknown;
  profile: unknown;
}

/** The value the web app keeps under localStorage 'omni.session' for this API session, as of now. */
export function storedSession(session: ApiSession): string {
  const now = Date.now();
  return JSON.stringify({
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    accessExpiresAt: now + session.expiresIn * 1000,
    refreshExpiresAt: now + session.refreshExpiresIn * 1000,
    user: session.user,
    profile: session.profile,
  });
}

export async function storeSession(page: Page, baseUrl: string, session: ApiSession): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.evaluate((stored) => {
    // Runs in the page; typed loosely because the support files are also compiled without the DOM library.
    const storage = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } })
      .localStorage;
    storage.setItem('omni.session', stored);
  }, storedSession(session));
}

/**
 * A new account, verified through the dev mailbox (Mailpit on a cluster) and signed in through the API: what a browser test
 * needs to start as an artist. Fails the test if any step is refused.
 */
export async function verifiedSession(
  baseUrl: string,
  email: string,
  password = 'correct-horse-42',
): Promise<ApiSession> {
  const post = async (path: string, body: unknown, expected: number) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== expected) throw new Error(`POST ${path}: ${res.status}, expected ${expected}`);
    return res;
  };
  await post('/api/auth/signup', { email, password }, 201);
  const mailpit = mailpitFor.get(baseUrl);
  if (mailpit) {
    const link = await mailpitLink(mailpit, email, 'verify');
    await post('/api/auth/verify', { token: new URL(link).searchParams.get('verify') }, 200);
    return (await post('/api/auth/login', { email, password }, 200)).json() as Promise<ApiSession>;
  }
  const deadline = Date.now() + 10_000;
  let token: string | null = null;
  while (!token) {
    const res = await fetch(`${baseUrl}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const { messages } = (await res.json()) as { messages: { links: string[] }[] };
    const link = messages[0]?.links.find((l) => new URL(l).searchParams.has('verify'));
    token = link ? new URL(link).searchParams.get('verify') : null;
    if (!token && Date.now() > deadline) throw new Error(`No verification mail to ${email}`);
    if (!token) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await post('/api/auth/verify', { token }, 200);
  return (await post('/api/auth/login', { email, password }, 200)).json() as Promise<ApiSession>;
}
