// Issue 21 §3.6 in a real browser: a release taken down from every store is offered again on its page
// ('Release again'); the artist chooses one store, confirms, and that store goes back through the steps to
// Live on the same page (the delivery stream), while the others stay taken down.

import { DELIVERY_MESSAGES } from '@omni/proto/api';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { png, wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const ADMIN_PASSWORD = 'admin-password-for-rerelease-tests';
const suite = browserSuite('rerelease', {
  env: {
    OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD,
    AUTH_RATE_LIMIT_PER_IP: '1000',
    STORE_SIMULATOR_DELAY_MS: '300',
    DELIVERY_POLL_MS: '200',
  },
});
jest.setTimeout(120_000);

const STORES = ['spotify', 'tidal', 'deezer'];
let artist: ApiSession;
let admin: ApiSession;

const call = (path: string, token: string, body?: unknown) =>
  fetch(`${suite.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  artist = await verifiedSession(suite.url, `rerelease-${Date.now()}@example.com`);
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  admin = (await res.json()) as ApiSession;
});

async function statuses(id: string): Promise<string[]> {
  const res = await call(`/api/releases/${id}/deliveries`, artist.accessToken);
  return ((await res.json()) as { jobs: { status: string }[] }).jobs.map((j) => j.status);
}

async function until(id: string, done: (s: string[]) => boolean, what: string) {
  const end = Date.now() + 60_000;
  while (!done(await statuses(id))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${await statuses(id)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A release delivered live to three stores, then taken down from all of them (through the API). */
async function takenDownRelease(title: string): Promise<string> {
  const token = artist.accessToken;
  const audio = await uploadFile(suite.url, token, {
    bucket: 'omni-assets',
    fileName: 'master.wav',
    contentType: 'audio/wav',
    bytes: wav(3, { tone: true }),
    role: 'audio',
  });
  const artwork = await uploadFile(suite.url, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const res = await call('/api/releases', token, {
    artistName: 'Again Artist',
    releaseTitle: title,
    trackTitle: title,
    releaseType: 'single',
    genre: 'Electronic',
    audio: { bucket: audio.bucket, fileKey: audio.fileKey },
    artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
    stores: STORES,
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { release: { id: string } }).release.id;
  await until(id, (s) => s.length === 3, 'the jobs');
  expect((await call(`/api/admin/releases/${id}/approve`, admin.accessToken, {})).status).toBe(200);
  await until(id, (s) => s.every((x) => x === 'live'), 'every store live');
  expect((await call(`/api/releases/${id}/takedown`, token, { stores: [] })).status).toBe(202);
  await until(id, (s) => s.every((x) => x === 'taken_down'), 'every store taken down');
  return id;
}

const storeCount = (page: Page, status: string) =>
  page
    .getByTestId('store-group')
    .and(page.locator(`[data-status="${status}"]`))
    .getByTestId('store-group-count');

it('offers a taken-down release again; the chosen store is delivered anew and turns Live on the page', async () => {
  const id = await takenDownRelease('Second Life');
  const page = await suite.newPage();
  await storeSession(page, suite.url, artist);
  await page.goto(`${suite.url}/release/${id}`);
  await page.getByRole('heading', { name: 'Second Life' }).waitFor();
  await storeCount(page, 'taken_down').getByText('3 stores').waitFor({ timeout: 15_000 });
  // Nothing is left to take down; what is offered is to release it again.
  expect(await page.getByRole('button', { name: 'Take down' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Release again' }).click();
  const dialog = page.getByRole('dialog', { name: 'Release “Second Life” again' });
  await dialog.getByText('All stores (3)').waitFor();
  await dialog.getByLabel('Only the stores I choose').check();
  // No store chosen: said in words, nothing sent.
  await dialog.getByRole('button', { name: 'Release again' }).click();
  await dialog.getByText('Choose at least one store.').waitFor();
  await dialog.getByLabel('Deezer').click();
  await suite.shot(page, 'rerelease-dialog');
  await dialog.getByRole('button', { name: 'Release again' }).click();
  await suite.toast(page, DELIVERY_MESSAGES.reReleaseQueued(1));
  await storeCount(page, 'live').getByText('1 store').waitFor({ timeout: 30_000 });
  await storeCount(page, 'taken_down').getByText('2 stores').waitFor();
  // Deezer went through every step again after its takedown.
  const deezer = page.locator('[data-testid="delivery-job"][data-store="deezer"]');
  await deezer.getByText('Deezer').click();
  await deezer.getByRole('list').getByText('Taken down', { exact: true }).waitFor();
  await deezer.getByRole('list').getByText('Live', { exact: true }).last().waitFor();
  await suite.shot(page, 'rerelease-live');
  await page.context().close();
});
