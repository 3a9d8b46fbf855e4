// The set-up every browser suite shares: a test platform and headless Chromium started before the suite's
// tests and closed after them, fresh pages, screenshots into tests/.artifacts, polling, toasts and the
// sign-in form. `const suite = browserSuite('release', { env: {...} })` at the top of a suite registers
// the hooks; the suite reads `suite.url`, `suite.platform` and `suite.browser` inside its tests.
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { artifacts, launchBrowser } from './browser';
import { startTestPlatform, type TestPlatform } from './platform';

export interface BrowserSuite {
  readonly platform: TestPlatform;
  readonly browser: Browser;
  /** The platform's public address (what the browser opens). */
  readonly url: string;
  /** A page in a context of its own (desktop-sized unless `options` say otherwise). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** A full-page screenshot at tests/.artifacts/<suite>-<name>.png, for a person to look at. */
  shot(page: Page, name: string): Promise<void>;
  /** The toasts on screen (not those on their way out), as their text. */
  toasts(page: Page): Promise<string[]>;
  /** Waits for a toast with this title (and description, when given) to show. */
  toast(page: Page, title: string, description?: string): Promise<void>;
  /** Fills and sends the sign-in form on the page it is on. */
  signIn(page: Page, email: string, password: string): Promise<void>;
  /**
   * Pages a test opens (tabs included) to screenshot as `last-<test>-<n>` and close after each test:
   * `suite.keepPages()` once at the top, then `pages.push(page)`.
   */
  keepPages(): Page[];
}

type StartOptions = NonNullable<Parameters<typeof startTestPlatform>[0]>;

export const DESKTOP = { width: 1280, height: 900 };

/** `options` may be a function when they depend on something an earlier hook starts (a fake Keycloak). */
export function browserSuite(name: string, options: StartOptions | (() => StartOptions) = {}): BrowserSuite {
  let platform: TestPlatform | undefined;
  let browser: Browser | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`The ${what} is not started yet: use it inside a test or a hook.`);
    return value;
  };

  beforeAll(async () => {
    platform = await startTestPlatform(typeof options === 'function' ? options() : options);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  return {
    get platform() {
      return started(platform, 'platform');
    },
    get browser() {
      return started(browser, 'browser');
    },
    get url() {
      return started(platform, 'platform').url;
    },
    async newPage(contextOptions = { viewport: DESKTOP }) {
      const context = await started(browser, 'browser').newContext(contextOptions);
      return context.newPage();
    },
    async shot(page, shotName) {
      await page.screenshot({ path: join(artifacts, `${name}-${shotName}.png`), fullPage: true });
    },
    toasts: (page) => page.locator('[data-sonner-toast]:not([data-removed="true"])').allInnerTexts(),
    async toast(page, title, description) {
      let toasts = page.locator('[data-sonner-toast]').filter({ hasText: title });
      if (description) toasts = toasts.filter({ hasText: description });
      await toasts.first().waitFor({ timeout: 15_000 });
    },
    keepPages() {
      const pages: Page[] = [];
      afterEach(async () => {
        const test = expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 50);
        for (const [index, page] of pages.entries()) {
          if (!page.isClosed())
            await page
              .screenshot({ path: join(artifacts, `${name}-last-${test}-${index}.png`), fullPage: true })
              .catch(() => {});
        }
        await pages[0]?.context().close();
        pages.length = 0;
      });
      return pages;
    },
    async signIn(page, email, password) {
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign In' }).click();
    },
  };
}

/**
 * Polls `read` every 100 ms until `check` accepts what it returns, and returns that; after `ms` the
 * failure names `what` was expected and the last value seen.
 */
export async function until<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`Expected ${what}; saw: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
