// The rights check's finding on the admin's Release Review screen, in Chromium: B's upload of A's song waits
// in review with the finding that says why, in words, naming A's release, track, score and offset. (The
// evidence line `ReviewFindings` adds under it is not asserted: this suite serves the last built web app.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stereoSong } from '../../services/delivery/test/support/synth-out-of-process';
import { browserSuite } from '../support/browser-suite';
import { png } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const suite = browserSuite('fingerprint-evidence', {
  env: { AUTH_RATE_LIMIT_PER_IP: '1000', OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD },
});
const dir = mkdtempSync(join(tmpdir(), 'omni-fp-e2e-'));

const stereo = (name: string, seed: number) => stereoSong(join(dir, `${name}.wav`), { seed, seconds: 40 });

async function release(session: ApiSession, title: string, bytes: Buffer): Promise<string> {
  const token = session.accessToken;
  const up = (fileName: string, contentType: string, b: Buffer, role: 'audio' | 'artwork') =>
    uploadFile(suite.url, token, { bucket: 'omni-assets', fileName, contentType, bytes: b, role });
  const audio = await up('master.wav', 'audio/wav', bytes, 'audio');
  const artwork = await up('cover.png', 'image/png', png(3000, 3000), 'artwork');
  const res = await fetch(`${suite.url}/api/releases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      artistName: 'Nova Reyes',
      releaseTitle: title,
      trackTitle: title,
      releaseType: 'single',
      genre: 'Pop',
      releaseDate: '2026-09-01',
      explicit: false,
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      stores: ['spotify'],
    }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

it('shows the admin a held release with the matched release as evidence', async () => {
  const a = await verifiedSession(suite.url, `a-${Date.now()}@example.com`);
  const b = await verifiedSession(suite.url, `b-${Date.now()}@example.com`);
  const song = stereo('a', 1);
  const original = await release(a, 'Original', song);
  await new Promise((r) => setTimeout(r, 3000));
  await release(b, 'Copy', song);
  const login = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  const page = await suite.newPage();
  await storeSession(page, suite.url, (await login.json()) as ApiSession);
  await page.waitForTimeout(4000);
  await page.goto(`${suite.url}/admin/releases`);
  const finding = page.getByText('sounds like a recording another artist released on Omni');
  await finding.waitFor({ timeout: 30_000 });
  expect(await finding.textContent()).toContain(`release ${original}, track 1 “Original”`);
  // The evidence as fields, under a Held badge: the matched release and track, score and offset.
  const evidence = page.getByTestId('fingerprint-evidence').first();
  await evidence.waitFor();
  expect(await evidence.textContent()).toMatch(
    new RegExp(`Matched release ${original}, track 1 “Original” · score (0\\.9\\d\\d|1\\.000)`),
  );
  await page.getByTestId('review-findings').getByText('Held', { exact: true }).first().waitFor();
  await page.screenshot({
    path: join(__dirname, '../.artifacts/fingerprint-evidence-admin-review.png'),
    fullPage: true,
  });
}, 180_000);
