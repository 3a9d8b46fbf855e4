// The artist's journey on Omni started as `npm start` starts it (scripts/start.mjs, a child process, a fresh
// data folder): sign up on /signup, confirm from the dev mailbox, upload a real WAV and a 3000×3000 cover
// on /artist-upload to the 20 stores it preselects, the admin (password from initial-admin.txt) approves on
// /admin/releases, and the artist's release page, open all along and never reloaded, shows every store
// reach Live. Each store's DDEX message downloads from that page and is valid ERN 4.3; two stores are then
// taken down. This is the path issue 21 found broken under `npm start` ("ERN validator exited (code 1)")
// while every in-process test passed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELIVERY_MESSAGES } from '@omni/proto/api';
import type { Browser, Page } from 'playwright-core';
import { createErnValidator, type ErnValidator } from '../../services/delivery/src/domain/ddex';
import { launchBrowser } from '../support/browser';
import { png, wav } from '../support/media';
import { type Omni, startOmni } from './support/omni-process';
import { newEmail, personPage, shot, signIn, signUpAndVerify, toast } from './support/people';

const JOURNEY = 'artist';
const STORES = 20;
let omni: Omni;
let browser: Browser;
let validator: ErnValidator;
let fixtures: string;

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-journey-artist-files-'));
  writeFileSync(join(fixtures, 'first single.wav'), wav(4, { tone: true }));
  writeFileSync(join(fixtures, 'cover.png'), png(3000, 3000));
  omni = await startOmni({ name: JOURNEY });
  browser = await launchBrowser();
  validator = createErnValidator();
}, 420_000);

afterAll(async () => {
  await validator?.close();
  await browser?.close();
  await omni?.stop();
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
}, 120_000);

/** The count shown on the release page's group of stores in `status` (e.g. '20 stores'). */
const groupCount = (page: Page, status: string) =>
  page.locator(`[data-testid="store-group"][data-status="${status}"]`).getByTestId('store-group-count');

it('sign up → verify → upload → admin approves → 20 stores Live without a reload → valid DDEX → take down two', async () => {
  const started = Date.now();
  const artist = await personPage(browser);
  try {
    // 1. Sign up and confirm the address from the dev mailbox.
    const email = newEmail('artist');
    await signUpAndVerify(artist, omni.url, email);

    // 2. The upload page, with the 20 stores it preselects.
    await artist.goto(`${omni.url}/artist-upload`);
    await artist.getByRole('heading', { name: 'Artist Upload' }).waitFor({ timeout: 30_000 });
    await artist.getByTestId('platform-count').getByText(`${STORES} of 142 selected`).waitFor();
    const field = (label: string) => artist.getByLabel(label, { exact: true });
    await field('Artist Name *').fill('Journey Artist');
    await field('Release Title *').fill('First Light');
    await field('Track Title *').fill('First Light');
    await field('Audio File *').setInputFiles(join(fixtures, 'first single.wav'));
    await field('Cover Artwork * (3000x3000 JPG/PNG)').setInputFiles(join(fixtures, 'cover.png'));
    await shot(artist, JOURNEY, 'upload-filled');
    await artist.getByRole('button', { name: 'Upload & Queue Delivery' }).click();
    await toast(artist, 'Upload Successful!', undefined, 120_000);
    await artist.waitForURL(/\/release\/[^/]+$/, { timeout: 30_000 });
    const releaseId = decodeURIComponent(new URL(artist.url()).pathname.split('/').pop() ?? '');
    await artist.getByRole('heading', { name: 'First Light' }).waitFor();
    await artist.getByTestId('release-status').getByText('In review').waitFor({ timeout: 30_000 });
    await groupCount(artist, 'queued').getByText(`${STORES} stores`).waitFor({ timeout: 30_000 });
    // Marks this page: a reload or a navigation would lose it.
    await artist.evaluate(() => {
      (globalThis as unknown as { openAllAlong: boolean }).openAllAlong = true;
    });
    await shot(artist, JOURNEY, 'in-review');

    // 3. The admin, in another browser, approves it on /admin/releases.
    const admin = await personPage(browser);
    await signIn(admin, omni.url, omni.admin.email, omni.admin.password);
    await admin.goto(`${omni.url}/admin/releases`);
    await admin.getByRole('heading', { name: 'Release Review' }).waitFor({ timeout: 30_000 });
    const item = admin.locator(`[data-testid="review-item"][data-release-id="${releaseId}"]`);
    await item.waitFor({ timeout: 30_000 });
    await item.getByText(`${STORES} stores`, { exact: false }).waitFor();
    await shot(admin, JOURNEY, 'admin-queue');
    await item.getByRole('button', { name: 'Approve First Light' }).click();
    await toast(admin, DELIVERY_MESSAGES.approved);
    await admin.context().close();

    // 4. The artist's page, untouched, shows every store reach Live.
    await groupCount(artist, 'live')
      .getByText(`${STORES} stores`)
      .waitFor({ timeout: 300_000 })
      .catch(async (error: Error) => {
        await shot(artist, JOURNEY, 'not-live');
        const groups = await artist.getByTestId('store-group').allInnerTexts();
        throw new Error(`${error.message}\nThe release page shows: ${groups.join(' | ').slice(0, 1500)}`);
      });
    await artist.getByTestId('release-status').getByText('Live').waitFor({ timeout: 30_000 });
    expect(
      await artist.evaluate(() => (globalThis as unknown as { openAllAlong?: boolean }).openAllAlong),
    ).toBe(true);
    await shot(artist, JOURNEY, 'live');

    // 5. Every store's DDEX message, downloaded as the artist downloads it, is valid ERN 4.3. Chromium lets
    // one page start only so many downloads in a row (its multiple-downloads guard): a few per page, then
    // the same release page again in a new tab, as a person would carry on.
    const stores: { key: string; name: string }[] = [];
    const PER_PAGE = 5;
    for (let first = 0; first < STORES; first += PER_PAGE) {
      const tab = first === 0 ? artist : await artist.context().newPage();
      if (tab !== artist) await tab.goto(artist.url());
      const live = tab.locator('[data-testid="store-group"][data-status="live"]');
      await live.getByRole('button', { name: `Show all ${STORES}` }).click();
      const rows = live.getByTestId('delivery-job');
      expect(await rows.count()).toBe(STORES);
      for (let i = first; i < Math.min(first + PER_PAGE, STORES); i++) {
        const row = rows.nth(i);
        const key = (await row.getAttribute('data-store')) ?? '';
        const name = ((await row.locator('summary .font-medium').first().textContent()) ?? '').trim();
        const [download] = await Promise.all([
          tab.waitForEvent('download'),
          row.getByRole('button', { name: `Download the DDEX message sent to ${name}` }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(new RegExp(`_${key}\\.xml$`));
        const xml = readFileSync((await download.path()) as string, 'utf8');
        expect(xml).toContain('NewReleaseMessage');
        expect(xml).toContain('First Light');
        const verdict = await validator.validate(xml);
        expect({ store: key, ...verdict }).toEqual({ store: key, valid: true, errors: [] });
        stores.push({ key, name });
      }
      if (tab !== artist) await tab.close();
      else await live.getByRole('button', { name: 'Show fewer' }).click();
    }
    expect(new Set(stores.map((s) => s.key)).size).toBe(STORES);

    // 6. Taken down from two of them: those two move to 'Taken down' on the same page.
    const down = stores.slice(0, 2);
    await artist.getByRole('button', { name: 'Take down' }).click();
    const dialog = artist.getByRole('dialog', { name: 'Take down “First Light”' });
    await dialog.getByLabel('Only the stores I choose').check();
    for (const store of down) await dialog.getByLabel(store.name, { exact: true }).click();
    await shot(artist, JOURNEY, 'takedown-dialog');
    await dialog.getByRole('button', { name: 'Take down' }).click();
    await toast(artist, DELIVERY_MESSAGES.takedownQueued(2));
    await groupCount(artist, 'taken_down').getByText('2 stores').waitFor({ timeout: 120_000 });
    await groupCount(artist, 'live')
      .getByText(`${STORES - 2} stores`)
      .waitFor();
    const takenDown = await artist
      .locator('[data-testid="store-group"][data-status="taken_down"] [data-testid="delivery-job"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-store')));
    expect(takenDown.sort()).toEqual(down.map((s) => s.key).sort());
    await shot(artist, JOURNEY, 'taken-down');
    process.stdout.write(`artist journey: ${Math.round((Date.now() - started) / 1000)} s\n`);
  } catch (err) {
    await shot(artist, JOURNEY, 'failed').catch(() => undefined);
    omni.explain(err);
  } finally {
    await artist.context().close();
  }
}, 900_000);
