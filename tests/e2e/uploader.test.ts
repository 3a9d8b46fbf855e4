// The /uploader console in a real browser against the real platform: a tile uploads into its bucket
// and lists the file with Copy ('Copied!'), the Song Submission panel's spec texts and its
// 'Submitted! ISRC ...', and the setup checklist showing the live buckets and tables.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { artifacts, launchBrowser } from '../support/browser';
import { wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { storeSession, verifiedSession } from '../support/session';

let platform: TestPlatform;
let browser: Browser;
let page: Page;
let fixtures: string;
let wavPath: string;
let pdfPath: string;

const shot = (name: string) =>
  page.screenshot({ path: join(artifacts, `uploader-${name}.png`), fullPage: true });

async function toast(title: string): Promise<void> {
  await page.locator('[data-sonner-toast]').filter({ hasText: title }).first().waitFor({ timeout: 15_000 });
}

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-uploader-e2e-'));
  wavPath = join(fixtures, 'demo song.wav');
  pdfPath = join(fixtures, 'split sheet.pdf');
  writeFileSync(wavPath, wav(2, { tone: true }));
  writeFileSync(pdfPath, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  platform = await startTestPlatform({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  page = await context.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

afterEach(async () => {
  await shot(`last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => {});
});

it("signed out: 'Not signed in', and the song panel's texts in the spec's order", async () => {
  await page.goto(`${platform.url}/uploader`);
  await page.getByTestId('uploader-session').getByText('Not signed in').waitFor();
  const status = page.getByTestId('song-status');
  await page.getByRole('button', { name: 'Submit Song' }).click();
  await status.getByText('Title and Artist required.').waitFor();
  await page.getByLabel('Title', { exact: true }).fill('Demo');
  await page.getByLabel('Artist Name', { exact: true }).fill('Test Artist');
  await page.getByRole('button', { name: 'Submit Song' }).click();
  await status.getByText('Choose an audio file.').waitFor();
  await page.getByLabel('Audio file', { exact: true }).setInputFiles(wavPath);
  await page.getByRole('button', { name: 'Submit Song' }).click();
  await status.getByText('Sign in first.').waitFor();
});

it('signed in: tile upload with link and Copy, song submitted with an ISRC, live checklist', async () => {
  await storeSession(
    page,
    platform.url,
    await verifiedSession(platform.url, `console-${Date.now()}@example.com`),
  );
  await page.goto(`${platform.url}/uploader`);
  await page.getByTestId('uploader-session').getByText('Signed in as').waitFor();

  // The checklist reflects the server: all seven buckets exist.
  const checklist = page.getByTestId('setup-checklist');
  await checklist.waitFor();
  expect(await checklist.locator('li[data-state="ok"]').filter({ hasText: 'Bucket' }).count()).toBe(7);

  // The contracts tile picks its bucket and restricts the picker to PDF and Word.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('tile-contracts').click();
  const picker = await chooser;
  expect(await page.locator('input[name="bucket"][value="contracts"]').isChecked()).toBe(true);
  expect(await page.getByTestId('bucket-file-input').getAttribute('accept')).toContain('application/pdf');
  await page.getByLabel('Subfolder (optional)').fill('deals');
  await picker.setFiles(pdfPath);
  await page
    .getByTestId('upload-status')
    .getByText(/^Uploaded split sheet\.pdf to contracts\//)
    .waitFor();
  const link = page.getByTestId('uploaded-files').getByRole('link').first();
  expect(await link.textContent()).toMatch(/^contracts\/.*deals.*split_sheet\.pdf$/);
  const href = (await link.getAttribute('href')) ?? '';
  expect((await fetch(new URL(href, platform.url))).status).toBe(200);
  await page
    .getByRole('button', { name: /^Copy link to/ })
    .first()
    .click();
  await toast('Copied!');

  // Song Submission: blank ISRC = allocated by the server.
  await page.getByLabel('Title', { exact: true }).fill('Demo Song');
  await page.getByLabel('Artist Name', { exact: true }).fill('Test Artist');
  await page.getByLabel('Audio file', { exact: true }).setInputFiles(wavPath);
  await page.getByRole('button', { name: 'Submit Song' }).click();
  await page
    .getByTestId('song-status')
    .getByText(/^Submitted! ISRC QZQDU\d{7}$/)
    .waitFor({ timeout: 20_000 });
  await shot('signed-in');
});
