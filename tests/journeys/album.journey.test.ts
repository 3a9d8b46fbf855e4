// An album through the API of Omni started as `npm start` starts it (a child process on a fresh data folder):
// a verified artist uploads twelve WAVs and a cover and creates a 12-track album on two discs with two
// featured artists and per-track credits; the answer lists the tracks in order with distinct ISRCs and
// Apple's reading of the release type; the administrator approves; all 20 stores reach Live; each store's
// ERN 4.3 message validates against the XSD and lists the 12 recordings in order with one TrackRelease each.
// Bad track lists are refused with a sentence and create nothing.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { createErnValidator, type ErnValidator } from '../../services/delivery/src/domain/ddex';
import { launchBrowser } from '../support/browser';
import { png, wav } from '../support/media';
import { type ApiSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';
import { call, deliveries, login, preselectedStores } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { personPage, shot, signIn } from './support/people';

let omni: Omni;
let validator: ErnValidator;
let artist: ApiSession;
let admin: ApiSession;
let browser: Browser;
const email = `album-${randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = 'correct-horse-42';

beforeAll(async () => {
  omni = await startOmni({ name: 'album', env: { STORE_SIMULATOR_DELAY_MS: '0', DELIVERY_POLL_MS: '100' } });
  validator = createErnValidator();
  artist = await verifiedSession(omni.url, email, PASSWORD);
  admin = await login(omni.url, omni.admin.email, omni.admin.password);
}, 420_000);

afterAll(async () => {
  await validator?.close();
  await browser?.close();
  await omni?.stop();
}, 120_000);

const upload = async (fileName: string, contentType: string, bytes: Buffer) => {
  const { bucket, fileKey } = await uploadFile(omni.url, artist.accessToken, {
    bucket: 'omni-assets',
    fileName,
    contentType,
    bytes,
    role: contentType.startsWith('audio') ? 'audio' : 'artwork',
  });
  return { bucket, fileKey };
};

const post = (body: unknown) =>
  call(omni.url, '/api/releases', artist.accessToken, { method: 'POST', body: JSON.stringify(body) });

const all = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}(?: [^>]*)?>([^<]*)</${element}>`, 'g'))].map((m) => m[1]);

it('a 12-track album on two discs is created, approved, Live at 20 stores, and each ERN lists its 12 recordings in order', async () => {
  const masters = [];
  for (let i = 1; i <= 12; i++)
    masters.push(await upload(`track ${i}.wav`, 'audio/wav', wav(2 + (i % 3), { tone: true })));
  const artwork = await upload('cover.png', 'image/png', png(3000, 3000));
  const stores = await preselectedStores(omni.url);
  expect(stores).toHaveLength(20);
  const tracks = masters.map((audio, i) => ({
    title: `Song ${i + 1}`,
    audio,
    explicit: i === 8,
    discNumber: i < 7 ? 1 : 2,
    credits: { writers: [`Writer ${i + 1}`], producers: ['Sam Reed'] },
    ...(i === 2 ? { featuredArtists: [{ name: 'Kai Stone', role: 'featured' }] } : {}),
    ...(i === 7 ? { featuredArtists: [{ name: 'Mira Sol' }] } : {}),
    ...(i === 10 ? { lyrics: 'la la la', language: 'en' } : {}),
  }));
  const res = await post({
    artistName: 'Album Artist',
    releaseTitle: 'Long Way Home',
    releaseType: 'ep',
    artwork,
    tracks,
    stores,
  });
  expect(res.status).toBe(201);
  const { release } = (await res.json()) as {
    release: {
      id: string;
      warnings: string[];
      tracks: {
        trackNumber: number;
        title: string;
        isrc: string;
        discNumber: number;
        featuredArtists: unknown[];
      }[];
    };
  };
  expect(release.tracks.map((t) => [t.trackNumber, t.title, t.discNumber])).toEqual(
    tracks.map((t, i) => [i + 1, t.title, t.discNumber]),
  );
  const isrcs = release.tracks.map((t) => t.isrc);
  expect(new Set(isrcs).size).toBe(12);
  expect(release.tracks[2]!.featuredArtists).toEqual([{ name: 'Kai Stone', role: 'featured' }]);
  // Twelve tracks are an album to Apple, whatever the artist chose: a warning that names the store.
  expect(release.warnings).toContainEqual(
    expect.stringContaining('Apple Music will list this release as an album, not an EP'),
  );

  await eventually(
    async () => {
      const r = await call(omni.url, `/api/admin/releases/${release.id}/approve`, admin.accessToken, {
        method: 'POST',
      });
      if (r.status === 200) return true;
      if (r.status !== 404) throw new Error(`approve: ${r.status} ${await r.text()}`);
      return undefined;
    },
    'the album to reach review',
    60_000,
  );
  await eventually(
    async () => {
      const { jobs } = await deliveries(omni.url, artist.accessToken, release.id);
      const stuck = jobs.find((j) => j.status === 'rejected' || j.deadLettered);
      if (stuck) throw new Error(`${stuck.target}: ${stuck.status} (${stuck.reason})`);
      return jobs.length === 20 && jobs.every((j) => j.status === 'live') ? true : undefined;
    },
    'every store Live',
    240_000,
  );

  for (const store of stores) {
    const ern = await call(
      omni.url,
      `/api/releases/${release.id}/deliveries/${store}/ern`,
      artist.accessToken,
    );
    expect(ern.status).toBe(200);
    const xml = await ern.text();
    expect({ store, ...(await validator.validate(xml)) }).toEqual({ store, valid: true, errors: [] });
    expect(all(xml, 'ISRC')).toEqual(isrcs);
    expect(xml.split('<TrackRelease>')).toHaveLength(13);
    const discs = xml
      .split('<ResourceGroup ResourceGroupType="Component">')
      .slice(1)
      .map((d) => d.slice(0, d.indexOf('</ResourceGroup>')));
    expect(discs.map((d) => all(d, 'ReleaseResourceReference').length)).toEqual([7, 5]);
    expect(all(xml, 'DisplayArtistName')).toEqual(
      expect.arrayContaining(['Album Artist feat. Kai Stone', 'Album Artist feat. Mira Sol']),
    );
    expect(all(xml, 'FullName')).toEqual(expect.arrayContaining(['Writer 1', 'Writer 12', 'Sam Reed']));
  }

  // The release page in Chromium: 12 rows, disc-track numbers, the featured artists on their tracks.
  browser = await launchBrowser();
  const page = await personPage(browser);
  await signIn(page, omni.url, email, PASSWORD);
  await page.goto(`${omni.url}/release/${release.id}`);
  await page.getByRole('heading', { name: 'Long Way Home' }).waitFor({ timeout: 30_000 });
  const rows = page.getByTestId('track-row');
  await rows.nth(11).waitFor();
  expect(await rows.count()).toBe(12);
  expect((await rows.nth(0).locator('td').first().textContent())?.trim()).toBe('1-1');
  expect((await rows.nth(7).locator('td').first().textContent())?.trim()).toBe('2-1');
  expect(await page.getByTestId('track-featured').allTextContents()).toEqual([
    'feat. Kai Stone',
    'feat. Mira Sol',
  ]);
  await shot(page, 'album', 'release-page');
}, 600_000);

it('refuses a bad track list with a sentence, and creates nothing', async () => {
  const audio = await upload('one.wav', 'audio/wav', wav(2, { tone: true }));
  const artwork = await upload('cover.png', 'image/png', png(3000, 3000));
  const base = { artistName: 'Album Artist', releaseTitle: 'Refused', artwork };
  const before = (
    (await (await call(omni.url, '/api/releases', artist.accessToken)).json()) as { releases: unknown[] }
  ).releases.length;
  const cases: [unknown, number, string][] = [
    [
      {
        ...base,
        tracks: [
          { title: 'A', audio },
          { title: '', audio },
        ],
      },
      400,
      'Please fill in all required fields.',
    ],
    [
      { ...base, tracks: [{ title: 'A', audio }, { title: 'B' }] },
      400,
      'Please add both audio and artwork files.',
    ],
    [
      { ...base, tracks: Array.from({ length: 101 }, (_, i) => ({ title: `T${i}`, audio })) },
      400,
      'A release has at most 100 tracks.',
    ],
    [
      {
        ...base,
        tracks: [
          { title: 'A', audio, isrc: 'QZQDU2699991' },
          { title: 'B', audio, isrc: 'qz-qdu-26-99991' },
        ],
      },
      400,
      'Tracks 1 and 2 have the same ISRC QZQDU2699991; each recording has its own.',
    ],
    [{ ...base, tracks: [{ title: 'A', audio, isrc: 'nope' }] }, 400, 'Track 1: ISRC must be 12 letters'],
    [{ ...base, tracks: [{ title: 'A', audio, discNumber: 2 }] }, 400, 'Discs are numbered from 1'],
    [
      { ...base, tracks: [{ title: 'A', audio, featuredArtists: [{ name: 'X', role: 'drummer' }] }] },
      400,
      "A featured artist's role must be featured or remixer.",
    ],
  ];
  for (const [body, status, message] of cases) {
    const res = await post(body);
    const text = await res.text();
    expect({ status: res.status, message: text.includes(message) ? message : text }).toEqual({
      status,
      message,
    });
  }
  const after = (
    (await (await call(omni.url, '/api/releases', artist.accessToken)).json()) as { releases: unknown[] }
  ).releases.length;
  expect(after).toBe(before);
}, 120_000);

it('in Chromium, /artist-upload builds an album: many masters at once, checked before a byte is sent, reordered, each uploaded with its own progress and a failed one retried alone', async () => {
  browser ??= await launchBrowser();
  const page = await personPage(browser);
  await signIn(page, omni.url, email, PASSWORD);
  await page.goto(`${omni.url}/artist-upload`);
  await page.getByRole('heading', { name: 'Artist Upload' }).waitFor({ timeout: 30_000 });
  const field = (label: string) => page.getByLabel(label, { exact: true });
  await field('Artist Name *').fill('Builder Artist');
  await field('Release Title *').fill('Built Here');
  await field('Cover Artwork * (3000x3000 JPG/PNG)').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: png(3000, 3000),
  });
  const master = (name: string, seconds: number) => ({
    name,
    mimeType: 'audio/wav',
    buffer: wav(seconds, { tone: true }),
  });
  const list = page.getByTestId('track-list');
  await list.locator('input[type=file]').setInputFiles([
    master('01 - Morning.wav', 3),
    master('02 - Noon.wav', 3),
    master('03 - Dusk.wav', 3),
    master('04 - Night.wav', 3),
    // Not a lossless master: refused in the browser, named with its track.
    {
      name: '05 - Demo.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2000)]),
    },
  ]);
  const rows = page.getByTestId('builder-track');
  await rows.nth(4).waitFor();
  expect(await rows.count()).toBe(5);
  await rows.nth(4).getByTestId('builder-track-problem').waitFor();
  // Four tracks under 30 minutes are an EP to Apple: said while the type is still "single".
  await page.getByRole('button', { name: 'Upload & Queue Delivery' }).click();
  await page.getByText('Track 5 (05 - Demo.mp3):').first().waitFor();
  expect(await page.getByTestId('track-upload').count()).toBe(0);
  await page.getByRole('button', { name: 'Remove track 5' }).click();
  await page
    .getByTestId('apple-type-warning')
    .getByText('Apple Music will list this release as an EP, not a single')
    .waitFor();
  await page.getByRole('button', { name: 'Move track 4 up' }).click();
  await page.getByLabel('Track 1 featured artists').fill('Kai Stone');
  await field('Release Type').selectOption('ep');
  await page.getByTestId('apple-type-warning').waitFor({ state: 'detached' });
  expect(
    await page
      .getByLabel(/^Track \d title$/)
      .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value)),
  ).toEqual(['Morning', 'Noon', 'Night', 'Dusk']);

  // The first upload of "Night" fails on the wire; the others go through.
  let failedOnce = false;
  await page.route('**/*', (route) => {
    const request = route.request();
    if (!failedOnce && request.method() === 'PUT' && request.url().includes('Night')) {
      failedOnce = true;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT') puts.push(decodeURIComponent(r.url()));
  });
  await page.getByRole('button', { name: 'Upload & Queue Delivery' }).click();
  await rows.nth(2).getByText('Upload failed:').waitFor({ timeout: 60_000 });
  // Every other upload has ended once the button is back.
  await page.getByRole('button', { name: 'Upload & Queue Delivery' }).waitFor({ timeout: 60_000 });
  expect(await rows.getByText('Uploaded and checked').count()).toBe(3);
  await shot(page, 'album', 'builder-failed-one');
  const sentBefore = puts.length;
  await page.getByRole('button', { name: 'Upload & Queue Delivery' }).click();
  await page.waitForURL(/\/release\/[^/?]+$/, { timeout: 60_000 });
  // The retry sent only the master that had failed (and no cover again).
  expect(
    puts
      .slice(sentBefore)
      .filter((u) => /\.(wav|png)/.test(u))
      .map((u) => /Night/.test(u)),
  ).toEqual([true]);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const answer = (await (await call(omni.url, `/api/releases/${id}`, artist.accessToken)).json()) as {
    release: { releaseType: string; tracks: { title: string; featuredArtists: { name: string }[] }[] };
  };
  expect(answer.release.releaseType).toBe('ep');
  expect(answer.release.tracks.map((t) => t.title)).toEqual(['Morning', 'Noon', 'Night', 'Dusk']);
  expect(answer.release.tracks[0]!.featuredArtists.map((a) => a.name)).toEqual(['Kai Stone']);
  await page.getByTestId('track-row').nth(3).waitFor();
  await shot(page, 'album', 'builder-release');
}, 300_000);
