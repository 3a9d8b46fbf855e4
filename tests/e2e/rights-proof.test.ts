// Proof of rights in Chromium (issue 27): B's upload of A's song is held by the rights check. On B's release
// page B reads why, in plain words that do not name A's release, sends a note and a PDF, sees a toast and the
// answer listed; the admin's Release Review shows the note and downloads the PDF.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserSuite, until } from '../support/browser-suite';
import { artistReviewOf, fetchHoldApi, releaseSong, singleBody, songMaster } from '../support/rights-hold';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const suite = browserSuite('rights-proof', {
  env: { AUTH_RATE_LIMIT_PER_IP: '1000', OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD },
});
const dir = mkdtempSync(join(tmpdir(), 'omni-rights-proof-e2e-'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const api = fetchHoldApi(() => suite.url);

const waitFor = async <T>(probe: () => Promise<T | undefined>, ms: number, what: string) =>
  (await until(probe, (v) => v !== undefined, what, ms)) as T;

it('B answers a rights hold with a note and a PDF; the admin reads it and downloads the file', async () => {
  const a = await verifiedSession(suite.url, `a-${Date.now()}@example.com`);
  const b = await verifiedSession(suite.url, `b-${Date.now()}@example.com`);
  const song = songMaster(dir, 'song', { seed: 1, seconds: 40 });
  const original = await releaseSong(api, a.accessToken, singleBody('Original'), song);
  await artistReviewOf(api, a.accessToken, original, waitFor);
  const copy = await releaseSong(api, b.accessToken, singleBody('Copy'), song);
  await waitFor(
    async () => {
      const review = await artistReviewOf(api, b.accessToken, copy, waitFor);
      return review.findings.some((f) => f.match?.decision === 'hold') ? true : undefined;
    },
    120_000,
    'the hold',
  );

  const page = await suite.newPage();
  await storeSession(page, suite.url, b);
  await page.goto(`${suite.url}/release/${copy}`);
  const card = page.getByTestId('rights-proof');
  await card
    .getByText('Another artist’s recording on Omni sounds the same as your master for track 1')
    .waitFor({
      timeout: 60_000,
    });
  // The artist is not told whose recording it is.
  expect(await page.locator('body').textContent()).not.toContain(original);
  // An empty note is refused before anything is sent.
  await card.getByRole('button', { name: 'Send proof of rights' }).click();
  await card.getByText('Write a note').waitFor();

  const pdfPath = join(dir, 'licence.pdf');
  writeFileSync(pdfPath, PDF);
  await card.getByLabel('Your note').fill('I licensed this master from its owner; the licence is attached.');
  await card.locator('input[type=file]').setInputFiles(pdfPath);
  await card.getByRole('button', { name: 'Send proof of rights' }).click();
  await suite.toast(page, 'Your proof of rights was sent. An admin will read it before deciding.');
  await page.getByTestId('rights-proofs-sent').getByText('I licensed this master from its owner').waitFor();
  await suite.shot(page, 'artist-sent');

  const login = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  const admin = await suite.newPage();
  await storeSession(admin, suite.url, (await login.json()) as ApiSession);
  await admin.goto(`${suite.url}/admin/releases`);
  const proofs = admin.locator(`[data-release-id="${copy}"]`).getByTestId('rights-proofs');
  await proofs.getByText('I licensed this master from its owner').waitFor({ timeout: 30_000 });
  const [download] = await Promise.all([
    admin.waitForEvent('download'),
    proofs.getByRole('button', { name: /licence\.pdf/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('licence.pdf');
  const saved = join(dir, 'downloaded.pdf');
  await download.saveAs(saved);
  expect(readFileSync(saved).equals(PDF)).toBe(true);
  await suite.shot(admin, 'admin-review');
}, 300_000);
