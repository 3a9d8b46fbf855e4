// Issue 21 §3.7 in a real browser: a console song submission refused after its upload (an ISRC another
// track has) leaves no orphan, and the retry takes the same file name: the person's audio files hold one
// "Retry_Song-demo_song.wav", never "-2", "-3" beside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('song-retry', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let page: Page;
let fixtures: string;
let wavPath: string;
let session: ApiSession;

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-song-retry-'));
  wavPath = join(fixtures, 'demo song.wav');
  writeFileSync(wavPath, wav(2, { tone: true }));
  page = await suite.newPage();
  session = await verifiedSession(suite.url, `retry-${Date.now()}@example.com`);
  await storeSession(page, suite.url, session);
});
afterAll(() => {
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

async function submit(title: string, isrc: string): Promise<string> {
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Artist Name', { exact: true }).fill('Retry Artist');
  await page.getByLabel('ISRC', { exact: true }).fill(isrc);
  await page.getByLabel('Audio file', { exact: true }).setInputFiles(wavPath);
  // The status of this try, not the last one's: it reads 'Creating the release…' until the answer is in.
  await Promise.all([
    page.waitForResponse((res) => new URL(res.url()).pathname === '/api/songs'),
    page.getByRole('button', { name: 'Submit Song' }).click(),
  ]);
  const status = page.getByTestId('song-status');
  await status.getByText(/^(Submitted! ISRC|ISRC .* already used)/).waitFor({ timeout: 20_000 });
  return (await status.textContent()) ?? '';
}

async function audioFiles(): Promise<string[]> {
  const res = await fetch(`${suite.url}/api/uploads?bucket=audio&limit=200`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { files: { fileKey: string }[] }).files.map((f) => f.fileKey);
}

it('a refused song submission leaves no file, and the retry reuses its name', async () => {
  await page.goto(`${suite.url}/uploader`);
  await page.getByTestId('uploader-session').getByText('Signed in as').waitFor();
  const first = await submit('Demo Song', '');
  const isrc = /ISRC (\S+)$/.exec(first)?.[1];
  expect(isrc).toMatch(/^QZQDU\d{7}$/);

  // Twice refused (the ISRC is the first song's), then accepted without it.
  for (let i = 0; i < 2; i++) {
    const refused = await submit('Retry Song', isrc!);
    expect(refused).toContain(`ISRC ${isrc} is already used by another track.`);
    expect((await audioFiles()).filter((k) => k.includes('Retry_Song'))).toEqual([]);
  }
  await page
    .getByTestId('song-status')
    .getByText(/already used/)
    .waitFor();
  const done = await submit('Retry Song', '');
  expect(done).toMatch(/^Submitted! ISRC QZQDU\d{7}$/);
  await suite.shot(page, 'song-retry-done');
  const files = (await audioFiles()).filter((k) => k.includes('Retry_Song'));
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/\/Retry_Song-demo_song\.wav$/);
});
