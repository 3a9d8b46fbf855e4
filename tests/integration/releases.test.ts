// Releases through the real HTTP surface: gateway → catalog (→ storage's GetObjectInfo, a stand-in here)
// → one transaction with the outbox → bus → delivery's jobs, read back through the gateway.
import { randomUUID } from 'node:crypto';
import { createGrpcClient } from '@omni/platform';
import { catalog, events } from '@omni/proto';
import {
  artworkFile,
  audioFile,
  type ReleasePlatform,
  releaseBody,
  startReleasePlatform,
  waitUntil,
} from './releases.fixtures';

interface ReleaseJson {
  id: string;
  title: string;
  status: string;
  upc: string;
  genre: string;
  releaseType: string;
  releaseDate: string | null;
  label: string | null;
  artworkUrl: string | null;
  artist: { id: string; name: string };
  tracks: {
    trackNumber: number;
    isrc: string;
    durationSeconds: number;
    explicit: boolean;
    audioUrl: string;
  }[];
  metadata: Record<string, Record<string, unknown>>;
  stores: string[];
  delivery: {
    total: number;
    byStatus: Record<string, number>;
    jobs: { target: string; status: string; jobKind: string }[];
  };
}

let omni: ReleasePlatform;
const alice = randomUUID();
const bob = randomUUID();
let aliceToken: string;
let bobToken: string;
let adminToken: string;

beforeAll(async () => {
  omni = await startReleasePlatform();
  aliceToken = await omni.token(alice);
  bobToken = await omni.token(bob);
  adminToken = await omni.token(randomUUID(), ['artist', 'admin']);
});
afterAll(() => omni?.close());

const submit = (body: unknown, token = aliceToken) =>
  omni.api('/api/releases', { method: 'POST', token, json: body });
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;
const releaseOf = async (res: Response) => ((await res.json()) as { release: ReleaseJson }).release;
const getRelease = async (id: string, token = aliceToken) => omni.api(`/api/releases/${id}`, { token });

/** Waits until delivery reports `n` jobs for the release (they are queued from the event, asynchronously). */
const jobsOf = (id: string, n: number) =>
  waitUntil(
    async () => {
      const release = await releaseOf(await getRelease(id));
      return release.delivery.total >= n ? release : undefined;
    },
    5000,
    `${n} delivery jobs`,
  );

describe('platforms', () => {
  it('serves the 142 platform keys in the spec order, the first 20 preselected, without sign-in', async () => {
    const res = await omni.api('/api/platforms');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { platforms: { key: string; name: string }[]; preselected: string[] };
    const keys = body.platforms.map((p) => p.key);
    expect(keys).toHaveLength(142);
    expect(new Set(keys).size).toBe(142);
    expect(keys.slice(0, 4)).toEqual(['spotify', 'apple_music', 'youtube_music', 'youtube_content_id']);
    expect(keys.slice(40, 44)).toEqual(['tim_musica', 'uma', 'extra_dsp_1', 'extra_dsp_2']);
    expect(keys[141]).toBe('extra_dsp_100');
    expect(body.preselected).toEqual(keys.slice(0, 20));
    expect(body.preselected.at(-1)).toBe('beatsource');
  });
});

describe('creating a release', () => {
  it('stores the release as a draft with every field of the form, a track and one queued ingest job per chosen store', async () => {
    const body = releaseBody(alice);
    const res = await submit(body);
    expect(res.status).toBe(201);
    const created = await releaseOf(res);
    expect(created).toMatchObject({
      title: 'Night Drive',
      status: 'draft',
      releaseType: 'single',
      genre: 'Hip-Hop/Rap',
      label: 'Moonlit Records',
      releaseDate: '2026-09-01',
      artist: { name: 'Nova Reyes' },
      stores: ['spotify', 'apple_music', 'tidal'],
    });
    expect(created.artworkUrl).toContain(body.artwork.fileKey);
    expect(created.tracks).toEqual([
      expect.objectContaining({ trackNumber: 1, explicit: true, durationSeconds: 187.25 }),
    ]);
    expect(created.tracks[0]!.audioUrl).toContain(body.audio.fileKey);
    expect(created.metadata).toEqual({
      credits: {
        producers: ['Kai Long', 'Ama Boateng'],
        writers: ['Nova Reyes', 'Kai Long'],
        musicians: ['Lee Park'],
        engineer: 'Sam Ortiz',
        instruments: 'Synth\nDrums',
      },
      technical: {
        bpm: 92,
        musicalKey: 'F# minor',
        style: 'Trap',
        mood: 'Moody',
        recordedIn: 'Lagos',
        masteringStudio: 'Blue Room',
        recordingDate: '2026-01-15',
      },
      legal: body.legal,
      content: body.content,
    });
    const yy = String(new Date().getUTCFullYear() % 100).padStart(2, '0');
    expect(created.tracks[0]!.isrc).toMatch(new RegExp(`^QZQDU${yy}\\d{5}$`));
    expect(created.upc).toMatch(/^899999\d{8}$/);

    const withJobs = await jobsOf(created.id, 3);
    expect(withJobs.delivery.jobs).toEqual([
      expect.objectContaining({ target: 'spotify', status: 'queued', jobKind: 'ingest' }),
      expect.objectContaining({ target: 'apple_music', status: 'queued', jobKind: 'ingest' }),
      expect.objectContaining({ target: 'tidal', status: 'queued', jobKind: 'ingest' }),
    ]);
    expect(withJobs.delivery.byStatus).toEqual({ queued: 3 });
  });

  it('queues all 142 stores when none is chosen', async () => {
    const created = await releaseOf(await submit(releaseBody(alice, { stores: [] })));
    expect(created.stores).toHaveLength(142);
    const withJobs = await jobsOf(created.id, 142);
    expect(withJobs.delivery.total).toBe(142);
    expect(new Set(withJobs.delivery.jobs.map((j) => j.target)).size).toBe(142);
    expect(withJobs.delivery.jobs[0]!.target).toBe('spotify');
    expect(withJobs.delivery.jobs[141]!.target).toBe('extra_dsp_100');
  });

  it('applies the defaults: genre Hip-Hop/Rap, no release date, single, not explicit', async () => {
    const {
      genre: _g,
      releaseDate: _d,
      releaseType: _t,
      explicit: _e,
      label: _l,
      ...rest
    } = releaseBody(alice);
    const res = await submit(rest);
    expect(res.status).toBe(201);
    expect(await releaseOf(res)).toMatchObject({
      genre: 'Hip-Hop/Rap',
      releaseDate: null,
      releaseType: 'single',
      label: null,
      tracks: [expect.objectContaining({ explicit: false })],
    });
  });

  it('finds the artist by name for the same user and creates a separate one for another user', async () => {
    const a1 = await releaseOf(await submit(releaseBody(alice, { artistName: 'Same Name' })));
    const a2 = await releaseOf(await submit(releaseBody(alice, { artistName: 'Same Name' })));
    const b1 = await releaseOf(await submit(releaseBody(bob, { artistName: 'Same Name' }), bobToken));
    expect(a2.artist.id).toBe(a1.artist.id);
    expect(b1.artist.id).not.toBe(a1.artist.id);
  });

  it('gives every release a distinct UPC with a valid GS1 check digit', async () => {
    const upcs = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await releaseOf(await submit(releaseBody(alice, { stores: ['spotify'] })))).upc,
      ),
    );
    expect(new Set(upcs).size).toBe(10);
    for (const upc of upcs) {
      expect(upc).toMatch(/^899999\d{8}$/);
      const digits = [...upc].map(Number);
      // GS1: weights 3,1,3,… from the right of the 13 data digits; the check digit completes a multiple of 10.
      const sum = digits.slice(0, 13).reduce((s, d, i) => s + d * ((12 - i) % 2 === 0 ? 3 : 1), 0);
      expect((sum + digits[13]!) % 10).toBe(0);
    }
  });
});

describe('validation (400 with the spec message, nothing created)', () => {
  const cases: [string, (owner: string) => unknown, string | RegExp][] = [
    ['missing artist name', (o) => releaseBody(o, { artistName: '' }), 'Please fill in all required fields.'],
    [
      'blank release title',
      (o) => releaseBody(o, { releaseTitle: '   ' }),
      'Please fill in all required fields.',
    ],
    [
      'missing track title',
      (o) => releaseBody(o, { trackTitle: undefined }),
      'Please fill in all required fields.',
    ],
    ['no body at all', () => undefined, 'Please fill in all required fields.'],
    [
      'missing audio',
      (o) => releaseBody(o, { audio: undefined }),
      'Please add both audio and artwork files.',
    ],
    [
      'missing artwork',
      (o) => releaseBody(o, { artwork: { bucket: 'omni-assets', fileKey: '' } }),
      'Please add both audio and artwork files.',
    ],
    [
      'both files missing and a title',
      (o) => releaseBody(o, { audio: null, artwork: null, trackTitle: '' }),
      'Please fill in all required fields.',
    ],
    [
      'unknown release type',
      (o) => releaseBody(o, { releaseType: 'mixtape' }),
      'Release type must be single, ep or album.',
    ],
    [
      'malformed release date',
      (o) => releaseBody(o, { releaseDate: '01/09/2026' }),
      'Release date must be written as YYYY-MM-DD.',
    ],
    [
      'impossible release date',
      (o) => releaseBody(o, { releaseDate: '2026-02-30' }),
      'Release date must be a real date written as YYYY-MM-DD.',
    ],
    ['bpm not a number', (o) => releaseBody(o, { technical: { bpm: 'fast' } }), 'BPM must be a number.'],
    [
      'bpm out of range',
      (o) => releaseBody(o, { technical: { bpm: 5000 } }),
      'BPM must be between 1 and 999.',
    ],
    ['explicit not a boolean', (o) => releaseBody(o, { explicit: 'yes' }), 'Explicit must be true or false.'],
    [
      'stores not a list',
      (o) => releaseBody(o, { stores: 'spotify' }),
      'Stores must be a list of store keys.',
    ],
    [
      'unknown store key',
      (o) => releaseBody(o, { stores: ['spotify', 'myspace'] }),
      'Unknown store "myspace". Choose stores from the platform list.',
    ],
    [
      'title too long',
      (o) => releaseBody(o, { releaseTitle: 'x'.repeat(201) }),
      'Release title is too long (200 characters at most).',
    ],
    [
      'audio that is not audio',
      (o) =>
        releaseBody(o, {
          audio: audioFile(o, {
            kind: 'other',
            problems: ['This file is not audio (it looks like an executable).'],
          }),
        }),
      'This file is not audio (it looks like an executable).',
    ],
    // The stores' file rules (length, format, size, colour) are storage's to judge, for the role catalog
    // names: tests/integration/storage.test.ts exercises them on real files; here storage's verdict is a
    // given and catalog must pass it on.
    [
      'storage refused the cover',
      (o) =>
        releaseBody(o, {
          artwork: artworkFile(o, {
            problems: ['Cover art must be at least 3000x3000 pixels; this image is 800x800.'],
          }),
        }),
      'Cover art must be at least 3000x3000 pixels; this image is 800x800.',
    ],
    [
      'a file that does not exist',
      (o) => releaseBody(o, { audio: { bucket: 'omni-assets', fileKey: `${o}/nothing.wav` } }),
      'We could not find the uploaded audio file. Please upload it again.',
    ],
    [
      "someone else's artwork",
      (o) => releaseBody(o, { artwork: artworkFile(randomUUID()) }),
      'We could not find the uploaded artwork. Please upload it again.',
    ],
  ];

  it.each(cases)('%s', async (_name, body, message) => {
    const before = (
      (await (await omni.api('/api/dashboard', { token: aliceToken })).json()) as { totalReleases: number }
    ).totalReleases;
    const res = await submit(body(alice));
    expect(res.status).toBe(400);
    const text = await errorOf(res);
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
    const after = (
      (await (await omni.api('/api/dashboard', { token: aliceToken })).json()) as { totalReleases: number }
    ).totalReleases;
    expect(after).toBe(before);
  });

  it('answers malformed JSON with 400 and an unsigned caller with 401', async () => {
    const malformed = await omni.api('/api/releases', {
      method: 'POST',
      token: aliceToken,
      body: '{"artistName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await omni.api('/api/releases', { method: 'POST', json: releaseBody(alice) })).status).toBe(401);
    expect((await omni.api('/api/releases')).status).toBe(401);
    expect((await omni.api('/api/dashboard')).status).toBe(401);
  });
});

describe('ownership', () => {
  it("answers 404 for another artist's release, the same as for a missing one; the owner and an admin see it", async () => {
    const created = await releaseOf(await submit(releaseBody(alice)));
    const asBob = await getRelease(created.id, bobToken);
    expect(asBob.status).toBe(404);
    expect(await errorOf(asBob)).toBe('No such release.');
    const missing = await getRelease(randomUUID(), bobToken);
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toBe('No such release.');
    expect((await getRelease(created.id, aliceToken)).status).toBe(200);
    expect((await getRelease(created.id, adminToken)).status).toBe(200);
  });

  it("lists only the caller's releases, newest first, and counts them on the dashboard", async () => {
    const carol = randomUUID();
    const carolToken = await omni.token(carol);
    const first = await releaseOf(await submit(releaseBody(carol, { releaseTitle: 'First' }), carolToken));
    const second = await releaseOf(await submit(releaseBody(carol, { releaseTitle: 'Second' }), carolToken));
    const list = (await (await omni.api('/api/releases', { token: carolToken })).json()) as {
      releases: ReleaseJson[];
    };
    expect(list.releases.map((r) => r.id)).toEqual([second.id, first.id]);
    const dashboard = await (await omni.api('/api/dashboard', { token: carolToken })).json();
    expect(dashboard).toEqual({
      totalReleases: 2,
      monthlyStreams: 0,
      totalEarnings: 0,
      collaborators: 0,
      // No statement has been imported for them: royalties' figures are empty, and say so.
      streamsMonth: null,
      totalEarningsUsd: '0.00',
      earningsThrough: null,
      // Draft until delivery's review of release.created reaches catalog (delivery.updated), then in review.
      releases: [
        expect.objectContaining({
          id: second.id,
          title: 'Second',
          status: expect.stringMatching(/^(draft|in_review)$/),
        }),
        expect.objectContaining({
          id: first.id,
          title: 'First',
          status: expect.stringMatching(/^(draft|in_review)$/),
        }),
      ],
    });
  });
});

describe('ISRC allocation', () => {
  it('hands out 50 distinct, well-formed codes to 50 concurrent callers', async () => {
    const client = createGrpcClient(catalog.CatalogServiceService, omni.config.grpcAddress('catalog'));
    try {
      const codes = await Promise.all(
        Array.from({ length: 50 }, async () => (await client.allocateIsrc({})).isrc),
      );
      expect(new Set(codes).size).toBe(50);
      for (const code of codes) expect(code).toMatch(/^QZQDU\d{2}\d{5}$/);
    } finally {
      client.close();
    }
  });

  it('gives 20 concurrent song submissions distinct ISRCs over HTTP', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        omni.api('/api/songs', {
          method: 'POST',
          token: aliceToken,
          json: { title: `Song ${i}`, artistName: 'Nova Reyes', audio: audioFile(alice) },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const isrcs = await Promise.all(responses.map(async (r) => ((await r.json()) as { isrc: string }).isrc));
    expect(new Set(isrcs).size).toBe(20);
  });
});

describe('song submission', () => {
  const song = (extra: Record<string, unknown>) =>
    omni.api('/api/songs', {
      method: 'POST',
      token: aliceToken,
      json: { title: 'Console Song', artistName: 'Nova Reyes', audio: audioFile(alice), ...extra },
    });

  it('checks title and artist, then the audio file', async () => {
    expect(await errorOf(await song({ title: '' }))).toBe('Title and Artist required.');
    expect(await errorOf(await song({ artistName: ' ' }))).toBe('Title and Artist required.');
    const noAudio = await song({ audio: undefined });
    expect(noAudio.status).toBe(400);
    expect(await errorOf(noAudio)).toBe('Choose an audio file.');
  });

  it('keeps a given ISRC and UPC, refuses malformed or used ones', async () => {
    const res = await song({ isrc: 'us-s1z-99-00001', upc: '036000291452' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { isrc: string; release: ReleaseJson };
    expect(body.isrc).toBe('USS1Z9900001');
    expect(body.release.upc).toBe('036000291452');
    const reused = await song({ isrc: 'USS1Z9900001' });
    expect(reused.status).toBe(409);
    expect(await errorOf(reused)).toBe('ISRC USS1Z9900001 is already used by another track.');
    const reusedUpc = await song({ upc: '036000291452' });
    expect(reusedUpc.status).toBe(409);
    const malformed = await song({ isrc: 'ABC123' });
    expect(malformed.status).toBe(400);
    expect(await errorOf(malformed)).toMatch(/^ISRC must be 12 letters and digits/);
    const badCheck = await song({ upc: '036000291453' });
    expect(badCheck.status).toBe(400);
    expect(await errorOf(badCheck)).toMatch(/^UPC must be 12 to 14 digits ending in a valid check digit/);
  });
});

describe('release.created', () => {
  it('a redelivered event (the same envelope published again) creates no extra jobs', async () => {
    const created = await releaseOf(await submit(releaseBody(alice, { stores: ['deezer', 'qobuz'] })));
    await jobsOf(created.id, 2);
    const bus = await omni.ports.events();
    const envelope = {
      id: randomUUID(),
      type: 'release.created',
      version: 1,
      time: new Date().toISOString(),
      source: 'catalog',
      key: created.id,
      data: events.releaseCreated.parse({
        releaseId: created.id,
        ownerId: alice,
        artistId: created.artist.id,
        upc: created.upc,
        trackIds: ['t1'],
        isrcs: [created.tracks[0]!.isrc],
        stores: ['deezer', 'qobuz'],
        createdAt: new Date().toISOString(),
      }),
    };
    // The same envelope twice (a redelivery), then a new envelope for the same release (a re-send).
    const value = JSON.stringify(envelope);
    await bus.publish('release.created', [
      { key: created.id, value },
      { key: created.id, value },
    ]);
    await bus.publish('release.created', [
      { key: created.id, value: JSON.stringify({ ...envelope, id: randomUUID() }) },
    ]);
    // A re-send naming one more store: the review stands and the held jobs follow the event's store
    // list. Once delivery has marked it processed, every earlier one was handled too (same key → same
    // partition → in order).
    const last = randomUUID();
    await bus.publish('release.created', [
      {
        key: created.id,
        value: JSON.stringify({
          ...envelope,
          id: last,
          data: { ...envelope.data, stores: ['deezer', 'qobuz', 'napster'] },
        }),
      },
    ]);
    const delivery = await omni.ports.documents('delivery');
    await waitUntil(
      async () =>
        (await delivery.collection('processed_events').findById(`delivery.release-created:${last}`))
          ? true
          : undefined,
      5000,
      'the last re-send to be processed',
    );
    const after = await jobsOf(created.id, 3);
    expect(after.delivery.jobs.map((j) => j.target).sort()).toEqual(['deezer', 'napster', 'qobuz']);
  });
});
