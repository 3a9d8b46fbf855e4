// The contributor page (/upload?token=) in a real browser against the real platform, at desktop and phone
// widths: an admin makes a link through the API; the contributor opens it, signs in by magic link (back to
// the same address), uploads a file into a bucket and folder, sees its path and URL (Copy → 'Copied!'),
// submits an audio release with a blank code (OMNI + 7 digits), and both wait in the moderation queue.
// Revoked, used-up and unknown links show their refusal. /music plays what an admin published.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import {
  adminUpload,
  type CmsApi,
  cmsApi,
  contributorSignAndPut,
  createLink,
  submitContributorFile,
} from '../support/cms';
import { wav } from '../support/media';
import { verifiedSession } from '../support/session';
import { signTestToken } from '../support/tokens';

const suite = browserSuite('contributor', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let api: CmsApi;
let admin: string;
let fixtures: string;
let wavPath: string;
let counter = 0;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const WIDTHS = [
  { name: 'desktop', width: 1440, height: 1000 },
  { name: 'phone', width: 375, height: 812 },
] as const;

/** The link as the admin got it, pointed at this test's server. */
const local = (uploadUrl: string) => {
  const url = new URL(uploadUrl);
  return `${suite.url}${url.pathname}${url.search}`;
};

async function newPage(width: number, height: number): Promise<{ context: BrowserContext; page: Page }> {
  const page = await suite.newPage({ viewport: { width, height } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
  return { context: page.context(), page };
}

/** The newest magic link mailed to `email`, pointed at this test's server. */
async function magicLink(email: string): Promise<URL> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${suite.url}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const { messages } = (await res.json()) as { messages: { links: string[] }[] };
    const link = messages
      .flatMap((m) => m.links)
      .map((l) => new URL(l))
      .find((u) => u.searchParams.has('magic'));
    if (link) return new URL(`${suite.url}${link.pathname}${link.search}`);
    if (Date.now() > deadline) throw new Error(`No magic link mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function pendingAssets(): Promise<Record<string, unknown>[]> {
  const res = await api.call('/api/admin/assets?status=pending&limit=100', { token: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { assets: Record<string, unknown>[] }).assets;
}

beforeAll(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'omni-contributor-e2e-'));
  wavPath = join(fixtures, 'demo song.wav');
  writeFileSync(wavPath, wav(1, { tone: true }));
  api = cmsApi(suite.url);
  admin = await signTestToken(await suite.platform.ports.documents('identity'), { roles: ['admin'] });
});

afterAll(async () => {
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

describe.each(WIDTHS)('at $width px', ({ name, width, height }) => {
  it('a contributor signs in by magic link, uploads into a bucket and folder, and submits a release', async () => {
    const { context, page } = await newPage(width, height);
    const shot = (step: string) => suite.shot(page, `${name}-${step}`);
    try {
      const { uploadUrl } = await createLink(api, admin, { pageSlug: 'music', maxUses: 5 });
      const email = `contributor-${Date.now()}-${++counter}@example.com`;
      await verifiedSession(suite.url, email);

      await page.goto(local(uploadUrl));
      const summary = page.getByTestId('link-summary');
      await summary.getByText('Music').waitFor();
      expect(await page.getByTestId('link-uses-left').textContent()).toBe('5');
      await page.getByTestId('uploader-session').getByText('Not signed in').waitFor();
      await shot('link');

      // Magic link: an empty field says so; the mailed link leads back to this same /upload?token= address.
      await page.getByRole('button', { name: 'Send Magic Link' }).click();
      await suite.toast(page, 'Enter email');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send Magic Link' }).click();
      const mailed = await magicLink(email);
      expect(mailed.pathname).toBe('/upload');
      expect(mailed.searchParams.get('token')).toBe(new URL(uploadUrl).searchParams.get('token'));
      await page.goto(mailed.href);
      await page.getByTestId('uploader-session').getByText(email).waitFor();
      expect(new URL(page.url()).searchParams.has('magic')).toBe(false);
      expect(new URL(page.url()).searchParams.get('token')).toBe(mailed.searchParams.get('token'));

      // A submission has a title (issue 21 §3.8): asked before anything is sent, then shown in moderation.
      await page.getByLabel('Title *').fill(`Split sheet ${name}`);
      // The contracts bucket's picker offers PDF and Word only.
      await page.getByLabel('Folder path (optional)').fill('deals/2026');
      if (name === 'desktop') {
        // Drag and drop onto the zone, after choosing the bucket by its radio.
        await page.locator('input[name="bucket"][value="contracts"]').check();
        const dropped = await page.evaluateHandle((base64) => {
          const transfer = new DataTransfer();
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          transfer.items.add(new File([bytes], 'split-sheet.pdf', { type: 'application/pdf' }));
          return transfer;
        }, PDF.toString('base64'));
        await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
      } else {
        const chooser = page.waitForEvent('filechooser');
        await page.getByTestId('tile-contracts').click();
        const picker = await chooser;
        expect(await page.locator('input[name="bucket"][value="contracts"]').isChecked()).toBe(true);
        await picker.setFiles({ name: 'split-sheet.pdf', mimeType: 'application/pdf', buffer: PDF });
      }
      expect(await page.getByTestId('bucket-file-input').getAttribute('accept')).toContain('application/pdf');
      await page
        .getByTestId('upload-status')
        .getByText(/^Uploaded split-sheet\.pdf to contracts\/.+ Submitted for review\.$/)
        .waitFor({ timeout: 15_000 });
      const link = page.getByTestId('uploaded-files').getByRole('link').first();
      const path = (await link.textContent()) ?? '';
      expect(path).toMatch(/^contracts\/[^/]+\/\d{8}\/deals\/2026\/split-sheet\.pdf$/);
      const href = (await link.getAttribute('href')) ?? '';
      const opened = await fetch(new URL(href, suite.url));
      expect(opened.status).toBe(200);
      expect(Buffer.from(await opened.arrayBuffer()).equals(PDF)).toBe(true);
      await page.getByRole('button', { name: `Copy link to ${path}` }).click();
      await suite.toast(page, 'Copied!');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(href, suite.url).href);
      await page.getByTestId('link-uses-left').getByText('4').waitFor();

      // On a phone the toasts ('Signed in', 'Copied!') sit over the form's button, and a pointer resting on
      // them pauses them (sonner): move it away and let them go, as a person would, before using the form.
      await page.mouse.move(0, 0);
      await page.waitForFunction(
        () => document.querySelectorAll('[data-sonner-toast]').length === 0,
        undefined,
        {
          timeout: 15_000,
        },
      );

      // The release form: the spec's messages in order, then a blank code made by the server.
      const status = page.getByTestId('release-status');
      await page.getByRole('button', { name: 'Submit release' }).click();
      await status.getByText('Title and Artist required.').waitFor();
      await page.getByLabel('Title', { exact: true }).fill(`Night Swim ${name}`);
      await page.getByLabel('Artist', { exact: true }).fill('Test Contributor');
      await page.getByRole('button', { name: 'Submit release' }).click();
      await status.getByText('Choose an audio file.').waitFor();
      await page.getByLabel('Audio file', { exact: true }).setInputFiles(wavPath);
      await page.getByRole('button', { name: 'Submit release' }).click();
      await status.getByText(/Identifier code OMNI\d{7}/).waitFor({ timeout: 20_000 });
      const code = /OMNI\d{7}/.exec((await status.textContent()) ?? '')?.[0];
      await page.getByTestId('link-uses-left').getByText('3').waitFor();
      await shot('done');

      // Both wait for review.
      const pending = await pendingAssets();
      expect(pending.find((a) => a.code === code)).toMatchObject({
        status: 'pending',
        kind: 'music',
        title: `Night Swim ${name}`,
        artist: 'Test Contributor',
      });
      expect(pending.some((a) => a.kind === 'document' && a.title === `Split sheet ${name}`)).toBe(true);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('shows why a revoked, used-up, expired or unknown link cannot be used', async () => {
    const { context, page } = await newPage(width, height);
    try {
      const revoked = await createLink(api, admin, { pageSlug: 'music' });
      const res = await api.call(`/api/admin/upload-links/${revoked.link.id}/revoke`, {
        method: 'POST',
        token: admin,
      });
      expect(res.status).toBe(200);
      await page.goto(local(revoked.uploadUrl));
      await page
        .getByTestId('link-refusal')
        .getByText('This upload link was revoked. Ask for a new one.')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Submit release' }).count()).toBe(0);
      await suite.shot(page, `${name}-revoked`);

      // One use, spent by an anonymous upload through the API.
      const spent = await createLink(api, admin, { pageSlug: 'music', maxUses: 1 });
      const put = await contributorSignAndPut(api, spent.token, {
        bucket: 'documents',
        fileName: 'notes.pdf',
        contentType: 'application/pdf',
        bytes: PDF,
      });
      expect(
        (await submitContributorFile(api, spent.token, { bucket: 'documents', fileKey: put.fileKey })).status,
      ).toBe(201);
      await page.goto(local(spent.uploadUrl));
      await page
        .getByTestId('link-refusal')
        .getByText('This upload link has already been used the maximum number of times.')
        .waitFor();

      // Expired: its expiry moved into the past in cms's own store (the test's platform runs in this process).
      const expired = await createLink(api, admin, { pageSlug: 'music' });
      await (await suite.platform.ports.documents('cms'))
        .collection('upload_links')
        .updateOne(
          { _id: String(expired.link.id) },
          { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } },
        );
      await page.goto(local(expired.uploadUrl));
      await page
        .getByTestId('link-refusal')
        .getByText('This upload link has expired. Ask for a new one.')
        .waitFor();

      await page.goto(`${suite.url}/upload?token=not-a-real-token`);
      await page
        .getByTestId('link-refusal')
        .getByText('This upload link is not valid. Ask for a new one.')
        .waitFor();
      await page.goto(`${suite.url}/upload`);
      await page
        .getByTestId('link-refusal')
        .getByText('This upload link is not valid. Ask for a new one.')
        .waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);
});

it('two anonymous contributors on one link each keep their own file at the same path', async () => {
  const { uploadUrl } = await createLink(api, admin, { pageSlug: 'music', maxUses: 5 });
  const upload = async (page: Page, text: string) => {
    await page.goto(local(uploadUrl));
    await page.getByTestId('uploader-session').getByText('Not signed in').waitFor();
    await page.getByLabel('Title *').fill('Band bio');
    await page.getByLabel('Folder path (optional)').fill('shared');
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('tile-presskits').click();
    await (await chooser).setFiles({ name: 'bio.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page
      .getByTestId('upload-status')
      .getByText(/Submitted for review\.$/)
      .waitFor({ timeout: 15_000 });
    const link = page.getByTestId('uploaded-files').getByRole('link').first();
    const opened = await fetch(new URL((await link.getAttribute('href')) ?? '', suite.url));
    return { path: (await link.textContent()) ?? '', bytes: await opened.text() };
  };
  const first = await newPage(1440, 1000);
  const second = await newPage(1440, 1000);
  try {
    const hers = await upload(first.page, 'first contributor');
    const his = await upload(second.page, 'second contributor');
    expect(hers.path).toMatch(/^presskits\/anon\/\d{8}\/shared\/bio\.txt$/);
    expect(his.path).toBe(hers.path.replace(/bio\.txt$/, 'bio-2.txt'));
    expect([hers.bytes, his.bytes]).toEqual(['first contributor', 'second contributor']);
  } finally {
    await first.context.close();
    await second.context.close();
  }
}, 60_000);

it('/music plays a published track: preload none, its media URL answers a Range request with 206', async () => {
  const asset = await adminUpload(
    api,
    admin,
    { pageSlug: 'music', kind: 'music', title: 'Playable Tune', description: 'For the player' },
    { fileName: 'playable.wav', contentType: 'audio/wav', bytes: wav(1, { tone: true }) },
  );
  const { context, page } = await newPage(1440, 1000);
  try {
    await page.goto(`${suite.url}/music`);
    const card = page.getByTestId('asset-card').filter({ hasText: 'Playable Tune' });
    await card.waitFor();
    const player = card.locator('audio');
    expect(await player.getAttribute('preload')).toBe('none');
    const src = (await player.getAttribute('src')) ?? '';
    expect(src).toBe(asset.mediaUrl);
    const range = await fetch(new URL(src, suite.url), { headers: { range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect((await range.arrayBuffer()).byteLength).toBe(100);
    // The browser plays it: metadata loads through the redirect and the signed URL.
    const duration = await player.evaluate(
      (audio: HTMLAudioElement) =>
        new Promise<number>((resolve, reject) => {
          audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
          audio.addEventListener('error', () => reject(new Error(`media error ${audio.error?.code}`)), {
            once: true,
          });
          audio.load();
        }),
    );
    expect(duration).toBeCloseTo(1, 1);
    await suite.shot(page, 'music-player');
  } finally {
    await context.close();
  }
}, 60_000);

it("/music shows 24 cards, then 'Load more' brings the next page and disappears at the end", async () => {
  // With the track above: 25 published.
  for (let i = 1; i <= 24; i++) {
    await adminUpload(
      api,
      admin,
      { pageSlug: 'music', kind: 'music', title: `Paged ${i}` },
      { fileName: `paged-${i}.wav`, contentType: 'audio/wav', bytes: wav(0.05) },
    );
  }
  const { context, page } = await newPage(375, 812);
  try {
    await page.goto(`${suite.url}/music`);
    const cards = page.getByTestId('asset-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(24);
    expect(await cards.first().textContent()).toContain('Paged 24');
    await page.getByRole('button', { name: 'Load more' }).click();
    await cards.nth(24).waitFor();
    expect(await cards.count()).toBe(25);
    expect(await cards.nth(24).textContent()).toContain('Playable Tune');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await suite.shot(page, 'music-phone');
  } finally {
    await context.close();
  }
}, 60_000);
