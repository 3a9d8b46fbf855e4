// Storage through the real HTTP surface: the gateway's /api/uploads routes, the signed PUT streamed by the
// gateway to storage's object endpoints, and the inspection that decides what stays. Files are made here:
// a WAV from a RIFF header and PCM samples, PNGs of chosen sizes with sharp, an ELF renamed to .wav.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient, loadConfig, type Platform, startPlatform } from '@omni/platform';
import { storage } from '@omni/proto';
import { MODULES } from '@omni/server/src/modules';
import sharp from 'sharp';
import { wav, wavHeader } from '../support/media';
import { signTestToken } from '../support/tokens';

let platform: Platform;
let dataDir: string;
let alice: string;
let bob: string;
const ALICE = 'user-alice';
const BOB = 'user-bob';

interface Signed {
  signedUrl: string;
  fileKey: string;
  bucket: string;
  headers: Record<string, string>;
  expiresAt: string;
  maxSize: number;
}
interface ApiError {
  error: { message: string; code?: string };
}

const api = (path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
  fetch(`${platform.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });

/** Signed URLs name the public address (PUBLIC_URL); the test reaches the same path on the gateway it started. */
const viaGateway = (url: string) => {
  const u = new URL(url);
  return `${platform.url}${u.pathname}${u.search}`;
};

async function sign(token: string, body: Record<string, unknown>): Promise<Signed> {
  const res = await api('/api/uploads/sign', { token, body });
  expect(res.status).toBe(200);
  return (await res.json()) as Signed;
}

/** The signed PUT, sent as the web app sends it: with the sender's bearer token (none when token is null). */
const put = (token: string | null, signed: Signed, bytes: Buffer) =>
  fetch(viaGateway(signed.signedUrl), {
    method: 'PUT',
    headers: {
      'content-type': signed.headers['Content-Type']!,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: bytes,
  });

const complete = (token: string, body: Record<string, unknown>) =>
  api('/api/uploads/complete', { token, body });

async function upload(
  token: string,
  file: { bucket: string; fileName: string; contentType: string; bytes: Buffer; purpose?: string },
) {
  const signed = await sign(token, {
    bucket: file.bucket,
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.bytes.length,
    purpose: file.purpose ?? 'artist-upload',
  });
  const sent = await put(token, signed, file.bytes);
  expect(sent.status).toBe(200);
  return signed;
}

const objectPath = (bucket: string, key: string) => join(dataDir, 'objects', bucket, ...key.split('/'));

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/** The first bytes of a Linux executable, padded: what a renamed binary looks like. */
const elf = () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4096, 1)]);

/** A platform on a fresh data folder, with alice's and bob's tokens for it; `env` adds settings. */
async function start(env: Record<string, string> = {}) {
  dataDir = mkdtempSync(join(tmpdir(), 'omni-storage-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:8080',
      LOG_LEVEL: 'warn',
      ...env,
    },
    [],
  );
  platform = await startPlatform(config, MODULES);
  const identity = await platform.ports.documents('identity');
  alice = await signTestToken(identity, { userId: ALICE });
  bob = await signTestToken(identity, { userId: BOB, email: 'bob@example.com' });
}

async function stop() {
  await platform?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** Runs `steps` against a platform of its own whose upload links live one second (UPLOAD_LINK_SECONDS=1). */
async function withOneSecondLinks(steps: () => Promise<void>) {
  const shared = { platform, dataDir, alice, bob };
  await start({ UPLOAD_LINK_SECONDS: '1' });
  try {
    await steps();
  } finally {
    await stop();
    ({ platform, dataDir, alice, bob } = shared);
  }
}

beforeAll(() => start());

afterAll(stop);

describe('signing', () => {
  it('refuses anonymous callers with 401 on every route', async () => {
    const body = { bucket: 'audio', fileName: 'a.wav', contentType: 'audio/wav', size: 10 };
    expect((await api('/api/uploads/sign', { body })).status).toBe(401);
    expect((await api('/api/uploads/complete', { body: { bucket: 'audio', fileKey: 'x' } })).status).toBe(
      401,
    );
    expect((await api('/api/uploads')).status).toBe(401);
    expect((await api('/api/storage/status')).status).toBe(401);
  });

  it('signs a 15-minute PUT bound to the caller, the bucket, the key and the size', async () => {
    const before = Date.now();
    const signed = await sign(alice, {
      bucket: 'omni-assets',
      fileName: 'My Song (final mix).wav',
      contentType: 'audio/wav',
      size: 1234,
      purpose: 'artist-upload',
    });
    expect(signed.fileKey).toMatch(new RegExp(`^${ALICE}/[0-9a-f-]{36}_My_Song_\\(final_mix\\)\\.wav$`));
    expect(signed).toMatchObject({
      bucket: 'omni-assets',
      maxSize: 1234,
      headers: { 'Content-Type': 'audio/wav' },
    });
    const ttl = Date.parse(signed.expiresAt) - before;
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 1000);
    expect(new URL(signed.signedUrl).pathname).toBe(
      `/objects/omni-assets/${signed.fileKey.split('/').map(encodeURIComponent).join('/')}`,
    );
  });

  it('sanitises names: no path tricks, whitespace as _, keys per purpose (spec §3 paths)', async () => {
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    const tricky = await sign(alice, {
      bucket: 'documents',
      fileName: '../../etc/passwd',
      contentType: 'text/plain',
      size: 5,
      purpose: 'console',
    });
    expect(tricky.fileKey).toMatch(new RegExp(`^${ALICE}/[0-9a-f-]{36}_passwd$`));
    const windows = await sign(alice, {
      bucket: 'documents',
      fileName: 'C:\\Users\\me\\..\\.hidden  notes.txt',
      contentType: 'text/plain',
      size: 5,
      purpose: 'console',
    });
    expect(windows.fileKey).toMatch(new RegExp(`^${ALICE}/[0-9a-f-]{36}_hidden_notes\\.txt$`));
    const contributor = await sign(alice, {
      bucket: 'presskits',
      fileName: 'press kit.pdf',
      contentType: 'application/pdf',
      size: 5,
      purpose: 'contributor',
      folder: '../../x/./spring  tour/..',
    });
    expect(contributor.fileKey).toBe(`${ALICE}/${day}/x/spring_tour/press_kit.pdf`);
    const song = await sign(alice, {
      bucket: 'audio',
      fileName: 'take 1.wav',
      contentType: 'audio/wav',
      size: 5,
      purpose: 'song-submission',
      title: 'Night Drive',
    });
    expect(song.fileKey).toBe(`${ALICE}/${day}/Night_Drive-take_1.wav`);
    // The same name again, while the first was only signed (no bytes accepted), is a retry: it takes the
    // same key rather than leaving an orphan beside a "-2" (issue 21 §3.7). An accepted file is never
    // replaced (upload-orphans.test.ts).
    const again = await sign(alice, {
      bucket: 'audio',
      fileName: 'take 1.wav',
      contentType: 'audio/wav',
      size: 5,
      purpose: 'song-submission',
      title: 'Night Drive',
    });
    expect(again.fileKey).toBe(`${ALICE}/${day}/Night_Drive-take_1.wav`);
  });

  it('refuses a missing bucket, an oversized file and an obviously wrong type before any byte moves', async () => {
    const missing = await api('/api/uploads/sign', {
      token: alice,
      body: { bucket: 'nope', fileName: 'a.wav', contentType: 'audio/wav', size: 10 },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ApiError).error.message).toBe('Bucket "nope" missing...');
    const huge = await api('/api/uploads/sign', {
      token: alice,
      body: {
        bucket: 'audio',
        fileName: 'a.wav',
        contentType: 'audio/wav',
        size: 3 * 1024 ** 3,
        purpose: 'console',
      },
    });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as ApiError).error.message).toBe(
      'This file is 3 GB; files in "audio" may be at most 2 GB.',
    );
    const bigImage = await api('/api/uploads/sign', {
      token: alice,
      body: {
        bucket: 'artwork',
        fileName: 'a.png',
        contentType: 'image/png',
        size: 60 * 1024 ** 2,
        purpose: 'console',
      },
    });
    expect(((await bigImage.json()) as ApiError).error.message).toMatch(/at most 50 MB/);
    const wrong = await api('/api/uploads/sign', {
      token: alice,
      body: { bucket: 'audio', fileName: 'a.png', contentType: 'image/png', size: 10, purpose: 'console' },
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ApiError).error.message).toMatch(/"audio" bucket takes audio/);
    const bad = await api('/api/uploads/sign', {
      token: alice,
      body: { bucket: 'audio', fileName: 'a.wav', size: 'big' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('upload and inspection', () => {
  it('stores a real WAV through the signed PUT and reports its format, duration, rate, depth and channels', async () => {
    const bytes = wav(2);
    const signed = await upload(alice, {
      bucket: 'omni-assets',
      fileName: 'demo.wav',
      contentType: 'audio/wav',
      bytes,
    });
    const res = await complete(alice, { bucket: 'omni-assets', fileKey: signed.fileKey, role: 'audio' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      accepted: boolean;
      inspection: Record<string, unknown>;
      publicUrl: string;
    };
    expect(body.accepted).toBe(true);
    expect(body.inspection).toMatchObject({
      kind: 'audio',
      mimeType: 'audio/wav',
      format: 'wav',
      size: bytes.length,
      durationSeconds: 2,
      sampleRate: 44100,
      bitDepth: 16,
      channels: 2,
      codec: 'PCM',
      problems: [],
    });
    // Audio masters are private: the URL handed out is signed, cached for an hour, and the bare path is refused.
    expect(body.publicUrl).toContain('sig=');
    const got = await fetch(viaGateway(body.publicUrl));
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toMatch(/max-age=3600/);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    const bare = await fetch(viaGateway(body.publicUrl.split('?')[0]!));
    expect(bare.status).toBe(403);
  });

  it('accepts a 3000x3000 RGB PNG as cover art', async () => {
    const bytes = await png(3000, 3000);
    const signed = await upload(alice, {
      bucket: 'omni-assets',
      fileName: 'cover.png',
      contentType: 'image/png',
      bytes,
    });
    const res = await complete(alice, { bucket: 'omni-assets', fileKey: signed.fileKey, role: 'artwork' });
    expect(res.status).toBe(200);
    const { inspection } = (await res.json()) as { inspection: Record<string, unknown> };
    expect(inspection).toMatchObject({
      kind: 'image',
      format: 'png',
      width: 3000,
      height: 3000,
      colorMode: 'rgb',
      problems: [],
    });
  });

  it.each([
    [1200, 1200, 'Cover art must be at least 3000x3000 pixels; this image is 1200x1200.'],
    [3000, 2000, 'Cover art must be square; this image is 3000x2000.'],
  ])('refuses a %ix%i cover with a message saying what is needed, and removes it', async (w, h, message) => {
    const bytes = await png(w, h);
    const signed = await upload(alice, {
      bucket: 'omni-assets',
      fileName: 'cover.png',
      contentType: 'image/png',
      bytes,
    });
    expect(existsSync(objectPath('omni-assets', signed.fileKey))).toBe(true);
    const res = await complete(alice, { bucket: 'omni-assets', fileKey: signed.fileKey, role: 'artwork' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ApiError).error.message).toContain(message);
    expect(existsSync(objectPath('omni-assets', signed.fileKey))).toBe(false);
  });

  it('refuses a greyscale cover and names the colour mode it needs', async () => {
    // (A CMYK conversion takes sharp seconds per image, so the colour rule is exercised with greyscale.)
    const bytes = await sharp(Buffer.alloc(3000 * 3000, 128), {
      raw: { width: 3000, height: 3000, channels: 1 },
    })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const signed = await upload(alice, {
      bucket: 'omni-assets',
      fileName: 'cover.png',
      contentType: 'image/png',
      bytes,
    });
    const res = await complete(alice, { bucket: 'omni-assets', fileKey: signed.fileKey, role: 'artwork' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ApiError).error.message).toBe(
      'Cover art must be in RGB colour; this image is GRAYSCALE.',
    );
  });

  it('refuses a renamed executable as audio, whatever its name and declared type say', async () => {
    for (const bucket of ['omni-assets', 'audio']) {
      const signed = await upload(alice, {
        bucket,
        fileName: 'hit-single.wav',
        contentType: 'audio/wav',
        bytes: elf(),
        purpose: bucket === 'audio' ? 'console' : 'artist-upload',
      });
      const res = await complete(alice, { bucket, fileKey: signed.fileKey });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ApiError).error.message).toMatch(
        /^This file is not audio \(it looks like an executable\)\./,
      );
      expect(existsSync(objectPath(bucket, signed.fileKey))).toBe(false);
    }
    const mz = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2048, 7)]);
    const signed = await upload(alice, {
      bucket: 'artwork',
      fileName: 'photo.png',
      contentType: 'image/png',
      bytes: mz,
      purpose: 'console',
    });
    const res = await complete(alice, { bucket: 'artwork', fileKey: signed.fileKey });
    expect(((await res.json()) as ApiError).error.message).toMatch(/cannot be uploaded to "artwork"/);
  });

  it('takes any file in documents, but only PDF or Word in contracts', async () => {
    const text = Buffer.from('plain notes\n');
    const doc = await upload(alice, {
      bucket: 'documents',
      fileName: 'notes.txt',
      contentType: 'text/plain',
      bytes: text,
      purpose: 'console',
    });
    expect((await complete(alice, { bucket: 'documents', fileKey: doc.fileKey })).status).toBe(200);
    const contract = await upload(alice, {
      bucket: 'contracts',
      fileName: 'deal.pdf',
      contentType: 'application/pdf',
      bytes: text,
      purpose: 'console',
    });
    const res = await complete(alice, { bucket: 'contracts', fileKey: contract.fileKey });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ApiError).error.message).toMatch(/takes a PDF or a Word document/);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const real = await upload(alice, {
      bucket: 'contracts',
      fileName: 'deal.pdf',
      contentType: 'application/pdf',
      bytes: pdf,
      purpose: 'console',
    });
    expect((await complete(alice, { bucket: 'contracts', fileKey: real.fileKey })).status).toBe(200);
  });
});

describe("the stores' rules for a release's files", () => {
  /** A WAV whose header says what is asked, with a second of (silent) samples behind it. */
  const wavWith = (format: { channels?: number; rate?: number; bits?: number }, seconds = 1) => {
    const rate = format.rate ?? 44_100;
    const data = Buffer.alloc(rate * seconds * Math.max(format.channels ?? 2, 1) * ((format.bits ?? 16) / 8));
    return Buffer.concat([wavHeader(data.length, { rate, channels: 2, bits: 16, ...format }), data]);
  };
  const completeAs = async (
    bucket: string,
    fileName: string,
    contentType: string,
    bytes: Buffer,
    role?: string,
  ) => {
    const signed = await upload(alice, {
      bucket,
      fileName,
      contentType,
      bytes,
      purpose: bucket === 'omni-assets' ? 'artist-upload' : 'console',
    });
    const res = await complete(alice, { bucket, fileKey: signed.fileKey, ...(role ? { role } : {}) });
    return {
      signed,
      res,
      body: (await res.json()) as ApiError & { inspection: { warnings: string[]; problems: string[] } },
    };
  };

  it('refuses a WAV whose header says 0 channels, as a master and in the audio bucket, and says why', async () => {
    for (const [bucket, role] of [
      ['omni-assets', 'audio'],
      ['audio', undefined],
    ] as const) {
      const { signed, res, body } = await completeAs(
        bucket,
        'broken.wav',
        'audio/wav',
        wavWith({ channels: 0 }),
        role,
      );
      expect(res.status).toBe(400);
      expect(body.error.message).toBe(
        'This audio file has a broken header: it says the file has 0 channels, so it cannot be played. Export it again as a stereo WAV or FLAC.',
      );
      expect(existsSync(objectPath(bucket, signed.fileKey))).toBe(false);
    }
  });

  it('refuses a master under 44.1 kHz and one that is not 16 or 24 bit, naming what is needed', async () => {
    const low = await completeAs('omni-assets', 'low.wav', 'audio/wav', wavWith({ rate: 22_050 }), 'audio');
    expect(low.res.status).toBe(400);
    expect(low.body.error.message).toMatch(
      /^Stores take release masters at 44\.1 kHz or more; this file is 22\.05 kHz\. Export it again at 44\.1 kHz or more/,
    );
    const eightBit = await completeAs('omni-assets', '8bit.wav', 'audio/wav', wavWith({ bits: 8 }), 'audio');
    expect(eightBit.res.status).toBe(400);
    expect(eightBit.body.error.message).toBe(
      'Stores take release masters at 16 or 24 bit; this file is 8 bit. Export it again at 16 or 24 bit.',
    );
    // The console's audio bucket is not a release: a 22.05 kHz demo is fine there.
    const demo = await completeAs('audio', 'demo.wav', 'audio/wav', wavWith({ rate: 22_050 }));
    expect(demo.res.status).toBe(200);
  });

  it('accepts a mono master with a warning that names the stores refusing mono', async () => {
    const { res, body } = await completeAs(
      'omni-assets',
      'mono.wav',
      'audio/wav',
      wavWith({ channels: 1 }),
      'audio',
    );
    expect(res.status).toBe(200);
    expect(body.inspection.problems).toEqual([]);
    expect(body.inspection.warnings).toEqual([
      'This master is mono. Some stores refuse mono masters (Beatport, Beatsource, Traxsource, Juno Download); export it as stereo to reach every store.',
    ]);
    // Stereo 16-bit 44.1 kHz, the existing valid case, has no warning.
    const stereo = await completeAs('omni-assets', 'stereo.wav', 'audio/wav', wav(1), 'audio');
    expect(stereo.body.inspection.warnings).toEqual([]);
  });

  it('refuses a 3000x3000 cover with an alpha channel: stores ask for RGB', async () => {
    const rgba = await sharp({
      create: { width: 3000, height: 3000, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const { signed, res, body } = await completeAs('omni-assets', 'cover.png', 'image/png', rgba, 'artwork');
    expect(res.status).toBe(400);
    expect(body.error.message).toBe(
      'Cover art must be RGB without transparency; this image has an alpha channel. Save it as JPG, or as PNG without transparency.',
    );
    expect(existsSync(objectPath('omni-assets', signed.fileKey))).toBe(false);
  });

  it("passes storage's warnings and the short-single rule to the release answer, and judges each file for its role", async () => {
    const audio = await completeAs(
      'omni-assets',
      'short-mono.wav',
      'audio/wav',
      wavWith({ channels: 1 }, 20),
      'audio',
    );
    const cover = await completeAs('omni-assets', 'cover.png', 'image/png', await png(3000, 3000), 'artwork');
    const release = (fileKeys: { audio: string; artwork: string }) =>
      api('/api/releases', {
        token: alice,
        body: {
          artistName: 'Nova Reyes',
          releaseTitle: 'Short One',
          trackTitle: 'Short One',
          releaseType: 'single',
          genre: 'Hip-Hop/Rap',
          audio: { bucket: 'omni-assets', fileKey: fileKeys.audio },
          artwork: { bucket: 'omni-assets', fileKey: fileKeys.artwork },
          stores: ['spotify'],
        },
      });
    const res = await release({ audio: audio.signed.fileKey, artwork: cover.signed.fileKey });
    expect(res.status).toBe(201);
    const { release: created } = (await res.json()) as { release: { id: string; warnings: string[] } };
    expect(created.warnings).toEqual([
      'This master is mono. Some stores refuse mono masters (Beatport, Beatsource, Traxsource, Juno Download); export it as stereo to reach every store.',
      'This single is 20 s long. Some stores refuse single-track releases under 30 s (Apple Music, Amazon Music); a longer track reaches every store.',
    ]);
    const again = await api(`/api/releases/${created.id}`, { token: alice });
    expect(((await again.json()) as { release: { warnings: string[] } }).release.warnings).toHaveLength(2);
    // The cover, accepted as artwork, is judged as a master when a release names it as its audio.
    const swapped = await release({ audio: cover.signed.fileKey, artwork: cover.signed.fileKey });
    expect(swapped.status).toBe(400);
    expect(((await swapped.json()) as ApiError).error.message).toMatch(
      /^This file is not audio \(it looks like an image\)/,
    );
  });
});

describe('JSON files', () => {
  it('stores a JSON document sent as application/json through the gateway, whole', async () => {
    // The JSON parser of the API must not touch uploads: it used to consume this body at the gateway,
    // and storage then waited for bytes that never came.
    const json = Buffer.from(JSON.stringify({ tracks: [{ title: 'One', isrc: 'QZQDU2600001' }] }));
    const doc = await upload(alice, {
      bucket: 'documents',
      fileName: 'tracklist.json',
      contentType: 'application/json',
      bytes: json,
      purpose: 'console',
    });
    expect((await complete(alice, { bucket: 'documents', fileKey: doc.fileKey })).status).toBe(200);
    expect(readFileSync(objectPath('documents', doc.fileKey))).toEqual(json);
  });
});

describe('signed links', () => {
  it('refuses a link used for another key, a second use of the same key, and a body larger than signed', async () => {
    const bytes = wav(1);
    const signed = await sign(alice, {
      bucket: 'omni-assets',
      fileName: 'a.wav',
      contentType: 'audio/wav',
      size: bytes.length,
      purpose: 'artist-upload',
    });
    const other = signed.signedUrl.replace('_a.wav', '_b.wav');
    const forged = await fetch(viaGateway(other), {
      method: 'PUT',
      headers: { 'content-type': 'audio/wav', authorization: `Bearer ${alice}` },
      body: bytes,
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as ApiError).error.message).toBe(
      'This upload link is not valid for this file.',
    );
    expect((await put(alice, signed, Buffer.concat([bytes, Buffer.alloc(10)]))).status).toBe(413);
    expect((await put(alice, signed, bytes)).status).toBe(200);
    const reused = await put(alice, signed, bytes);
    expect(reused.status).toBe(409);
  });

  it("refuses the link to another artist and to an anonymous caller, and still takes the owner's file", async () => {
    const mine = wav(1);
    const signed = await sign(alice, {
      bucket: 'omni-assets',
      fileName: 'master.wav',
      contentType: 'audio/wav',
      size: mine.length,
      purpose: 'artist-upload',
    });
    const theirs = wav(1, { tone: true });
    const byBob = await put(bob, signed, theirs);
    expect(byBob.status).toBe(403);
    expect(byBob.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await byBob.json()) as ApiError).error.message).toBe(
      'This upload link was issued to another account. Request your own upload link.',
    );
    const anonymous = await put(null, signed, theirs);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as ApiError).error.message).toBe(
      'Sign in to upload: this upload link works only for the account that requested it.',
    );
    const garbage = await put('not-a-token', signed, theirs);
    expect(garbage.status).toBe(401);
    expect(((await garbage.json()) as ApiError).error.message).toBe(
      'Your session is not valid. Please sign in again.',
    );
    expect(existsSync(objectPath('omni-assets', signed.fileKey))).toBe(false);

    // The refusals neither used up nor damaged the slot: the owner's bytes go in and are what is stored.
    expect((await put(alice, signed, mine)).status).toBe(200);
    const done = await complete(alice, { bucket: 'omni-assets', fileKey: signed.fileKey, role: 'audio' });
    expect(done.status).toBe(200);
    expect(readFileSync(objectPath('omni-assets', signed.fileKey))).toEqual(mine);
  });

  it('refuses a link used after it expired', async () => {
    await withOneSecondLinks(async () => {
      const signed = await sign(alice, {
        bucket: 'documents',
        fileName: 'late.txt',
        contentType: 'text/plain',
        size: 4,
        purpose: 'console',
      });
      // The setting took: the link lives about a second.
      expect(Date.parse(signed.expiresAt)).toBeLessThan(Date.now() + 2000);
      await new Promise((r) => setTimeout(r, Date.parse(signed.expiresAt) - Date.now() + 1100));
      const res = await put(alice, signed, Buffer.from('late'));
      expect(res.status).toBe(403);
      expect(((await res.json()) as ApiError).error.message).toBe(
        'This upload link has expired. Request a new one.',
      );
      expect(existsSync(objectPath('documents', signed.fileKey))).toBe(false);
    });
  });

  it('leaves nothing behind when an upload breaks off midway', async () => {
    const signed = await sign(alice, {
      bucket: 'audio',
      fileName: 'broken.wav',
      contentType: 'audio/wav',
      size: 4 * 1024 * 1024,
      purpose: 'console',
    });
    await new Promise<void>((resolve) => {
      const req = request(viaGateway(signed.signedUrl), {
        method: 'PUT',
        headers: {
          'content-type': 'audio/wav',
          'content-length': String(4 * 1024 * 1024),
          authorization: `Bearer ${alice}`,
        },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(1024 * 1024), () => setTimeout(() => req.destroy(), 200));
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(objectPath('audio', signed.fileKey))).toBe(false);
    expect(readdirSync(join(dataDir, 'objects', '_tmp'))).toEqual([]);
  });
});

/** What a client got back for a PUT it may not have finished sending: the answer, or the error it saw instead. */
interface RawAnswer {
  status?: number;
  body?: string;
  error?: string;
  /** Body bytes the client had handed to its socket when the answer came. */
  sentWhenAnswered?: number;
  gotContinue: boolean;
}

/**
 * PUTs `size` bytes through node:http as a browser would (the whole body offered at once, with or without a
 * declared length and Expect: 100-continue), and reads the answer even if the server answers early.
 */
function rawPut(
  url: string,
  size: number,
  options: { contentType?: string; chunked?: boolean; expectContinue?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    // Alice signed every link these tests use: her bearer goes along, as the web app sends its own.
    const headers: Record<string, string> = {
      'content-type': options.contentType ?? 'audio/wav',
      authorization: `Bearer ${alice}`,
    };
    if (!options.chunked) headers['content-length'] = String(size);
    if (options.expectContinue) headers.expect = '100-continue';
    const answer: RawAnswer = { gotContinue: false };
    let sent = 0;
    const req = request(url, { method: 'PUT', headers }, (res) => {
      answer.status = res.statusCode;
      answer.sentWhenAnswered = sent;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ ...answer, body }));
      res.on('error', (err) => resolve({ ...answer, body, error: err.message }));
    });
    // After an answer, a failed write of the rest of the body is expected; before one, it is the result.
    req.on('error', (err) => {
      if (answer.status === undefined) resolve({ ...answer, error: err.message });
    });
    const chunk = Buffer.alloc(64 * 1024, 7);
    const writeAll = () => {
      const pump = () => {
        while (sent < size && answer.status === undefined) {
          const n = Math.min(chunk.length, size - sent);
          sent += n;
          if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
            return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    };
    if (options.expectContinue) {
      req.on('continue', () => {
        answer.gotContinue = true;
        writeAll();
      });
      req.flushHeaders();
    } else writeAll();
  });
}

describe('refusals of real-sized uploads reach the client as themselves', () => {
  const EIGHT_MB = 8 * 1024 * 1024;
  const tooLarge = 'This file is larger than the upload link allows (at most 1000 bytes).';
  const signSmall = (fileName: string) =>
    sign(alice, { bucket: 'audio', fileName, contentType: 'audio/wav', size: 1000, purpose: 'console' });

  it('answers an 8 MB body on a 1,000-byte link with 413 and the real message, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const signed = await signSmall(`big-${i}.wav`);
      const answer = await rawPut(viaGateway(signed.signedUrl), EIGHT_MB);
      expect(answer).toMatchObject({ status: 413 });
      expect(JSON.parse(answer.body!)).toEqual({ error: { message: tooLarge } });
      expect(existsSync(objectPath('audio', signed.fileKey))).toBe(false);
    }
  });

  it('answers an 8 MB body sent without a declared length (refused midway) with 413 and the real message', async () => {
    for (let i = 0; i < 3; i++) {
      const signed = await signSmall(`chunked-${i}.wav`);
      const answer = await rawPut(viaGateway(signed.signedUrl), EIGHT_MB, { chunked: true });
      expect(answer).toMatchObject({ status: 413 });
      expect(JSON.parse(answer.body!)).toEqual({ error: { message: tooLarge } });
    }
  });

  it('storage reads and drops the rest of a body it refused, so a client still sending is not reset', async () => {
    // A raw socket, because node:http stops sending once it has an answer; a browser does not.
    for (const chunked of [false, true]) {
      const signed = await signSmall(`direct-${chunked}.wav`);
      const url = new URL(signed.signedUrl);
      const storage = new URL(platform.config.httpUrl('storage'));
      const result = await new Promise<{ head: string; sentAll: boolean; error?: string }>((resolve) => {
        let head = '';
        let sentAll = false;
        const socket = connect(Number(storage.port), storage.hostname, () => {
          socket.write(
            `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${storage.host}\r\nContent-Type: audio/wav\r\nAuthorization: Bearer ${alice}\r\n` +
              (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${EIGHT_MB}\r\n\r\n`),
          );
          const chunk = Buffer.alloc(64 * 1024, 7);
          const frame = chunked
            ? Buffer.concat([Buffer.from('10000\r\n'), chunk, Buffer.from('\r\n')])
            : chunk;
          let sent = 0;
          const pump = () => {
            while (sent < EIGHT_MB) {
              sent += chunk.length;
              if (!socket.write(frame)) return void socket.once('drain', pump);
            }
            socket.write(chunked ? '0\r\n\r\n' : '', () => {
              sentAll = true;
              // Give a reset the time to show itself, then leave.
              setTimeout(() => {
                socket.end();
                resolve({ head, sentAll });
              }, 200);
            });
          };
          pump();
        });
        socket.setEncoding('utf8');
        socket.on('data', (text: string) => {
          head += text;
        });
        socket.on('error', (err) => resolve({ head, sentAll, error: err.message }));
      });
      expect(result).toMatchObject({ sentAll: true });
      expect(result.error).toBeUndefined();
      expect(result.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(result.head).toContain(tooLarge);
    }
  });

  it('answers with fetch too: status and message, not a failed request', async () => {
    const signed = await signSmall('fetch.wav');
    const res = await fetch(viaGateway(signed.signedUrl), {
      method: 'PUT',
      headers: { 'content-type': 'audio/wav', authorization: `Bearer ${alice}` },
      body: Buffer.alloc(EIGHT_MB, 7),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ApiError).error.message).toBe(tooLarge);
  });

  it('answers an expired link with 403 saying to request a new link, and a wrong type with 400, whatever the size of the body', async () => {
    await withOneSecondLinks(async () => {
      const signed = await sign(alice, {
        bucket: 'audio',
        fileName: 'late-master.wav',
        contentType: 'audio/wav',
        size: 20 * 1024 * 1024,
        purpose: 'console',
      });
      // The setting took: the link lives about a second.
      expect(Date.parse(signed.expiresAt)).toBeLessThan(Date.now() + 2000);
      await new Promise((r) => setTimeout(r, Date.parse(signed.expiresAt) - Date.now() + 1100));
      for (let i = 0; i < 3; i++) {
        const answer = await rawPut(viaGateway(signed.signedUrl), 20 * 1024 * 1024);
        expect(answer).toMatchObject({ status: 403 });
        expect(JSON.parse(answer.body!)).toEqual({
          error: { message: 'This upload link has expired. Request a new one.' },
        });
      }
    });
    const wrongType = await signSmall('typed.wav');
    const refused = await rawPut(viaGateway(wrongType.signedUrl), EIGHT_MB, { contentType: 'video/mp4' });
    expect(refused).toMatchObject({ status: 400 });
    expect(JSON.parse(refused.body!).error.message).toContain(
      'This upload link is for files of type "audio/wav"',
    );
  });

  it('refuses before the body moves when the client asks first (Expect: 100-continue), and continues when it may', async () => {
    const signed = await signSmall('asked.wav');
    const refused = await rawPut(viaGateway(signed.signedUrl), EIGHT_MB, { expectContinue: true });
    expect(refused).toMatchObject({ status: 413, gotContinue: false, sentWhenAnswered: 0 });
    expect(JSON.parse(refused.body!)).toEqual({ error: { message: tooLarge } });

    const bytes = wav(1);
    const fits = await sign(alice, {
      bucket: 'audio',
      fileName: 'fits.wav',
      contentType: 'audio/wav',
      size: bytes.length,
      purpose: 'console',
    });
    const accepted = await rawPut(viaGateway(fits.signedUrl), bytes.length, { expectContinue: true });
    expect(accepted).toMatchObject({ status: 200, gotContinue: true });
  });
});

describe('ownership and listings', () => {
  it("answers another user's file with 404 from complete and GetObjectInfo, and the owner's with the inspection", async () => {
    const signed = await upload(alice, {
      bucket: 'omni-assets',
      fileName: 'mine.wav',
      contentType: 'audio/wav',
      bytes: wav(1),
    });
    const res = await complete(bob, { bucket: 'omni-assets', fileKey: signed.fileKey, role: 'audio' });
    expect(res.status).toBe(404);
    const client = createGrpcClient(storage.StorageServiceService, platform.config.grpcAddress('storage'));
    try {
      await expect(
        client.getObjectInfo({ ownerId: BOB, bucket: 'omni-assets', fileKey: signed.fileKey, role: '' }),
      ).rejects.toMatchObject({ code: 5 });
      // Never completed: GetObjectInfo judges it on the spot.
      const info = await client.getObjectInfo({
        ownerId: ALICE,
        bucket: 'omni-assets',
        fileKey: signed.fileKey,
        role: '',
      });
      expect(info).toMatchObject({
        exists: true,
        ownerId: ALICE,
        inspection: { kind: 'audio', durationSeconds: 1, problems: [] },
      });
      const small = await upload(alice, {
        bucket: 'omni-assets',
        fileName: 'small.png',
        contentType: 'image/png',
        bytes: await png(600, 600),
      });
      const smallInfo = await client.getObjectInfo({
        ownerId: ALICE,
        bucket: 'omni-assets',
        fileKey: small.fileKey,
        role: '',
      });
      expect(smallInfo.inspection?.problems).toEqual([
        'Cover art must be at least 3000x3000 pixels; this image is 600x600.',
      ]);
    } finally {
      client.close();
    }
  });

  it("lists only the caller's stored files, newest first, with public URLs for public buckets", async () => {
    const thumb = await upload(bob, {
      bucket: 'thumbnails',
      fileName: 'thumb.png',
      contentType: 'image/png',
      bytes: await png(64, 64),
      purpose: 'console',
    });
    expect((await complete(bob, { bucket: 'thumbnails', fileKey: thumb.fileKey })).status).toBe(200);
    const res = await api('/api/uploads?bucket=thumbnails', { token: bob });
    const { files } = (await res.json()) as {
      files: { fileKey: string; publicUrl: string; size: number; contentType: string }[];
    };
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ fileKey: thumb.fileKey, contentType: 'image/png' });
    expect(files[0]!.publicUrl).not.toContain('sig=');
    const open = await fetch(viaGateway(files[0]!.publicUrl));
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toBe('public, max-age=3600');
    const mine = (await (await api('/api/uploads', { token: alice })).json()) as {
      files: { fileKey: string }[];
    };
    expect(mine.files.length).toBeGreaterThan(0);
    expect(mine.files.every((f) => f.fileKey.startsWith(`${ALICE}/`))).toBe(true);
  });

  it('reports every bucket of the spec as existing, with what it accepts, and the tables', async () => {
    const res = await api('/api/storage/status', { token: alice });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      buckets: { name: string; exists: boolean; accepts: string }[];
      tables: { name: string; exists: boolean }[];
    };
    for (const name of [
      'documents',
      'artwork',
      'audio',
      'video',
      'contracts',
      'thumbnails',
      'presskits',
      'omni-assets',
    ]) {
      expect(body.buckets).toContainEqual(expect.objectContaining({ name, exists: true }));
    }
    expect(body.buckets.find((b) => b.name === 'contracts')?.accepts).toBe('PDF or Word documents');
    expect(body.tables.map((t) => t.name)).toEqual(['releases', 'tracks', 'artists', 'delivery_jobs']);
  });
});
