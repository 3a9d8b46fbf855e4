// Rights protection on Omni started as `npm start` starts it (a child process on a fresh data folder; on the
// cluster with OMNI_JOURNEY_TARGET=cluster). Artist A releases a song; artist B uploads A's master as their
// own. Review fingerprints it (fpcalc, a child process of delivery) and holds B's release: B reads why in
// words, without A's release named, and answers with a note and a PDF; the admin's Release Review shows the
// match with A's release and the answer, and the admin downloads the same PDF. A different song of B's is
// not held. The admin listens to both side by side (Compare audio).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { FpcalcFingerprinter } from '../../services/delivery/src/providers/fingerprinter/fpcalc';
import { launchBrowser } from '../support/browser';
import { fetchHoldApi, type HoldFinding, releaseSong, singleBody, songMaster } from '../support/rights-hold';
import { type ApiSession, verifiedSession } from '../support/session';
import { call, login } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { newEmail, PASSWORD, personPage, shot, signIn } from './support/people';

const missing = new FpcalcFingerprinter().missing();
const describeIfFpcalc = missing ? describe.skip : describe;
if (missing) console.log(`SKIPPED rights journey: ${missing}`);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const NOTE =
  'I bought an exclusive licence for this master from its producer in 2025; the contract is attached.';

let omni: Omni;
let dir: string;
let a: ApiSession;
let b: ApiSession;
let admin: ApiSession;
const bEmail = newEmail('rights-b');
let browser: Browser | undefined;
let originalId: string;
let copyId: string;
let otherId: string;

const api = fetchHoldApi(() => omni.url);

const release = (session: ApiSession, title: string, seed: number) =>
  releaseSong(
    api,
    session.accessToken,
    singleBody(title, 'Rights Journey'),
    songMaster(dir, `${title}-${seed}`, { seed, seconds: 60 }),
  );

interface Review {
  status: string;
  findings: HoldFinding[];
  proofs: Array<{ id: string; note: string; fileName: string; downloadUrl: string }>;
}

const artistReview = (session: ApiSession, id: string) =>
  eventually(
    async () => {
      const res = await call(omni.url, `/api/releases/${id}/deliveries`, session.accessToken);
      const review = ((await res.json()) as { review: Review | null }).review;
      // Delivery makes the review once its checks (the rights check among them) have run.
      return review ?? undefined;
    },
    `the review of ${id}`,
    180_000,
    1000,
  );

const adminRelease = async (id: string) => {
  const res = await call(omni.url, `/api/admin/releases/${id}`, admin.accessToken);
  expect(res.status).toBe(200);
  return (await res.json()) as { review: Review };
};

describeIfFpcalc('rights protection, as people use it', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-rights-journey-'));
    omni = await startOmni({ name: 'rights', env: { STORE_SIMULATOR_DELAY_MS: '0' } });
    a = await verifiedSession(omni.url, newEmail('rights-a'), PASSWORD);
    b = await verifiedSession(omni.url, bEmail, PASSWORD);
    admin = await login(omni.url, omni.admin.email, omni.admin.password);
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await omni?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('holds B’s upload of A’s master and tells B why, without naming A’s release', async () => {
    originalId = await release(a, 'Original Song', 7);
    // A's master is in the index once its review has run.
    await eventually(
      async () => (await adminRelease(originalId)).review ?? undefined,
      'A’s review',
      180_000,
      1000,
    );
    copyId = await release(b, 'My Song', 7);
    otherId = await release(b, 'Different Song', 8);

    const held = await artistReview(b, copyId);
    const hold = held.findings.find((f) => f.match?.decision === 'hold');
    expect(hold).toBeDefined();
    expect(hold?.message).toContain('send your proof');
    expect(JSON.stringify(held)).not.toContain(originalId);

    const other = await artistReview(b, otherId);
    expect(other.findings.filter((f) => f.rule === 'fingerprint-match')).toEqual([]);
  }, 420_000);

  it('the admin sees A’s release as the evidence', async () => {
    const { review } = await adminRelease(copyId);
    const hold = review.findings.find((f) => f.match?.decision === 'hold');
    expect(hold?.match).toMatchObject({ releaseId: originalId, track: 1, title: 'Original Song' });
    expect(hold?.match?.score).toBeGreaterThanOrEqual(0.9);
    expect(hold?.match?.uploadTrack).toBe(1);
    // Both recordings play for the admin, seekable (the store answers the Range: its own, or S3's).
    for (const id of [copyId, originalId]) {
      const part = await call(omni.url, `/api/admin/releases/${id}/tracks/1/audio`, admin.accessToken, {
        headers: { range: 'bytes=0-1023' },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-type')).toBe('audio/wav');
      expect((await part.arrayBuffer()).byteLength).toBe(1024);
    }
    // Never to an artist, not even the owner.
    const owner = await call(omni.url, `/api/admin/releases/${originalId}/tracks/1/audio`, a.accessToken);
    expect(owner.status).toBe(403);
  });

  it('in Chromium: B sends proof of rights; the admin reads it and downloads the same PDF', async () => {
    browser = await launchBrowser();
    const page = await personPage(browser);
    await signIn(page, omni.url, bEmail, PASSWORD);
    await page.goto(`${omni.url}/release/${copyId}`);
    const card = page.getByTestId('rights-proof');
    await card
      .getByText('Another artist’s recording on Omni sounds the same as your master for track 1')
      .waitFor({ timeout: 30_000 });
    expect(await page.content()).not.toContain(originalId);
    await card.getByLabel('Your note').fill(NOTE);
    await card.locator('input[type=file]').setInputFiles({
      name: 'licence.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await card.getByRole('button', { name: 'Send proof of rights' }).click();
    await page.getByTestId('rights-proofs-sent').getByText(NOTE.slice(0, 40)).waitFor({ timeout: 30_000 });
    await shot(page, 'rights', 'artist-proof-sent');

    const { review } = await adminRelease(copyId);
    expect(review.proofs[0]).toMatchObject({ note: NOTE, fileName: 'licence.pdf' });
    const file = await call(omni.url, review.proofs[0]!.downloadUrl, admin.accessToken);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    // B may not use the admin's route.
    expect((await call(omni.url, review.proofs[0]!.downloadUrl, b.accessToken)).status).toBe(403);

    const adminPage = await personPage(browser);
    await signIn(adminPage, omni.url, omni.admin.email, omni.admin.password);
    await adminPage.goto(`${omni.url}/admin/releases`);
    const item = adminPage.locator(`[data-release-id="${copyId}"]`);
    await item.getByTestId('rights-proofs').getByText(NOTE.slice(0, 40)).waitFor({ timeout: 30_000 });
    expect(await item.getByTestId('fingerprint-evidence').first().textContent()).toContain(originalId);
    await item.getByRole('button', { name: 'Compare audio' }).click();
    const waves = item.getByTestId('evidence-waveform');
    await waves.nth(1).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
    await waves.nth(0).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
    await shot(adminPage, 'rights', 'admin-review');
  }, 240_000);
});
