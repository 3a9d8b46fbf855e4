// Editing a release through the API of Omni started as `npm start` starts it (a child process on a fresh
// data folder). A 3-track album is created, approved and Live at two stores; the artist renames track 2:
// a new version with what changed, back to review, and once approved every store is sent the release
// again (a new message, the new title in the ERN, the same ISRCs and UPC). What stores identify a release
// by cannot change once it reached them (an ISRC change is refused with the reason), nor can the track list;
// a release no store has seen changes in place, its ISRC too. Someone else's release is not found.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { png, wav } from '../support/media';
import { type ApiSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';
import { call, deliveries, login } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { personPage, shot, signIn } from './support/people';

let omni: Omni;
let artist: ApiSession;
let other: ApiSession;
let admin: ApiSession;
let browser: Browser | undefined;
const artistEmail = `edit-${randomUUID().slice(0, 8)}@example.com`;
const STORES = ['spotify', 'deezer'];

beforeAll(async () => {
  omni = await startOmni({
    name: 'release-edit',
    env: { STORE_SIMULATOR_DELAY_MS: '0', DELIVERY_POLL_MS: '100' },
  });
  artist = await verifiedSession(omni.url, artistEmail, 'correct-horse-42');
  other = await verifiedSession(
    omni.url,
    `other-${randomUUID().slice(0, 8)}@example.com`,
    'correct-horse-42',
  );
  admin = await login(omni.url, omni.admin.email, omni.admin.password);
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
}, 120_000);

interface TrackJson {
  id: string;
  trackNumber: number;
  title: string;
  isrc: string;
}
interface ReleaseJson {
  id: string;
  title: string;
  upc: string;
  status: string;
  tracks: TrackJson[];
}
interface VersionJson {
  version: number;
  kind: string;
  changes: { field: string; label: string; before: string; after: string }[];
}

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

async function album(title: string): Promise<ReleaseJson> {
  const artwork = await upload('cover.png', 'image/png', png(3000, 3000));
  const tracks = [];
  for (let i = 1; i <= 3; i++)
    tracks.push({
      title: `Song ${i}`,
      audio: await upload(`t${i}.wav`, 'audio/wav', wav(2, { tone: true })),
    });
  const res = await call(omni.url, '/api/releases', artist.accessToken, {
    method: 'POST',
    body: JSON.stringify({
      artistName: 'Edit Artist',
      releaseTitle: title,
      releaseType: 'ep',
      artwork,
      tracks,
      stores: STORES,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { release: ReleaseJson }).release;
}

const patch = (id: string, body: unknown, session = artist) =>
  call(omni.url, `/api/releases/${id}`, session.accessToken, { method: 'PATCH', body: JSON.stringify(body) });

const approve = (id: string) =>
  eventually(
    async () => {
      const r = await call(omni.url, `/api/admin/releases/${id}/approve`, admin.accessToken, {
        method: 'POST',
      });
      if (r.status === 200) return true;
      // Not in review yet (delivery takes the submission in a moment after catalog's answer).
      if (r.status !== 404 && r.status !== 409) throw new Error(`approve: ${r.status} ${await r.text()}`);
      return undefined;
    },
    `release ${id} to reach review`,
    60_000,
  );

const everyStoreLive = (id: string, after = '') =>
  eventually(
    async () => {
      const { jobs } = await deliveries(omni.url, artist.accessToken, id);
      const stuck = jobs.find((j) => j.status === 'rejected' || j.deadLettered);
      if (stuck) throw new Error(`${stuck.target}: ${stuck.status} (${stuck.reason})`);
      const done =
        jobs.length === STORES.length && jobs.every((j) => j.status === 'live' && j.updatedAt > after);
      return done ? jobs : undefined;
    },
    'every store Live',
    180_000,
  );

const ern = async (id: string, store: string) => {
  const res = await call(omni.url, `/api/releases/${id}/deliveries/${store}/ern`, artist.accessToken);
  expect(res.status).toBe(200);
  return res.text();
};
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;
const messageId = (xml: string) => /<MessageId>([^<]+)<\/MessageId>/.exec(xml)?.[1];

it('an edit after Live makes a version, goes back to review and reaches every store again', async () => {
  const release = await album('Edited Later');
  await approve(release.id);
  await everyStoreLive(release.id);
  const before = await Promise.all(STORES.map((s) => ern(release.id, s)));
  expect(before.every((x) => x.includes('<TitleText>Song 2</TitleText>'))).toBe(true);

  // Stores identify the recording by its ISRC: refused with the reason and the way out, nothing changes.
  const isrc = await patch(release.id, { tracks: [{}, { isrc: 'GBXYZ2400001' }, {}] });
  expect(isrc.status).toBe(400);
  expect(await errorOf(isrc)).toBe(
    "Track 2's ISRC cannot change: the release has reached stores, which identify the recording by its ISRC. To use another ISRC, create a new release.",
  );
  const count = await patch(release.id, { tracks: [{ title: 'Only one' }] });
  expect(count.status).toBe(400);
  expect(await errorOf(count)).toContain("List the release's 3 tracks in order");
  const file = await patch(release.id, { artwork: { bucket: 'omni-assets', fileKey: 'x.png' } });
  expect(file.status).toBe(400);
  expect(await errorOf(file)).toContain("An edit changes a release's details");
  expect((await patch(release.id, {})).status).toBe(400);
  // Someone else's release is not found, and stays as it was.
  expect((await patch(release.id, { releaseTitle: 'Stolen' }, other)).status).toBe(404);
  expect((await call(omni.url, `/api/releases/${release.id}/versions`, other.accessToken)).status).toBe(404);

  const t0 = new Date().toISOString();
  const res = await patch(release.id, { tracks: [{}, { title: 'Song Two (Radio Edit)' }, {}] });
  expect(res.status).toBe(200);
  const edited = (await res.json()) as { release: ReleaseJson; version: VersionJson; changed: boolean };
  expect(edited.changed).toBe(true);
  expect(edited.version).toMatchObject({
    version: 2,
    kind: 'edited',
    changes: [
      { field: 'tracks.2.title', label: 'Track 2 title', before: 'Song 2', after: 'Song Two (Radio Edit)' },
    ],
  });
  expect(edited.release.status).toBe('in_review');
  expect(edited.release.tracks.map((t) => t.isrc)).toEqual(release.tracks.map((t) => t.isrc));
  expect(edited.release.upc).toBe(release.upc);

  // The same edit again changes nothing: no new version.
  const again = (await (
    await patch(release.id, { tracks: [{}, { title: 'Song Two (Radio Edit)' }, {}] })
  ).json()) as {
    changed: boolean;
    version: VersionJson;
  };
  expect(again.changed).toBe(false);
  expect(again.version.version).toBe(2);

  const versions = (await (
    await call(omni.url, `/api/releases/${release.id}/versions`, artist.accessToken)
  ).json()) as {
    versions: VersionJson[];
  };
  expect(versions.versions.map((v) => [v.version, v.kind])).toEqual([
    [2, 'edited'],
    [1, 'created'],
  ]);

  await approve(release.id);
  await everyStoreLive(release.id, t0);
  for (const [i, store] of STORES.entries()) {
    const xml = await ern(release.id, store);
    expect(xml).toContain('<TitleText>Song Two (Radio Edit)</TitleText>');
    expect(messageId(xml)).not.toBe(messageId(before[i]!));
    for (const t of release.tracks) expect(xml).toContain(`<ISRC>${t.isrc}</ISRC>`);
    expect(xml).toContain(`<ICPN>${release.upc}</ICPN>`);
  }
}, 600_000);

it('a release no store has seen changes in place, its ISRC too; bad fields are refused with a sentence', async () => {
  const release = await album('Not Yet Out');
  const res = await patch(release.id, {
    releaseTitle: 'Not Yet Out (Deluxe)',
    legal: { copyrightLine: '2026 Edit Artist' },
    tracks: [{ isrc: 'US-XYZ-26-00001' }, {}, { featuredArtists: [{ name: 'Kai Stone' }] }],
  });
  expect(res.status).toBe(200);
  const edited = (await res.json()) as {
    release: ReleaseJson & { tracks: { featuredArtists: unknown[] }[] };
    version: VersionJson;
  };
  expect(edited.release.title).toBe('Not Yet Out (Deluxe)');
  expect(edited.release.tracks[0]!.isrc).toBe('USXYZ2600001');
  expect(edited.release.tracks[2]!.featuredArtists).toEqual([{ name: 'Kai Stone', role: 'featured' }]);
  expect(edited.version.changes.map((c) => c.label)).toEqual([
    'Release title',
    'Legal & IDs: Copyright (P Line)',
    'Track 1 ISRC',
    'Track 3 featured artists',
  ]);

  const cases: [unknown, string][] = [
    [{ releaseTitle: '   ' }, 'Please fill in all required fields.'],
    [{ releaseType: 'mixtape' }, 'Release type must be single, ep or album.'],
    [{ releaseDate: '2026-02-30' }, 'Release date must be a real date written as YYYY-MM-DD.'],
    [
      { tracks: [{}, { language: 'english' }, {}] },
      'Language must be a two-letter ISO 639-1 code, such as en.',
    ],
    [{ tracks: [{ isrc: 'nope' }, {}, {}] }, 'Track 1:'],
  ];
  for (const [body, message] of cases) {
    const r = await patch(release.id, body);
    expect({ body, status: r.status }).toEqual({ body, status: 400 });
    expect(await errorOf(r)).toContain(message);
  }
  const now = (await (await call(omni.url, `/api/releases/${release.id}`, artist.accessToken)).json()) as {
    release: ReleaseJson;
  };
  expect(now.release.title).toBe('Not Yet Out (Deluxe)');
}, 300_000);

it('territories: worldwide unless countries are excluded; the stores get the exclusions, and an edit changes them', async () => {
  const artwork = await upload('cover.png', 'image/png', png(3000, 3000));
  const audio = await upload('t.wav', 'audio/wav', wav(2, { tone: true }));
  const body = {
    artistName: 'Edit Artist',
    releaseTitle: 'Not Everywhere',
    trackTitle: 'Not Everywhere',
    audio,
    artwork,
    stores: STORES,
  };
  const bad = await call(omni.url, '/api/releases', artist.accessToken, {
    method: 'POST',
    body: JSON.stringify({ ...body, excludedTerritories: ['CU', 'XX'] }),
  });
  expect(bad.status).toBe(400);
  expect(await errorOf(bad)).toBe(
    'Excluded territories must be ISO 3166-1 two-letter country codes, such as CU or KP (at most 250).',
  );
  const res = await call(omni.url, '/api/releases', artist.accessToken, {
    method: 'POST',
    body: JSON.stringify({ ...body, excludedTerritories: ['kp', 'cu', 'KP'] }),
  });
  expect(res.status).toBe(201);
  const { release } = (await res.json()) as { release: ReleaseJson & { excludedTerritories: string[] } };
  expect(release.excludedTerritories).toEqual(['CU', 'KP']);
  await approve(release.id);
  await everyStoreLive(release.id);
  for (const store of STORES) {
    const xml = await ern(release.id, store);
    expect(xml.match(/<ExcludedTerritoryCode>([A-Z]{2})<\/ExcludedTerritoryCode>/g)).toEqual([
      '<ExcludedTerritoryCode>CU</ExcludedTerritoryCode>',
      '<ExcludedTerritoryCode>KP</ExcludedTerritoryCode>',
    ]);
    expect(xml).not.toContain('<TerritoryCode>');
  }
  // Worldwide again: a version saying so, and every store gets deals for the whole world.
  const t0 = new Date().toISOString();
  const edited = await patch(release.id, { excludedTerritories: [] });
  expect(edited.status).toBe(200);
  expect(((await edited.json()) as { version: VersionJson }).version.changes).toEqual([
    { field: 'excludedTerritories', label: 'Excluded territories', before: 'CU, KP', after: '' },
  ]);
  await approve(release.id);
  await everyStoreLive(release.id, t0);
  for (const store of STORES) {
    const xml = await ern(release.id, store);
    expect(xml).toContain('<TerritoryCode>Worldwide</TerritoryCode>');
    expect(xml).not.toContain('<ExcludedTerritoryCode>');
  }
}, 300_000);

it('pre-order, release time, release-wide featured artists and language: checked, in every store’s ERN, and an edit changes them', async () => {
  const artwork = await upload('cover.png', 'image/png', png(3000, 3000));
  const audio = await upload('t.wav', 'audio/wav', wav(2, { tone: true }));
  const body = {
    artistName: 'Edit Artist',
    releaseTitle: 'At Midnight',
    trackTitle: 'At Midnight',
    audio,
    artwork,
    stores: STORES,
    releaseDate: '2026-03-01',
  };
  for (const [fields, message] of [
    [{ preOrderDate: '2026-03-01' }, 'The pre-order date must come before the release date.'],
    [
      { preOrderDate: '2026-02-01', releaseDate: '' },
      'A pre-order needs a release date: set the release date, then the pre-order date.',
    ],
    [
      { releaseTimeZone: 'Mars/Olympus' },
      'Release time zone must be a time zone such as America/New_York or Europe/Paris, or empty for midnight local time in each country.',
    ],
    [{ language: 'xx' }, 'Language must be a two-letter ISO 639-1 code, such as en.'],
  ] as const) {
    const bad = await call(omni.url, '/api/releases', artist.accessToken, {
      method: 'POST',
      body: JSON.stringify({ ...body, ...fields }),
    });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toBe(message);
  }
  const res = await call(omni.url, '/api/releases', artist.accessToken, {
    method: 'POST',
    body: JSON.stringify({
      ...body,
      preOrderDate: '2026-02-01',
      releaseTimeZone: 'America/New_York',
      featuredArtists: [{ name: 'Kai Stone' }],
      language: 'FR',
    }),
  });
  expect(res.status).toBe(201);
  const { release } = (await res.json()) as {
    release: ReleaseJson & { preOrderDate: string | null; releaseTimeZone: string | null };
  };
  expect([release.preOrderDate, release.releaseTimeZone]).toEqual(['2026-02-01', 'America/New_York']);
  const extra = release as unknown as { featuredArtists: unknown; language: string };
  expect(extra.featuredArtists).toEqual([{ name: 'Kai Stone', role: 'featured' }]);
  expect(extra.language).toBe('fr');
  await approve(release.id);
  await everyStoreLive(release.id);
  for (const store of STORES) {
    const xml = await ern(release.id, store);
    // The release's deals start at 00:00 New York time (EST that day); each has a pre-order twin.
    expect(xml).toContain('<StartDateTime>2026-03-01T00:00:00-05:00</StartDateTime>');
    expect(xml).toContain('<StartDateTime>2026-02-01T00:00:00-05:00</StartDateTime>');
    expect(xml).toContain('<IsPreOrderDeal>true</IsPreOrderDeal>');
    expect(xml).toContain('<ReleaseVisibilityReference>V1</ReleaseVisibilityReference>');
    expect(xml).toContain('<Release LanguageAndScriptCode="fr">');
    expect(xml).toContain('<LanguageOfPerformance>fr</LanguageOfPerformance>');
    expect(xml).toContain('<DisplayArtistRole>FeaturedArtist</DisplayArtistRole>');
  }
  // Back to local midnight in each country, no pre-order: a version says so, the stores get dates again.
  const t0 = new Date().toISOString();
  const edited = await patch(release.id, { preOrderDate: '', releaseTimeZone: '' });
  expect(edited.status).toBe(200);
  expect(((await edited.json()) as { version: VersionJson }).version.changes).toEqual([
    { field: 'preOrderDate', label: 'Pre-order date', before: '2026-02-01', after: '' },
    { field: 'releaseTimeZone', label: 'Release time zone', before: 'America/New_York', after: '' },
  ]);
  await approve(release.id);
  await everyStoreLive(release.id, t0);
  for (const store of STORES) {
    const xml = await ern(release.id, store);
    expect(xml).toContain('<StartDate>2026-03-01</StartDate>');
    expect(xml).not.toContain('IsPreOrderDeal');
  }
}, 300_000);

const uploads = async (session = artist) =>
  (
    (await (await call(omni.url, '/api/uploads?limit=200', session.accessToken)).json()) as {
      files: { fileKey: string }[];
    }
  ).files.map((f) => f.fileKey);

it('a release no store has seen is deleted with its files; a delivered one is refused with what to do instead', async () => {
  const before = await uploads();
  const release = await album('Deleted Before Review');
  const mine = (await uploads()).filter((k) => !before.includes(k));
  expect(mine).toHaveLength(4);
  // Someone else cannot, and learns nothing.
  expect(
    (await call(omni.url, `/api/releases/${release.id}`, other.accessToken, { method: 'DELETE' })).status,
  ).toBe(404);
  const res = await call(omni.url, `/api/releases/${release.id}`, artist.accessToken, { method: 'DELETE' });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    deleted: true,
    filesRemoved: 4,
    message: 'Release deleted, with its files.',
  });
  expect((await call(omni.url, `/api/releases/${release.id}`, artist.accessToken)).status).toBe(404);
  expect((await uploads()).filter((k) => mine.includes(k))).toEqual([]);
  // The submission event that was on its way does not bring it back to the review queue.
  await new Promise((r) => setTimeout(r, 1_500));
  const queue = (await (await call(omni.url, '/api/admin/releases', admin.accessToken)).json()) as {
    items: { releaseId: string }[];
  };
  expect(queue.items.map((i) => i.releaseId)).not.toContain(release.id);
  expect(
    (await call(omni.url, `/api/releases/${release.id}`, artist.accessToken, { method: 'DELETE' })).status,
  ).toBe(404);

  const live = await album('Delivered, Not Deleted');
  await approve(live.id);
  await everyStoreLive(live.id);
  const refused = await call(omni.url, `/api/releases/${live.id}`, artist.accessToken, { method: 'DELETE' });
  expect(refused.status).toBe(409);
  expect(await errorOf(refused)).toBe(
    'This release has been approved for stores or sent to them, so it cannot be deleted. Take it down from the stores instead.',
  );
  expect((await call(omni.url, `/api/releases/${live.id}`, artist.accessToken)).status).toBe(200);
  const { jobs } = await deliveries(omni.url, artist.accessToken, live.id);
  expect(jobs.map((j) => j.status)).toEqual(['live', 'live']);
}, 300_000);

it('in Chromium: the Finder-style link opens the editor on its tab and track; a saved edit shows as a version and the admin sees the change', async () => {
  const release = await album('Edited In The Browser');
  await approve(release.id);
  await everyStoreLive(release.id);
  browser = await launchBrowser();
  const page = await personPage(browser);
  await signIn(page, omni.url, artistEmail, 'correct-horse-42');
  await page.goto(`${omni.url}/release/${release.id}?edit=Credits&track=${release.tracks[1]!.id}`);
  const editor = page.getByTestId('release-editor');
  await editor.waitFor({ timeout: 30_000 });
  expect(await editor.getByRole('tab', { name: 'Credits' }).getAttribute('aria-selected')).toBe('true');
  await editor.getByLabel('Writers').fill('Ana Diaz, Sam Reed');
  await editor.getByRole('tab', { name: 'Basic Info' }).click();
  // Delivered: the ISRC is the stores' and cannot be edited here.
  expect(await editor.getByLabel('Track 2 ISRC').isDisabled()).toBe(true);
  await editor.getByLabel('Track 3 title *').fill('Song 3 (Live)');
  await shot(page, 'release-edit', 'editor');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Saved as version 2').waitFor({ timeout: 30_000 });
  await editor.waitFor({ state: 'detached' });
  const versions = page.getByTestId('release-version');
  await versions.first().waitFor({ timeout: 30_000 });
  expect(await versions.count()).toBe(2);
  const latest = (await versions.first().textContent()) ?? '';
  expect(latest).toContain('Version 2 · Edited');
  expect(latest).toContain('Credits: Writers: (empty) → Ana Diaz, Sam Reed');
  expect(latest).toContain('Track 3 title: Song 3 → Song 3 (Live)');
  await shot(page, 'release-edit', 'versions');

  // The admin's review queue shows what changed in the version waiting.
  const adminPage = await personPage(browser);
  await signIn(adminPage, omni.url, omni.admin.email, omni.admin.password);
  await adminPage.goto(`${omni.url}/admin/releases`);
  const item = adminPage.locator(`[data-testid="review-item"][data-release-id="${release.id}"]`);
  await item.waitFor({ timeout: 30_000 });
  const changes = (await item.getByTestId('version-changes').textContent()) ?? '';
  expect(changes).toContain('Changed in version 2 (2 changes)');
  expect(changes).toContain('Track 3 title');
  await shot(adminPage, 'release-edit', 'admin-review');

  // A release no store has seen is deleted from its page, after the artist confirms.
  const draft = await album('Deleted From The Page');
  await page.goto(`${omni.url}/release/${draft.id}`);
  await page.getByRole('button', { name: 'Delete release' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('This cannot be undone.').waitFor();
  await shot(page, 'release-edit', 'delete-dialog');
  await dialog.getByRole('button', { name: 'Delete release' }).click();
  await page.waitForURL(`${omni.url}/releases`);
  await page.getByText('Release deleted, with its files.').waitFor();
  expect((await call(omni.url, `/api/releases/${draft.id}`, artist.accessToken)).status).toBe(404);
  // A delivered release offers no delete (a takedown instead).
  await page.goto(`${omni.url}/release/${release.id}`);
  await page.getByRole('button', { name: 'Edit release' }).waitFor();
  expect(await page.getByRole('button', { name: 'Delete release' }).count()).toBe(0);

  // Dates: a pre-order after the release date is refused in the browser, with catalog's words; a right one
  // and a release time zone are saved, and the page says when the release starts.
  await page.getByRole('button', { name: 'Edit release' }).click();
  const dates = page.getByTestId('release-editor');
  await dates.getByLabel('Release Date (optional)').fill('2027-01-15');
  await dates.getByLabel('Pre-order Date (optional)').fill('2027-02-01');
  await dates.getByRole('button', { name: 'Save changes' }).click();
  await dates.getByText('The pre-order date must come before the release date.').waitFor();
  await dates.getByLabel('Pre-order Date (optional)').fill('2026-12-01');
  await dates.getByLabel('Release Time').selectOption('America/New_York');
  await dates.getByLabel('Featured Artists (optional)').fill('Kai Stone');
  await dates.getByLabel('Language (optional)').fill('fr');
  await shot(page, 'release-edit', 'editor-dates');
  await dates.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Saved as version 3').waitFor({ timeout: 30_000 });
  await page.getByTestId('release-preorder').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('release-date').textContent()).toContain(
    'Release date 2027-01-15, 00:00 America/New York time, everywhere at once',
  );
  expect(await page.getByTestId('release-preorder').textContent()).toContain('Pre-orders from 2026-12-01');
  expect(await page.getByTestId('release-artists').textContent()).toBe('Edit Artist feat. Kai Stone');
  expect(await page.getByTestId('release-language').textContent()).toContain('French');
  await shot(page, 'release-edit', 'dates');
}, 600_000);
