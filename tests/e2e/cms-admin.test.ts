// OMNI CMS's admin screens in a real browser, at desktop (1440) and phone (375) widths: an admin uploads
// music and video (published at once, seen on /music and /videos), generates a contributor link and copies
// it, moderates what a contributor sent through it (the contributor side driven through the API), revokes a
// link; the sidebar's Ctrl+B shortcut and its cookie; the phone sheet; an artist is refused.
import type { BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { browserSuite } from '../support/browser-suite';
import { cmsApi, contributorSignAndPut, submitContributorFile } from '../support/cms';
import { mp4, wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-cms-admin-tests';
const suite = browserSuite('cms-admin', { env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD } });
let adminSession: ApiSession;
jest.setTimeout(60_000);

beforeAll(async () => {
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  adminSession = (await res.json()) as ApiSession;
});

/** A signed-in admin's page at this width, allowed to use the clipboard. */
async function adminPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
  const page = await context.newPage();
  // A step that cannot happen fails within seconds, naming the step, rather than at jest's timeout.
  page.setDefaultTimeout(10_000);
  await storeSession(page, suite.url, adminSession);
  return { context, page };
}

/**
 * axe's serious findings on the screen itself. The toasts are closed first: sonner's rich success colours
 * (the UI kit's toaster, shared by every screen) fall just under 4.5:1 and are reported apart.
 */
async function screenViolations(page: Page): Promise<string[]> {
  for (const close of await page.locator('[data-sonner-toast] [data-close-button]').all()) {
    // dispatchEvent, not click(): an open modal dialog makes the page outside it inert to the pointer.
    await close.dispatchEvent('click').catch(() => undefined);
  }
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
  return seriousAxeViolations(page);
}

/** Follows a sidebar link: straight on desktop, through the sheet on a phone. */
async function navigate(page: Page, width: number, label: string) {
  if (width < 768) {
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.getByTestId('cms-sheet').getByRole('link', { name: label }).click();
    await page.getByTestId('cms-sheet').waitFor({ state: 'detached' });
  } else {
    await page.getByRole('navigation', { name: 'CMS' }).getByRole('link', { name: label }).click();
  }
}

async function chooseOption(page: Page, field: string, option: string) {
  await page.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function uploadThroughForm(
  page: Page,
  input: { type: 'Music' | 'Video'; page: string; title: string; description: string },
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  await chooseOption(page, 'Type', input.type);
  await chooseOption(page, 'Page *', input.page);
  await page.getByLabel('Title *').fill(input.title);
  await page.getByLabel('Description').fill(input.description);
  await page.getByLabel('File *').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

describe.each([1440, 375])('at %i px wide', (width) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await adminPage(width));
  });
  afterAll(() => context?.close());

  it('uploads a music and a video asset, published at once and shown on /music and /videos', async () => {
    await page.goto(`${suite.url}/app`);
    // The dashboard's header leads an admin to the CMS (on a phone, from the app menu's sheet).
    if (width < 1024) await page.getByRole('button', { name: 'Open app menu' }).click();
    await page.getByRole('link', { name: 'OMNI CMS' }).click();
    await page.waitForURL(`${suite.url}/admin/uploads`);
    await page.getByRole('heading', { name: 'Upload Assets' }).waitFor();

    // Nothing filled in: the spec's message, and nothing sent.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await suite.toast(page, 'Please fill all required fields');

    // Record every value the progress bar shows while the bytes move.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        if (bar) seen.push(bar.getAttribute('aria-valuenow') ?? '');
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const song = `Night Drive ${width}`;
    await uploadThroughForm(
      page,
      { type: 'Music', page: 'Music', title: song, description: 'Synthwave single' },
      { name: 'night-drive.wav', mimeType: 'audio/wav', buffer: wav(8) },
    );
    await suite.toast(page, 'Asset published instantly!');
    const progress = await page.evaluate(
      () => (window as unknown as { progressSeen: string[] }).progressSeen,
    );
    expect(progress.length).toBeGreaterThan(0);
    // The form is ready for the next one.
    expect(await page.getByLabel('Title *').inputValue()).toBe('');
    await suite.shot(page, `uploads-${width}`);
    expect(await screenViolations(page)).toEqual([]);

    const clip = `Studio Session ${width}`;
    await uploadThroughForm(
      page,
      { type: 'Video', page: 'Videos', title: clip, description: 'Behind the scenes' },
      { name: 'studio.mp4', mimeType: 'video/mp4', buffer: mp4(4096) },
    );
    // The first upload's toast may still show the same words: the form emptied is this upload's success.
    await page.waitForFunction(
      () => (document.getElementById('upload-title') as HTMLInputElement).value === '',
    );
    await suite.toast(page, 'Asset published instantly!');

    // The file picker offers the files of the chosen type.
    expect(await page.getByLabel('File *').getAttribute('accept')).toBe('video/*');
    // And the page picker only the pages that show it: a video on Music would be shown nowhere (§3.9).
    await page.getByRole('combobox', { name: 'Page *' }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['Videos']);
    await page.keyboard.press('Escape');

    // A video sent as music: storage's verdict reaches the admin as itself, and the form keeps the input.
    await uploadThroughForm(
      page,
      { type: 'Music', page: 'Music', title: `Not music ${width}`, description: 'Wrong file' },
      { name: 'song.wav', mimeType: 'audio/wav', buffer: mp4() },
    );
    await suite.toast(
      page,
      'This file is a video; upload an audio file (WAV, FLAC, AIFF, MP3, ...) instead.',
    );
    expect(await page.getByLabel('Title *').inputValue()).toBe(`Not music ${width}`);
    expect(await page.getByLabel('Description').inputValue()).toBe('Wrong file');

    await page.goto(`${suite.url}/music`);
    await page.getByTestId('asset-card').filter({ hasText: song }).waitFor();
    expect(
      await page
        .getByTestId('asset-card')
        .filter({ hasText: `Not music ${width}` })
        .count(),
    ).toBe(0);
    await page.goto(`${suite.url}/videos`);
    await page.getByTestId('asset-card').filter({ hasText: clip }).waitFor();
  });

  it('generates a link, copies it, moderates what came through it and shows its uses', async () => {
    await page.goto(`${suite.url}/admin/uploads`);
    await navigate(page, width, 'Contributor Links');
    await page.waitForURL(`${suite.url}/admin/links`);
    await page.getByRole('heading', { name: 'Contributor Links' }).waitFor();

    await page.getByRole('button', { name: 'Generate Upload Link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Upload Link' });
    // Defaults from the spec; the page is required; at least 1 each.
    expect(await dialog.getByLabel('Max Uses').inputValue()).toBe('1');
    expect(await dialog.getByLabel('Expires In (hours)').inputValue()).toBe('24');
    await dialog.getByLabel('Max Uses').fill('0');
    await dialog.getByRole('button', { name: 'Generate Link' }).click();
    await dialog.getByText('Choose a page for the link.').waitFor();
    await dialog.getByText('Max Uses must be at least 1.').waitFor();
    await chooseOption(page, 'Page *', 'Music');
    await dialog.getByLabel('Max Uses').fill('2');
    await suite.shot(page, `link-dialog-${width}`);
    expect(await screenViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Generate Link' }).click();
    await suite.toast(page, 'Link created and copied to clipboard!');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\/upload\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(copied).searchParams.get('token')!;

    const row = page.getByTestId('link-row').first();
    expect(await row.textContent()).toContain('active');
    expect(await row.textContent()).toContain('0 / 2');
    // 'PPp' (e.g. "Nov 24, 2026, 10:36 PM").
    expect(await row.textContent()).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/);

    // The copy button gives the same URL again.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await row.getByRole('button', { name: /^Copy link/ }).click();
    await suite.toast(page, 'Link copied to clipboard!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(copied);

    // A contributor sends two songs through the link (the contributor page is another screen).
    const api = cmsApi(suite.url);
    const sent: string[] = [];
    for (const title of [`Keep ${width}`, `Drop ${width}`]) {
      const { fileKey } = await contributorSignAndPut(api, token, {
        bucket: 'audio',
        fileName: `${title}.wav`,
        contentType: 'audio/wav',
        bytes: wav(1, { tone: true }),
      });
      const res = await submitContributorFile(api, token, { bucket: 'audio', fileKey, title });
      expect(res.status).toBe(201);
      sent.push(title);
    }
    await page.reload();
    const used = page.getByTestId('link-row').first();
    await used.getByText('used up').waitFor();
    expect(await used.textContent()).toContain('2 / 2');
    // Nothing to revoke on a used-up link.
    expect(await used.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    await suite.shot(page, `links-${width}`);
    expect(await screenViolations(page)).toEqual([]);

    await navigate(page, width, 'Moderation');
    await page.waitForURL(`${suite.url}/admin/moderation`);
    await page.getByRole('heading', { name: 'Moderation Queue' }).waitFor();
    await page.getByRole('tab', { name: /^Pending \(\d+\)$/ }).waitFor();
    const keep = page.getByTestId('asset-row').filter({ hasText: sent[0]! });
    const drop = page.getByTestId('asset-row').filter({ hasText: sent[1]! });
    await keep.waitFor();
    expect(await keep.getByRole('img', { name: 'Music' }).count()).toBe(1);

    // Play before deciding: the media element gets the signed URL and loads the song.
    await keep.getByRole('button', { name: `Play ${sent[0]}` }).click();
    const player = page.getByRole('dialog').locator('audio');
    await player.waitFor();
    await page.waitForFunction(
      () =>
        ((document.querySelector('[role="dialog"] audio') as HTMLAudioElement | null)?.readyState ?? 0) >= 1,
    );
    await suite.shot(page, `preview-${width}`);
    expect(await screenViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    const pendingBefore = Number(
      (await page.getByRole('tab', { name: /^Pending/ }).textContent())!.match(/\d+/)![0],
    );
    await keep.getByRole('button', { name: `Approve ${sent[0]}` }).click();
    await suite.toast(page, 'Asset published');
    await page.getByRole('tab', { name: `Pending (${pendingBefore - 1})` }).waitFor();

    await drop.getByRole('button', { name: `Reject ${sent[1]}` }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Asset' });
    await reject.getByRole('button', { name: 'Confirm Rejection' }).click();
    await reject.getByText('Please give a reason for the rejection.').waitFor();
    await reject.getByLabel('Reason *').fill('Clipping in the chorus');
    await suite.shot(page, `reject-${width}`);
    expect(await screenViolations(page)).toEqual([]);
    await reject.getByRole('button', { name: 'Confirm Rejection' }).click();
    await suite.toast(page, 'Asset rejected');
    await reject.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: `Pending (${pendingBefore - 2})` }).waitFor();

    await page.getByRole('tab', { name: /^Rejected/ }).click();
    await page
      .getByTestId('asset-row')
      .filter({ hasText: sent[1]! })
      .getByText('Reason: Clipping in the chorus')
      .waitFor();
    await page.getByRole('tab', { name: /^Published/ }).click();
    await page.getByTestId('asset-row').filter({ hasText: sent[0]! }).waitFor();
    await suite.shot(page, `moderation-${width}`);
    expect(await screenViolations(page)).toEqual([]);
  });

  it('revokes an active link', async () => {
    await page.goto(`${suite.url}/admin/links`);
    await page.getByRole('button', { name: 'Generate Upload Link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Upload Link' });
    await chooseOption(page, 'Page *', 'Videos');
    await dialog.getByRole('button', { name: 'Generate Link' }).click();
    await suite.toast(page, 'Link created and copied to clipboard!');
    const row = page.getByTestId('link-row').first();
    expect(await row.textContent()).toContain('Videos');
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await suite.toast(page, 'Link revoked');
    await row.getByText('revoked').waitFor();
    expect(await row.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
  });
});

it('collapses the sidebar with Ctrl+B and keeps the choice in the sidebar_state cookie', async () => {
  const { context, page } = await adminPage(1440);
  await page.goto(`${suite.url}/admin/uploads`);
  const sidebar = page.locator('#cms-sidebar');
  await sidebar.waitFor();
  expect(await sidebar.getAttribute('data-state')).toBe('expanded');
  expect((await sidebar.boundingBox())!.width).toBe(256);
  await page.getByRole('heading', { name: 'Upload Assets' }).click();
  await page.keyboard.press('Control+b');
  await page.waitForFunction(
    () => document.querySelector('#cms-sidebar')?.getAttribute('data-state') === 'collapsed',
  );
  const cookie = (await context.cookies(suite.url)).find((c) => c.name === 'sidebar_state');
  expect(cookie?.value).toBe('false');
  // Seven days, give or take the test's own run time.
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 120);
  // Icons only, each still named for assistive technology.
  const rail = page.getByRole('link', { name: 'Contributor Links' });
  await rail.waitFor();
  expect((await rail.boundingBox())!.height).toBe(36);
  await rail.hover();
  await page.getByRole('tooltip', { name: 'Contributor Links' }).waitFor();
  await page.reload();
  await sidebar.waitFor();
  expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
  await page.waitForFunction(
    () => document.querySelector('#cms-sidebar')?.getBoundingClientRect().width === 48,
  );
  await suite.shot(page, 'sidebar-collapsed-1440');
  expect(await screenViolations(page)).toEqual([]);
  await page.keyboard.press('Control+b');
  await page.waitForFunction(
    () => document.querySelector('#cms-sidebar')?.getAttribute('data-state') === 'expanded',
  );
  expect((await context.cookies(suite.url)).find((c) => c.name === 'sidebar_state')?.value).toBe('true');
  await context.close();
});

it('opens the sidebar as an 18rem sheet on a phone', async () => {
  const { context, page } = await adminPage(375);
  await page.goto(`${suite.url}/admin/moderation`);
  await page.getByRole('heading', { name: 'Moderation Queue' }).waitFor();
  expect(await page.locator('#cms-sidebar').isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const sheet = page.getByTestId('cms-sheet');
  await sheet.waitFor();
  expect((await sheet.boundingBox())!.width).toBe(288);
  for (const name of ['Uploads', 'Contributor Links', 'Moderation', 'Music', 'Videos']) {
    await sheet.getByRole('link', { name, exact: true }).waitFor();
  }
  await suite.shot(page, 'sheet-375');
  expect(await screenViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'detached' });
  // The shortcut opens it too.
  await page.keyboard.press('Control+b');
  await sheet.waitFor();
  await context.close();
});

it("tells an artist the CMS is for administrators, and the dashboard shows the artist no 'OMNI CMS' link", async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await storeSession(page, suite.url, await verifiedSession(suite.url, `artist-${Date.now()}@example.com`));
  await page.goto(`${suite.url}/app`);
  await page.getByTestId('signed-in-as').waitFor();
  expect(await page.getByRole('link', { name: 'OMNI CMS' }).count()).toBe(0);
  await page.goto(`${suite.url}/admin/links`);
  await page.getByRole('heading', { name: 'Administrators only' }).waitFor();
  await context.close();
});
