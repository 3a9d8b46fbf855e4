// What the journeys' people do in a browser against an Omni started by omni-process.ts: a browser of their
// own (a context each, so an admin and an artist never share a session), the dev mailbox read as a person
// reads it (/dev/mailbox, a link clicked), the sign-in form, toasts and screenshots.
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { artifacts } from '../../support/browser';
import { mailpitFor, mailpitLink } from '../../support/mailpit';
import { eventually } from './omni-process';

export const DESKTOP = { width: 1280, height: 900 };
export const PASSWORD = 'correct-horse-42';

/** A unique address per run (several runs share one machine, never one data folder). */
export const newEmail = (who: string) =>
  `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A page in a browser context of its own: another person, another browser. */
export async function personPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true, ...options });
  return context.newPage();
}

/** A full-page screenshot at tests/.artifacts/journey-<journey>-<name>.png. */
export async function shot(page: Page, journey: string, name: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, `journey-${journey}-${name}.png`), fullPage: true });
}

/** Waits for a toast with this title (and description, when given). */
export async function toast(page: Page, title: string, description?: string, timeout = 30_000) {
  let toasts = page.locator('[data-sonner-toast]').filter({ hasText: title });
  if (description) toasts = toasts.filter({ hasText: description });
  await toasts.first().waitFor({ timeout });
}

/**
 * Opens the dev mailbox filtered to `email` (what the banner points a newcomer at), waits for a mail with a
 * link carrying `param` (verify, magic, reset) and follows it, as a person clicks it.
 */
export async function followMailedLink(page: Page, url: string, email: string, param: string): Promise<void> {
  const mailpit = mailpitFor.get(url);
  if (mailpit) return page.goto(await mailpitLink(mailpit, email, param)).then(() => undefined);
  const mailbox = `${url}/dev/mailbox?to=${encodeURIComponent(email)}`;
  const link = page.locator(`article a[href*="${param}="]`).first();
  await eventually(
    async () => {
      await page.goto(mailbox);
      return (await link.count()) > 0 ? true : undefined;
    },
    `a mail to ${email} with a ?${param}= link at /dev/mailbox`,
    60_000,
    500,
  );
  await link.click();
}

/** Signs in on /login with a password, as a person does, and waits for /app. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${url}/app`, { timeout: 30_000 });
}

/** Signs up on /signup and confirms the address from the dev mailbox; ends signed in on /app. */
export async function signUpAndVerify(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await toast(page, 'Account created!');
  await page.waitForURL(`${url}/login`, { timeout: 30_000 });
  await followMailedLink(page, url, email, 'verify');
  await page.waitForURL(`${url}/app`, { timeout: 30_000 });
  await page.getByTestId('signed-in-as').getByText(email).waitFor({ timeout: 30_000 });
}
