// Issue 21 §3.7 (server part): a console song submission or an artist upload that fails leaves no orphan
// files. A submission catalog refuses has its files removed (unless a release of the owner uses them); a
// retry takes its own key again instead of adding "-2", "-3"; the console lists only files a person can
// use (accepted by a completion), never one signed and left, refused or removed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Platform, startPlatform } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';
import { png, wav } from '../support/media';
import { signTestToken } from '../support/tokens';

let platform: Platform;
let dataDir: string;
let alice: string;
const ALICE = 'user-orphans-alice';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omni-orphans-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:8080',
      LOG_LEVEL: 'warn',
    },
    [],
  );
  platform = await startPlatform(config, MODULES);
  alice = await signTestToken(await platform.ports.documents('identity'), { userId: ALICE });
});
afterAll(async () => {
  await platform?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, body?: unknown) =>
  fetch(`${platform.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const objectPath = (bucket: string, key: string) => join(dataDir, 'objects', bucket, ...key.split('/'));

interface Signed {
  signedUrl: string;
  fileKey: string;
  headers: Record<string, string>;
}

async function sign(body: Record<string, unknown>): Promise<Signed> {
  const res = await api('/api/uploads/sign', body);
  expect(res.status).toBe(200);
  return (await res.json()) as Signed;
}

async function put(signed: Signed, bytes: Buffer, contentType: string) {
  const u = new URL(signed.signedUrl);
  const res = await fetch(`${platform.url}${u.pathname}${u.search}`, {
    method: 'PUT',
    headers: { 'content-type': contentType, authorization: `Bearer ${alice}` },
    body: bytes,
  });
  expect(res.status).toBe(200);
}

async function complete(bucket: string, fileKey: string, role: string) {
  const res = await api('/api/uploads/complete', { bucket, fileKey, role });
  expect(res.status).toBe(200);
}

/** The console's Song Submission: sign (bucket audio, titled), PUT, complete, then the song itself. */
async function songTry(title: string, fileName: string, codes: { isrc?: string } = {}) {
  const bytes = wav(1, { tone: true });
  const signed = await sign({
    bucket: 'audio',
    purpose: 'song-submission',
    title,
    fileName,
    contentType: 'audio/wav',
    size: bytes.length,
  });
  await put(signed, bytes, 'audio/wav');
  await complete('audio', signed.fileKey, 'audio');
  const res = await api('/api/songs', {
    title,
    artistName: 'Orphan Tester',
    ...codes,
    audio: { bucket: 'audio', fileKey: signed.fileKey },
  });
  return { fileKey: signed.fileKey, res };
}

async function listed(bucket: string): Promise<string[]> {
  const res = await api(`/api/uploads?bucket=${bucket}&limit=200`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { files: { fileKey: string }[] }).files.map((f) => f.fileKey);
}

it('removes a refused song submission’s file, and the retry takes the same key (no -2, -3)', async () => {
  const first = await songTry('Taken Code', 'track1.wav');
  expect(first.res.status).toBe(201);
  const { isrc } = (await first.res.json()) as { isrc: string };

  // Refused by catalog (the ISRC is another track's): the file it brought is gone, and not listed.
  const refused = await songTry('Console Song', 'track3.wav', { isrc });
  expect(refused.res.status).toBe(409);
  expect(existsSync(objectPath('audio', refused.fileKey))).toBe(false);
  expect(await listed('audio')).not.toContain(refused.fileKey);

  // Tried twice more, refused again, then accepted: always the same key, one file.
  const again = await songTry('Console Song', 'track3.wav', { isrc });
  expect(again.res.status).toBe(409);
  expect(again.fileKey).toBe(refused.fileKey);
  const accepted = await songTry('Console Song', 'track3.wav');
  expect(accepted.res.status).toBe(201);
  expect(accepted.fileKey).toBe(refused.fileKey);
  expect(accepted.fileKey).toMatch(/Console_Song-track3\.wav$/);
  const files = await listed('audio');
  expect(files.filter((k) => /Console_Song-track3(-\d+)?\.wav$/.test(k))).toEqual([accepted.fileKey]);
  expect(existsSync(objectPath('audio', accepted.fileKey))).toBe(true);
  // The first song's file stays: a release uses it.
  expect(files).toContain(first.fileKey);
  // An accepted file is never replaced: the same title and name once more is another file.
  const another = await sign({
    bucket: 'audio',
    purpose: 'song-submission',
    title: 'Console Song',
    fileName: 'track3.wav',
    contentType: 'audio/wav',
    size: 100,
  });
  expect(another.fileKey).toMatch(/Console_Song-track3-2\.wav$/);
});

it('keeps a file a release already uses when a later submission with it is refused', async () => {
  const first = await songTry('Kept File', 'keep.wav');
  expect(first.res.status).toBe(201);
  const { isrc } = (await first.res.json()) as { isrc: string };
  const res = await api('/api/songs', {
    title: 'Kept File Again',
    artistName: 'Orphan Tester',
    isrc,
    audio: { bucket: 'audio', fileKey: first.fileKey },
  });
  expect(res.status).toBe(409);
  expect(existsSync(objectPath('audio', first.fileKey))).toBe(true);
  expect(await listed('audio')).toContain(first.fileKey);
});

it('lists only accepted files: one signed and sent but never completed is not offered, and its retry reuses the key', async () => {
  const bytes = wav(1, { tone: true });
  const body = {
    bucket: 'audio',
    purpose: 'song-submission',
    title: 'Half Done',
    fileName: 'half.wav',
    contentType: 'audio/wav',
    size: bytes.length,
  };
  const left = await sign(body);
  await put(left, bytes, 'audio/wav');
  // Never completed (the page failed before): not a file anyone can use.
  expect(await listed('audio')).not.toContain(left.fileKey);
  const retry = await sign(body);
  expect(retry.fileKey).toBe(left.fileKey);
  await put(retry, bytes, 'audio/wav');
  await complete('audio', retry.fileKey, 'audio');
  expect((await listed('audio')).filter((k) => k.endsWith('Half_Done-half.wav'))).toEqual([retry.fileKey]);
});

it('removes an artist upload’s files when catalog refuses the release', async () => {
  const audioBytes = wav(3, { tone: true });
  const coverBytes = png(3000, 3000);
  const audio = await sign({
    bucket: 'omni-assets',
    purpose: 'artist-upload',
    fileName: 'master.wav',
    contentType: 'audio/wav',
    size: audioBytes.length,
  });
  await put(audio, audioBytes, 'audio/wav');
  await complete('omni-assets', audio.fileKey, 'audio');
  const cover = await sign({
    bucket: 'omni-assets',
    purpose: 'artist-upload',
    fileName: 'cover.png',
    contentType: 'image/png',
    size: coverBytes.length,
  });
  await put(cover, coverBytes, 'image/png');
  await complete('omni-assets', cover.fileKey, 'artwork');
  const res = await api('/api/releases', {
    artistName: 'Orphan Tester',
    releaseTitle: 'Refused',
    trackTitle: 'Refused',
    releaseType: 'single',
    genre: 'Electronic',
    audio: { bucket: 'omni-assets', fileKey: audio.fileKey },
    artwork: { bucket: 'omni-assets', fileKey: cover.fileKey },
    stores: ['no_such_store'],
  });
  expect(res.status).toBe(400);
  for (const key of [audio.fileKey, cover.fileKey]) {
    expect(existsSync(objectPath('omni-assets', key))).toBe(false);
    expect(await listed('omni-assets')).not.toContain(key);
  }
});

it('lets the owner discard an upload of a failed try, but never a file submitted with a release', async () => {
  // An artwork uploaded, then the master refused: the try stops before its release, the artwork stays.
  const coverBytes = png(3000, 3000);
  const cover = await sign({
    bucket: 'omni-assets',
    purpose: 'artist-upload',
    fileName: 'lonely-cover.png',
    contentType: 'image/png',
    size: coverBytes.length,
  });
  await put(cover, coverBytes, 'image/png');
  await complete('omni-assets', cover.fileKey, 'artwork');
  expect(await listed('omni-assets')).toContain(cover.fileKey);
  let res = await api('/api/uploads/discard', { bucket: 'omni-assets', fileKey: cover.fileKey });
  expect(res.status).toBe(204);
  expect(existsSync(objectPath('omni-assets', cover.fileKey))).toBe(false);
  expect(await listed('omni-assets')).not.toContain(cover.fileKey);

  // A song's file went into a release: its owner cannot discard it by mistake.
  const song = await songTry('Kept By Release', 'kept.wav');
  expect(song.res.status).toBe(201);
  res = await api('/api/uploads/discard', { bucket: 'audio', fileKey: song.fileKey });
  expect(res.status).toBe(409);
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
    'This file was submitted with a release, so it stays.',
  );
  expect(existsSync(objectPath('audio', song.fileKey))).toBe(true);
  // Nobody's file: not found.
  res = await api('/api/uploads/discard', { bucket: 'audio', fileKey: `${ALICE}/nothing.wav` });
  expect(res.status).toBe(404);
});
