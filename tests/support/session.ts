// Puts an API session into the browser the way the web app stores it (localStorage 'omni.session'), so a
// browser test can start signed in without walking through the sign-in screens again.
import type { Page } from 'playwright-core';

export interface ApiSession {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  user: unknown;
  profile: unknown;
}

export async function storeSession(page: Page, baseUrl: string, session: ApiSession): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.evaluate((s) => {
    const now = Date.now();
    // Runs in the page; typed loosely because the support files are also compiled without the DOM library.
    const storage = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } })
      .localStorage;
    storage.setItem(
      'omni.session',
      JSON.stringify({
        accessToken: s.accessToken,
        refreshToken: s.refreshToken,
        accessExpiresAt: now + s.expiresIn * 1000,
        refreshExpiresAt: now + s.refreshExpiresIn * 1000,
        user: s.user,
        profile: s.profile,
      }),
    );
  }, session);
}
