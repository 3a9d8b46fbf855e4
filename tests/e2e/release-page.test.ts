// The release page (/release/:id) in a real browser against the real platform: a song from the
// /uploader's Song Submission says plainly that it is not queued for delivery (and what to do), a
// release is read once (its delivery arrives on the delivery stream), and a release the visitor cannot see
// (someone else's, or an id that cannot exist) says 'Release not found' after one request or none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { png, wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('release-page', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let page: Page;
let fixtures: string;
let wavPath: string;
let alice: ApiSession;
let bob: ApiSession;

const shot = (name: string) => suite.shot(page, name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts the page's requests for one release's API answer from now on. */
function countReleaseRequests(id: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/api/releases/${id}`) count++;
  });
  return () => count;
}

async function api(path: string, token: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${suite.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
}

/** Sign, PUT and complete one file as the web app does; returns its reference. */
async function upload(token: string, name: string, bytes: Buffer, contentType: string, role: string) {
  const signRes = await api('/api/uploads/sign', token, {
    method: 'POST',
    body: JSON.stringify({
      bucket: 'omni-assets',
      fileName: name,
      contentType,
      size: bytes.length,
      purpose: 'artist-upload',
    }),
  });
  expect(signRes.status).toBe(200);
  const signed = (await signRes.json()) as { signedUrl: string; fileKey: string; headers: object };
  // The signed headers carry the content type; the bearer proves the signer is the one sending.
  const put = await fetch(new URL(signed.signedUrl, suite.url), {
    method: 'PUT',
    headers: { ...signed.headers, authorization: `Bearer ${token}` },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBeLessThan(300);
  const done = await api('/api/uploads/complete', token, {
    method: 'POST',
    body: JSON.stringify({ bucket: 'omni-assets', fileKey: signed.fileKey, role }),
  });
  expect(done.status).toBe(200);
  return { bucket: 'omni-assets', fileKey: signed.fileKey };
}

/** A release from the artist upload's API, to three stores. */
async function releaseToThreeStores(token: string): Promise<string> {
  const audio = await upload(token, 'take.wav', wav(3, { tone: true }), 'audio/wav', 'audio');
  const artwork = await upload(token, 'cover.png', png(3000, 3000), 'image/png', 'artwork');
  const res = await api('/api/releases', token, {
    method: 'POST',
    body: JSON.stringify({
      artistName: 'Poll Artist',
      releaseTitle: 'Three Stores',
      trackTitle: 'Three Stores',
      releaseType: 'single',
      genre: 'Hip-Hop/Rap',
      explicit: false,
      audio,
      artwork,
      credits: { producers: ['Pro One'] },
      technical: {},
      legal: {},
      content: {},
      stores: ['spotify', 'tidal', 'deezer'],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-release-page-e2e-'));
  wavPath = join(fixtures, 'console song.wav');
  writeFileSync(wavPath, wav(3, { tone: true }));
  [alice, bob] = await Promise.all([
    verifiedSession(suite.url, `alice-${Date.now()}@example.com`),
    verifiedSession(suite.url, `bob-${Date.now()}@example.com`),
  ]);
});

beforeEach(async () => {
  page = await suite.newPage();
});

afterEach(async () => {
  await shot(`last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => {});
  await page?.context().close();
});

afterAll(() => {
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

it('a Song Submission from /uploader says it is not queued for delivery and what to do; nothing polls', async () => {
  await storeSession(page, suite.url, alice);
  await page.goto(`${suite.url}/uploader`);
  await page.getByLabel('Title', { exact: true }).fill('Console Song');
  await page.getByLabel('Artist Name', { exact: true }).fill('Console Artist');
  await page.getByLabel('Audio file', { exact: true }).setInputFiles(wavPath);
  await page.getByRole('button', { name: 'Submit Song' }).click();
  await page
    .getByTestId('song-status')
    .getByText(/^Submitted! ISRC QZQDU\d{7}/)
    .waitFor({ timeout: 20_000 });
  await page.getByRole('link', { name: 'View the release' }).click();
  await page.waitForURL(/\/release\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  const requests = countReleaseRequests(id);

  await page.getByRole('heading', { name: 'Console Song' }).waitFor();
  const delivery = page.getByTestId('delivery-card');
  await delivery.getByText('Not queued for delivery').waitFor();
  await delivery
    .getByText(/cover art/i)
    .first()
    .waitFor();
  expect(await delivery.getByRole('link', { name: 'Artist Upload' }).getAttribute('href')).toBe(
    '/artist-upload',
  );
  await shot('song-submission');
  await sleep(4500);
  expect(await page.getByText('Preparing delivery jobs…').count()).toBe(0);
  expect(await page.getByText('Updating…').count()).toBe(0);
  expect(await page.getByText('0 stores').count()).toBe(0);
  // No empty card: a console submission has no credits, technical details or lyrics.
  expect(await page.getByRole('heading', { name: 'Metadata' }).count()).toBe(0);
  // Loaded once (the page arrived with no request of its own in flight): nothing to wait for.
  expect(requests()).toBeLessThanOrEqual(1);
});

it('a release whose jobs are all queued is read once: its delivery arrives on the stream, nothing polls', async () => {
  const id = await releaseToThreeStores(alice.accessToken);
  await storeSession(page, suite.url, alice);
  const requests = countReleaseRequests(id);
  await page.goto(`${suite.url}/release/${id}`);
  await page.getByRole('heading', { name: 'Three Stores' }).waitFor();
  const rows = page.getByTestId('delivery-job');
  for (let i = 0; (await rows.count()) < 3 && i < 80; i++) await sleep(250);
  expect(await rows.count()).toBe(3);
  await sleep(5000);
  // The release itself is read once; what changes comes on the delivery stream.
  expect(requests()).toBe(1);
  expect(await page.getByText('Updating…').count()).toBe(0);
  await page.getByTestId('delivery-summary').getByText('3 stores').waitFor();
  await page.getByRole('heading', { name: 'Metadata' }).waitFor();
  await shot('queued');
});

it("someone else's release says 'Release not found' after one request, not after retries", async () => {
  const id = await releaseToThreeStores(alice.accessToken);
  await storeSession(page, suite.url, bob);
  const requests = countReleaseRequests(id);
  await page.goto(`${suite.url}/release/${id}`);
  await page.getByRole('heading', { name: 'Release not found' }).waitFor();
  await sleep(3500);
  expect(requests()).toBe(1);
  expect(await page.getByText('Loading release…').count()).toBe(0);
});

it("an id that cannot be a release says 'Release not found' without asking the server", async () => {
  await storeSession(page, suite.url, bob);
  let asked = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/releases/')) asked++;
  });
  await page.goto(`${suite.url}/release/not-a-release`);
  await page.getByRole('heading', { name: 'Release not found' }).waitFor();
  await shot('malformed');
  expect(asked).toBe(0);
  // The API says so at once too, without a trip to catalog.
  const res = await api('/api/releases/not-a-release', bob.accessToken);
  expect(res.status).toBe(404);
  expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/no such release/i);
});
