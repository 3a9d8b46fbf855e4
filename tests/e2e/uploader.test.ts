// The /uploader console in a real browser against the real platform: a tile uploads into its bucket
// and lists the file with Copy ('Copied!'), the Song Submission panel's spec texts and its
// 'Submitted! ISRC ...', and the setup checklist showing the live buckets and tables.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { wav } from '../support/media';
import { storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('uploader', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let page: Page;
let fixtures: string;
let wavPath: string;
let pdfPath: string;

const shot = (name: string) => suite.shot(page, name);
const toast = (title: string) => suite.toast(page, title);

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-uploader-e2e-'));
  wavPath = join(fixtures, 'demo song.wav');
  pdfPath = join(fixtures, 'split sheet.pdf');
  writeFileSync(wavPath, wav(2, { tone: true }));
  writeFileSync(pdfPath, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  page = await suite.newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
});

afterAll(() => {
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

afterEach(async () => {
  await shot(`last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => {});
});

it("signed out: 'Not signed in', and the song panel's texts in the spec's order", async () => {
  await page.goto(`${suite.url}/uploader`);
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
  await storeSession(page, suite.url, await verifiedSession(suite.url, `console-${Date.now()}@example.com`));
  await page.goto(`${suite.url}/uploader`);
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
  expect((await fetch(new URL(href, suite.url))).status).toBe(200);
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
