// Delivery in a real browser against the real platform (the store simulator answers for the stores): an
// artist submits a release, its page says 'In review'; an admin approves it on /admin/releases; the
// artist's page, left open, shows the stores move to Live without a reload (the delivery stream), with each
// store's steps and its DDEX message. Screens at desktop and phone (390 px) widths are kept as screenshots.

import { DELIVERY_MESSAGES } from '@omni/proto/api';
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { browserSuite } from '../support/browser-suite';
import { png, wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const ADMIN_PASSWORD = 'admin-password-for-delivery-tests';
const suite = browserSuite('delivery', {
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

beforeAll(async () => {
  artist = await verifiedSession(suite.url, `delivery-${Date.now()}@example.com`);
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  admin = (await res.json()) as ApiSession;
});

/** The artist's release, submitted as the upload page does: both files uploaded, then the release. */
async function submitRelease(title: string): Promise<string> {
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
  const res = await fetch(`${suite.url}/api/releases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      artistName: 'Stream Artist',
      releaseTitle: title,
      trackTitle: title,
      releaseType: 'single',
      genre: 'Electronic',
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      stores: STORES,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

const storeCount = (page: Page, status: string) =>
  page
    .getByTestId('store-group')
    .and(page.locator(`[data-status="${status}"]`))
    .getByTestId('store-group-count');

it('an artist submits, an admin approves, the release page shows the stores turning live without a reload', async () => {
  const id = await submitRelease('Open Window');

  // The artist's page, opened once and never reloaded.
  const artistPage = await suite.newPage();
  await storeSession(artistPage, suite.url, artist);
  await artistPage.goto(`${suite.url}/release/${id}`);
  await artistPage.getByRole('heading', { name: 'Open Window' }).waitFor();
  await artistPage.getByTestId('release-status').getByText('In review').waitFor({ timeout: 15_000 });
  await artistPage.getByText(DELIVERY_MESSAGES.reviewWait).waitFor();
  await storeCount(artistPage, 'queued').getByText('3 stores').waitFor();
  await artistPage.evaluate(() => {
    (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  await suite.shot(artistPage, 'artist-in-review');
  expect(await seriousAxeViolations(artistPage)).toEqual([]);

  // The admin's queue: the release with its details, approved from there.
  const adminPage = await suite.newPage();
  await storeSession(adminPage, suite.url, admin);
  await adminPage.goto(`${suite.url}/admin/releases`);
  await adminPage.getByRole('heading', { name: 'Release Review' }).waitFor();
  const item = adminPage.locator(`[data-testid="review-item"][data-release-id="${id}"]`);
  await item.waitFor({ timeout: 15_000 });
  await item.getByText('Stream Artist').waitFor();
  await item.getByText('3 stores', { exact: false }).waitFor();
  await item.getByText(/submitted .* ago/).waitFor();
  await suite.shot(adminPage, 'admin-queue');
  expect(await seriousAxeViolations(adminPage)).toEqual([]);
  await item.getByRole('button', { name: 'Approve Open Window' }).click();
  await suite.toast(adminPage, DELIVERY_MESSAGES.approved);
  await item.waitFor({ state: 'detached' });

  // Back on the artist's page, untouched: the stores arrive at Live by themselves.
  await storeCount(artistPage, 'live')
    .getByText('3 stores')
    .waitFor({ timeout: 60_000 })
    .catch(async (error: Error) => {
      // Say where delivery stands, not only that the page did not show it.
      await suite.shot(artistPage, 'artist-not-live');
      const res = await fetch(`${suite.url}/api/releases/${id}/deliveries`, {
        headers: { authorization: `Bearer ${artist.accessToken}` },
      });
      throw new Error(`${error.message}\ndeliveries: ${await res.text()}`);
    });
  await artistPage.getByTestId('release-status').getByText('Live').waitFor();
  expect(
    await artistPage.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
  // Each store lists its steps with their times, and offers the DDEX message it was sent.
  const spotify = artistPage.locator('[data-testid="delivery-job"][data-store="spotify"]');
  await spotify.getByText('Spotify').click();
  for (const step of ['Queued', 'Packaging', 'Sent', 'Acknowledged', 'Live'])
    await spotify.getByRole('list').getByText(step, { exact: true }).waitFor();
  const [download] = await Promise.all([
    artistPage.waitForEvent('download'),
    spotify.getByRole('button', { name: /DDEX message sent to Spotify/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^\d+_spotify\.xml$/);
  await suite.shot(artistPage, 'artist-live');

  // Taken down from one chosen store: that store moves to 'Taken down' on the same page.
  await artistPage.getByRole('button', { name: 'Take down' }).click();
  const takedown = artistPage.getByRole('dialog', { name: 'Take down “Open Window”' });
  await takedown.getByLabel('Only the stores I choose').check();
  await takedown.getByLabel('Deezer').click();
  await suite.shot(artistPage, 'takedown-dialog');
  await takedown.getByRole('button', { name: 'Take down' }).click();
  await suite.toast(artistPage, DELIVERY_MESSAGES.takedownQueued(1));
  await storeCount(artistPage, 'taken_down').getByText('1 store').waitFor({ timeout: 30_000 });
  await storeCount(artistPage, 'live').getByText('2 stores').waitFor();

  // The same page on a phone.
  const phone = await suite.newPage({ viewport: { width: 390, height: 844 } });
  await storeSession(phone, suite.url, artist);
  await phone.goto(`${suite.url}/release/${id}`);
  await storeCount(phone, 'live').getByText('2 stores').waitFor();
  await storeCount(phone, 'taken_down').getByText('1 store').waitFor();
  await suite.shot(phone, 'artist-live-390');
  // The artist has no Purge; an admin on the same page purges the taken-down store completely.
  expect(await artistPage.getByRole('button', { name: 'Purge' }).count()).toBe(0);
  await adminPage.goto(`${suite.url}/release/${id}`);
  await adminPage.getByRole('button', { name: 'Purge' }).click();
  const purge = adminPage.getByRole('dialog', { name: 'Purge “Open Window”' });
  await purge.getByLabel('Only the stores I choose').check();
  await purge.getByLabel('Deezer').click();
  await purge.getByRole('button', { name: 'Purge' }).click();
  await suite.toast(adminPage, DELIVERY_MESSAGES.purgeQueued(1));
  await storeCount(adminPage, 'purged').getByText('1 store').waitFor({ timeout: 30_000 });
  await suite.shot(adminPage, 'admin-purged');
  for (const page of [artistPage, adminPage, phone]) await page.context().close();
});

it('an admin rejects with a reason; the artist sees it and can fix and resubmit', async () => {
  const id = await submitRelease('Second Try');
  const adminPage = await suite.newPage({ viewport: { width: 390, height: 844 } });
  await storeSession(adminPage, suite.url, admin);
  // The queue shows what is in review when it loads: review (now with the rights check's fpcalc runs)
  // may still be working on the submission, so the admin opens the queue again until it is there.
  const item = adminPage.locator(`[data-testid="review-item"][data-release-id="${id}"]`);
  const until = Date.now() + 60_000;
  for (;;) {
    await adminPage.goto(`${suite.url}/admin/releases`);
    if (
      await item.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > until) throw new Error(`release ${id} did not reach the admin's review queue in 60 s`);
  }
  await suite.shot(adminPage, 'admin-queue-390');
  await item.getByRole('button', { name: 'Reject Second Try' }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Reject Release' });
  await dialog.getByRole('button', { name: 'Reject Release' }).click();
  await dialog.getByText(DELIVERY_MESSAGES.reasonRequired).waitFor();
  const reason = 'The cover shows a web address; stores refuse artwork with URLs.';
  await dialog.getByLabel('Reason *').fill(reason);
  await dialog.getByRole('button', { name: 'Reject Release' }).click();
  await suite.toast(adminPage, DELIVERY_MESSAGES.rejected);
  await adminPage.getByRole('tab', { name: 'Rejected' }).click();
  await adminPage.locator(`[data-testid="review-item"][data-release-id="${id}"]`).getByText(reason).waitFor();

  const page = await suite.newPage();
  await storeSession(page, suite.url, artist);
  await page.goto(`${suite.url}/release/${id}`);
  await page.getByTestId('release-status').getByText('Rejected').waitFor({ timeout: 15_000 });
  await page.getByTestId('rejection-reason').getByText(reason).waitFor();
  await page.getByRole('button', { name: 'Fix and resubmit' }).click();
  const form = page.getByRole('dialog', { name: 'Fix and resubmit' });
  expect(await form.getByLabel('Release title *').inputValue()).toBe('Second Try');
  await form.getByLabel('Release title *').fill('Second Try (Fixed)');
  await suite.shot(page, 'resubmit-form');
  await form.getByRole('button', { name: 'Resubmit for review' }).click();
  await suite.toast(page, DELIVERY_MESSAGES.resubmitted);
  await page.getByTestId('release-status').getByText('In review').waitFor({ timeout: 15_000 });
  await suite.shot(page, 'resubmitted');
  for (const p of [adminPage, page]) await p.context().close();
});
