// The admin judges a rights-check match in Chromium (issue 27): B's upload is A's song without its first
// 10 s. On Release Review it is Held with the evidence (A's release and track, score, offset); the admin opens "Compare audio": both recordings load as waveforms side by side
// (the matched part marked), and "Play both at the match" plays B's upload from its start and A's recording
// from 10 s, together. The artist's own release page has no such panel.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seriousAxeViolations } from '../support/axe';
import { browserSuite, until } from '../support/browser-suite';
import { artistReviewOf, fetchHoldApi, releaseSong, singleBody, songMaster } from '../support/rights-hold';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const suite = browserSuite('match-evidence', {
  env: { AUTH_RATE_LIMIT_PER_IP: '1000', OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD },
});
const dir = mkdtempSync(join(tmpdir(), 'omni-match-evidence-e2e-'));
const CUT_SECONDS = 10;

const api = fetchHoldApi(() => suite.url);

/** The WAV without its first `seconds` (a plain 44-byte header, as songMaster writes). */
function cutStart(wav: Buffer, seconds: number): Buffer {
  const byteRate = wav.readUInt32LE(28);
  const data = wav.subarray(44 + seconds * byteRate);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const waitFor = async <T>(probe: () => Promise<T | undefined>, ms: number, what: string) =>
  (await until(probe, (v) => v !== undefined, what, ms)) as T;

const seconds = (text: string | null) => Number((text ?? '').split(' s')[0]);

it('the admin sees both waveforms and plays both from the match; the artist gets no panel', async () => {
  const a = await verifiedSession(suite.url, `a-${Date.now()}@example.com`);
  const b = await verifiedSession(suite.url, `b-${Date.now()}@example.com`);
  const song = songMaster(dir, 'song', { seed: 5, seconds: 50 });
  const original = await releaseSong(api, a.accessToken, singleBody('Original'), song);
  await artistReviewOf(api, a.accessToken, original, waitFor);
  const copy = await releaseSong(api, b.accessToken, singleBody('Copy'), cutStart(song, CUT_SECONDS));
  await waitFor(
    async () => {
      const review = await artistReviewOf(api, b.accessToken, copy, waitFor);
      return review.findings.some((f) => f.match?.decision === 'hold') ? true : undefined;
    },
    120_000,
    'the hold',
  );

  const login = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  const admin = await suite.newPage();
  await storeSession(admin, suite.url, (await login.json()) as ApiSession);
  await admin.goto(`${suite.url}/admin/releases`);
  const item = admin.locator(`[data-testid="review-item"][data-release-id="${copy}"]`);
  // The finding in words and as fields under a Held badge: the matched release and track, score, offset.
  const evidence = item.getByTestId('fingerprint-evidence').first();
  await evidence.waitFor({ timeout: 30_000 });
  expect(await evidence.textContent()).toMatch(
    new RegExp(`Matched release ${original}, track 1 “Original” · score 0\\.9\\d\\d · from 10\\.\\d s`),
  );
  await item.getByTestId('review-findings').getByText('Held', { exact: true }).waitFor();
  await item.getByRole('button', { name: 'Compare audio' }).click();
  const panel = item.getByTestId('match-evidence-panel');
  const waves = panel.getByTestId('evidence-waveform');
  await waves.nth(0).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  await waves.nth(1).locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  expect(await waves.nth(0).textContent()).toContain('This upload, track 1');
  expect(await waves.nth(1).textContent()).toContain(`Matched: release ${original}, track 1`);
  for (const i of [0, 1]) {
    const box = await waves.nth(i).locator('canvas').first().boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    expect(box?.height ?? 0).toBeGreaterThan(20);
  }
  await suite.shot(admin, 'admin-compare');

  await panel.getByRole('button', { name: 'Play both at the match' }).click();
  const times = panel.getByTestId('evidence-time');
  await until(
    async () => seconds(await times.nth(0).textContent()),
    (t) => t >= 1,
    'the upload playing',
    15_000,
  );
  const upload = seconds(await times.nth(0).textContent());
  const matched = seconds(await times.nth(1).textContent());
  // The two play in step: the matched recording runs CUT_SECONDS ahead (the aligned offset).
  expect(Math.abs(matched - upload - CUT_SECONDS)).toBeLessThan(1.5);
  await panel.getByRole('button', { name: 'Pause both' }).click();
  expect(await seriousAxeViolations(admin)).toEqual([]);

  await admin.setViewportSize({ width: 390, height: 844 });
  await suite.shot(admin, 'admin-compare-mobile');

  // The artist's release page never offers the other artist's audio.
  const page = await suite.newPage();
  await storeSession(page, suite.url, b);
  await page.goto(`${suite.url}/release/${copy}`);
  await page.getByTestId('rights-proof').waitFor({ timeout: 30_000 });
  expect(await page.getByRole('button', { name: 'Compare audio' }).count()).toBe(0);
}, 300_000);
