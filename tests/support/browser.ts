// Headless Chromium (Debian's package) driven by playwright-core, with the flags this machine needs.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifacts = join(__dirname, '../.artifacts');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install Debian's package: apt-get install -y chromium (.ci/run does).`,
    );
  }
  mkdirSync(artifacts, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/**
 * Waits until the shell has replaced a page rendered at build time (#omni-prerender) with the live
 * one. Until then the page shows but its buttons do nothing: a test that clicks one must wait.
 * Returns at once on pages that were not prerendered.
 */
export async function waitForLivePage(page: Page): Promise<void> {
  await page.locator('#omni-prerender').waitFor({ state: 'detached' });
}
