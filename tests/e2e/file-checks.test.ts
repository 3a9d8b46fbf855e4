// What the browser can know about a release's files and codes is checked there, before a byte is sent
// (issue 21 §3.7), in a real browser: the cover's format, size, shape and transparency and the master's
// format, bit depth and sample rate from the chosen file's header on /artist-upload and in the /uploader's
// Song Submission, and the ISRC and UPC shapes there. Each page says the rule it checks; a refused file
// sends no request at all; and the words are the server's own (one rule, in @omni/proto/api, both sides).

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { browserSuite } from '../support/browser-suite';
import { png, wav, wavHeader } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const ADMIN_PASSWORD = 'admin-password-for-tests';
const suite = browserSuite('file-checks', {
  env: { AUTH_RATE_LIMIT_PER_IP: '1000', OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD },
});
const pages = suite.keepPages();
let artist: ApiSession;

/** Files as the browser's picker hands them over. */
const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
const mp3 = () =>
  Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'binary'), Buffer.alloc(4096, 0x55)]);
/** A WAV whose header says 22.05 kHz (a few frames of silence). */
const lowRateWav = () => Buffer.concat([wavHeader(4 * 22_050, { rate: 22_050 }), Buffer.alloc(4 * 22_050)]);

/** Counts the page's requests to the upload endpoints from now on. */
function countUploadRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/uploads')) count++;
  });
  return () => count;
}

async function signedIn(path: string): Promise<Page> {
  const page = await suite.newPage();
  pages.push(page);
  await storeSession(page, suite.url, artist);
  await page.goto(`${suite.url}${path}`);
  return page;
}

/** What storage answers for these bytes as cover art, uploaded through the API as the web app would. */
async function serverVerdict(bytes: Buffer, name: string, contentType: string, role: 'artwork' | 'audio') {
  const call = (path: string, init: RequestInit) =>
    fetch(new URL(path, suite.url), {
      ...init,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${artist.accessToken}`,
        ...init.headers,
      },
    });
  const sign = await call('/api/uploads/sign', {
    method: 'POST',
    body: JSON.stringify({
      bucket: 'omni-assets',
      fileName: name,
      contentType,
      size: bytes.length,
      purpose: 'artist-upload',
    }),
  });
  expect(sign.status).toBe(200);
  const signed = (await sign.json()) as {
    signedUrl: string;
    fileKey: string;
    headers: Record<string, string>;
  };
  await fetch(new URL(signed.signedUrl, suite.url), {
    method: 'PUT',
    headers: { ...signed.headers, authorization: `Bearer ${artist.accessToken}` },
    body: new Uint8Array(bytes),
  });
  const done = await call('/api/uploads/complete', {
    method: 'POST',
    body: JSON.stringify({ bucket: 'omni-assets', fileKey: signed.fileKey, role }),
  });
  return { status: done.status, body: await done.text() };
}

beforeAll(async () => {
  artist = await verifiedSession(suite.url, `checks-${Date.now()}@example.com`);
}, 30_000);

describe('/artist-upload', () => {
  const cover = (page: Page) => page.getByLabel('Cover Artwork * (3000x3000 JPG/PNG)', { exact: true });
  const audio = (page: Page) => page.getByLabel('Audio File *', { exact: true });

  it('says the rules before a file is chosen', async () => {
    const page = await signedIn('/artist-upload');
    await page.getByRole('heading', { name: 'Artist Upload' }).waitFor();
    expect(await page.getByTestId('artwork-check').innerText()).toBe(
      'Needed: JPG or PNG, square, at least 3000×3000 pixels, RGB without transparency. Checked in your browser as soon as you choose a file, before anything is uploaded.',
    );
    expect(await page.getByTestId('audio-check').innerText()).toContain(
      'Needed: WAV or FLAC, 16 or 24 bit, 44.1 kHz or more, mono or stereo.',
    );
  });

  it('refuses a small, oblong, transparent PNG at once, in the words the server uses', async () => {
    const page = await signedIn('/artist-upload');
    const bytes = png(1200, 900, { alpha: true });
    await cover(page).setInputFiles(file('cover.png', 'image/png', bytes));
    const check = page.getByTestId('artwork-check');
    await check.getByText('Cover art must be square; this image is 1200x900.').waitFor();
    const lines = (await check.innerText()).split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([
      'Cover art must be square; this image is 1200x900.',
      'Cover art must be at least 3000x3000 pixels; this image is 1200x900.',
      'Cover art must be RGB without transparency; this image has an alpha channel. Save it as JPG, or as PNG without transparency.',
      'Checked in your browser: nothing was uploaded. Choose another file.',
    ]);
    expect(await check.getAttribute('role')).toBe('alert');
    await suite.shot(page, 'cover-refused');
    // Storage, which reads every byte, says the same first thing.
    const server = await serverVerdict(bytes, 'cover.png', 'image/png', 'artwork');
    expect(server.status).toBeGreaterThanOrEqual(400);
    expect(server.status).toBeLessThan(500);
    expect(server.body).toContain(lines[0]);
  });

  it('refuses a small greyscale JPEG, reading its frame header', async () => {
    const page = await signedIn('/artist-upload');
    // One colour component: greyscale, as sharp writes it for the 'b-w' colour space.
    const jpeg = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#808080' } })
      .toColourspace('b-w')
      .jpeg()
      .toBuffer();
    await cover(page).setInputFiles(file('grey.jpg', 'image/jpeg', jpeg));
    const check = page.getByTestId('artwork-check');
    await check.getByText('Cover art must be at least 3000x3000 pixels; this image is 640x640.').waitFor();
    await check.getByText('Cover art must be in RGB colour; this image is GRAYSCALE.').waitFor();
    expect(await check.innerText()).not.toContain('square');
    const server = await serverVerdict(jpeg, 'grey.jpg', 'image/jpeg', 'artwork');
    expect(server.body).toContain('Cover art must be at least 3000x3000 pixels; this image is 640x640.');
  });

  it('accepts a 3000x3000 RGB PNG and says it was checked', async () => {
    const page = await signedIn('/artist-upload');
    await cover(page).setInputFiles(file('cover.png', 'image/png', png(3000, 3000)));
    await page
      .getByTestId('artwork-check')
      .getByText('Checked in your browser before upload: JPG or PNG, square, at least 3000×3000 pixels')
      .waitFor();
    expect(await page.getByTestId('artwork-check').getAttribute('role')).toBeNull();
  });

  it('refuses an MP3 or a 22.05 kHz WAV as the master; a 44.1 kHz 16-bit WAV passes', async () => {
    const page = await signedIn('/artist-upload');
    const check = page.getByTestId('audio-check');
    await audio(page).setInputFiles(file('song.mp3', 'audio/mpeg', mp3()));
    await check
      .getByText(
        'Stores take release masters only as lossless WAV or FLAC; this file is MP3. Export the master as WAV or FLAC.',
      )
      .waitFor();
    await audio(page).setInputFiles(file('low.wav', 'audio/wav', lowRateWav()));
    await check
      .getByText(/^Stores take release masters at 44\.1 kHz or more; this file is 22\.05 kHz\./)
      .waitFor();
    await audio(page).setInputFiles(file('take.wav', 'audio/wav', wav(1)));
    await check.getByText('Checked in your browser before upload: WAV or FLAC').waitFor();
  });

  it('a refused file stops the upload before any request: Upload Failed with the rule, in the log too', async () => {
    const page = await signedIn('/artist-upload');
    await page.getByTestId('platform-count').getByText('20 of 142 selected').waitFor();
    const uploads = countUploadRequests(page);
    await page.getByLabel('Artist Name *', { exact: true }).fill('Checker');
    await page.getByLabel('Release Title *', { exact: true }).fill('Too Small');
    await page.getByLabel('Track Title *', { exact: true }).fill('Too Small');
    await audio(page).setInputFiles(file('take.wav', 'audio/wav', wav(1)));
    await cover(page).setInputFiles(file('cover.png', 'image/png', png(1000, 1000)));
    await page.getByRole('button', { name: 'Upload & Queue Delivery' }).click();
    await suite.toast(page, 'Upload Failed', 'Cover art must be at least 3000x3000 pixels');
    await page
      .getByTestId('upload-log')
      .getByText(/^Error: Cover art must be at least 3000x3000 pixels; .* nothing was uploaded\.$/)
      .waitFor();
    expect(uploads()).toBe(0);
    expect(await page.getByLabel('Release Title *', { exact: true }).inputValue()).toBe('Too Small');
  });
});

describe('/uploader Song Submission', () => {
  const isrc = (page: Page) => page.getByLabel('ISRC', { exact: true });
  const upc = (page: Page) => page.getByLabel('UPC (optional)', { exact: true });
  const ISRC_RULE =
    'ISRC must be 12 letters and digits like QZQDU2600001 (country, registrant, year, number); leave it blank to get one.';
  const UPC_RULE = 'UPC must be 12 to 14 digits ending in a valid check digit; leave it blank to get one.';
  const fieldError = (page: Page, text: string) => page.getByTestId('field-error').filter({ hasText: text });

  it('says a malformed ISRC or UPC when the field is left, and sends nothing while one is wrong', async () => {
    const page = await signedIn('/uploader');
    await page.getByRole('heading', { name: 'Song Submission' }).waitFor();
    const uploads = countUploadRequests(page);
    await page.getByLabel('Title', { exact: true }).fill('Shapes');
    await page.getByLabel('Artist Name', { exact: true }).fill('Checker');
    await page.getByLabel('Audio file', { exact: true }).setInputFiles(file('take.wav', 'audio/wav', wav(1)));

    await isrc(page).fill('US-ABC-12');
    await upc(page).click(); // leaves the ISRC field
    await fieldError(page, ISRC_RULE).waitFor();
    expect(await isrc(page).getAttribute('aria-invalid')).toBe('true');
    await upc(page).fill('036000291453'); // wrong check digit
    await isrc(page).click();
    await fieldError(page, UPC_RULE).waitFor();

    await page.getByRole('button', { name: 'Submit Song' }).click();
    await page.getByTestId('song-status').getByText(ISRC_RULE).waitFor();
    expect(uploads()).toBe(0);
    await suite.shot(page, 'codes-refused');

    // Typed as people type them (lower case, dashes): accepted, and the messages go.
    await isrc(page).fill('us-s1z-99-00001');
    await upc(page).fill('036000291452');
    await fieldError(page, ISRC_RULE).waitFor({ state: 'detached' });
    await fieldError(page, UPC_RULE).waitFor({ state: 'detached' });
  });

  it('checks the audio as a master before it is sent', async () => {
    const page = await signedIn('/uploader');
    await page.getByRole('heading', { name: 'Song Submission' }).waitFor();
    const uploads = countUploadRequests(page);
    await page.getByLabel('Title', { exact: true }).fill('Lossy');
    await page.getByLabel('Artist Name', { exact: true }).fill('Checker');
    await page.getByLabel('Audio file', { exact: true }).setInputFiles(file('song.mp3', 'audio/mpeg', mp3()));
    await page
      .getByTestId('song-audio-check')
      .getByText(/this file is MP3/)
      .waitFor();
    await page.getByRole('button', { name: 'Submit Song' }).click();
    await page
      .getByTestId('song-status')
      .getByText(/this file is MP3\. .* nothing was uploaded\.$/)
      .waitFor();
    expect(uploads()).toBe(0);
  });
});

describe("the release page's 'Fix and resubmit'", () => {
  /** A release of the artist's, rejected by the seeded admin (once delivery has opened its review). */
  async function rejectedRelease(): Promise<string> {
    const token = artist.accessToken;
    const put = (fileName: string, contentType: string, bytes: Buffer, role: 'audio' | 'artwork') =>
      uploadFile(suite.url, token, { bucket: 'omni-assets', fileName, contentType, bytes, role });
    const audio = await put('take.wav', 'audio/wav', wav(3, { tone: true }), 'audio');
    const artwork = await put('cover.png', 'image/png', png(3000, 3000), 'artwork');
    const created = await fetch(`${suite.url}/api/releases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        artistName: 'Checker',
        releaseTitle: 'To Fix',
        trackTitle: 'To Fix',
        releaseType: 'single',
        genre: 'Hip-Hop/Rap',
        explicit: false,
        audio: { bucket: audio.bucket, fileKey: audio.fileKey },
        artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
        stores: ['spotify'],
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { release: { id: string } }).release.id;
    const login = await fetch(`${suite.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
    });
    const admin = (await login.json()) as ApiSession;
    // Delivery opens the review from catalog's event, a moment after the release is created.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await fetch(`${suite.url}/api/admin/releases/${id}/reject`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.accessToken}` },
        body: JSON.stringify({ reason: 'The cover needs to be redone for the stores.' }),
      });
      if (res.status === 200) return id;
      if (Date.now() > deadline) throw new Error(`reject: ${res.status} ${await res.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('checks a new cover and master before sending them, and sends nothing while one is refused', async () => {
    const id = await rejectedRelease();
    const page = await signedIn(`/release/${id}`);
    await page.getByRole('button', { name: 'Fix and resubmit' }).click();
    const form = page.getByRole('dialog', { name: 'Fix and resubmit' });
    const uploads = countUploadRequests(page);
    await form
      .getByLabel('New artwork (optional)')
      .setInputFiles(file('small.png', 'image/png', png(800, 800, { alpha: true })));
    await form
      .getByTestId('resubmit-artwork-check')
      .getByText('Cover art must be at least 3000x3000 pixels; this image is 800x800.')
      .waitFor();
    await form.getByLabel('New audio (optional)').setInputFiles(file('low.wav', 'audio/wav', lowRateWav()));
    await form
      .getByTestId('resubmit-audio-check')
      .getByText(/this file is 22\.05 kHz/)
      .waitFor();
    await form.getByRole('button', { name: 'Resubmit for review' }).click();
    await form
      .locator('p[role="alert"]')
      .getByText(/^Cover art must be at least 3000x3000 pixels; .* nothing was uploaded\.$/)
      .waitFor();
    await suite.shot(page, 'resubmit-refused');
    expect(uploads()).toBe(0);
    await page.getByTestId('release-status').getByText('Rejected').waitFor();
  });
});
