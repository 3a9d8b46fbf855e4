// The data folder holds the token-signing private key and password hashes (identity's WAL), sign-in links
// (the dev mailbox), the URL-signing secret, the first admin's password and users' unreleased masters:
// no file in it may be readable, and no folder listable, by anyone but its owner. Checked by walking the
// folder after a start that signed someone up, took an upload and delivered a release; then again after
// an upgrade from an older version that left everything world-readable.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { png, wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const parent = mkdtempSync(join(tmpdir(), 'omni-modes-'));
// A folder the platform creates itself, so its own mode is checked too.
const dataDir = join(parent, 'data');
let platform: TestPlatform | undefined;

afterAll(async () => {
  await platform?.close({ keepData: true });
  rmSync(parent, { recursive: true, force: true });
});

function walk(dir: string, out: { path: string; mode: number; dir: boolean }[] = []) {
  const stat = lstatSync(dir);
  out.push({ path: relative(parent, dir) || '.', mode: stat.mode & 0o777, dir: true });
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const entry = lstatSync(full);
    if (entry.isDirectory()) walk(full, out);
    else out.push({ path: relative(parent, full), mode: entry.mode & 0o777, dir: false });
  }
  return out;
}

/** Every entry with a group or other permission bit, as `path 0644`. */
const shared = () =>
  walk(dataDir)
    .filter((e) => e.mode & 0o077)
    .map((e) => `${e.path} 0${e.mode.toString(8)}`);

async function exercise(base: string) {
  const session = await verifiedSession(base, `modes-${Date.now()}@example.com`);
  const token = session.accessToken;
  const audio = await uploadFile(base, token, {
    bucket: 'omni-assets',
    fileName: 'night-drive.wav',
    contentType: 'audio/wav',
    bytes: wav(2, { tone: true }),
    role: 'audio',
  });
  const artwork = await uploadFile(base, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const submitted = await fetch(`${base}/api/releases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      artistName: 'Nova Reyes',
      releaseTitle: 'Night Drive',
      trackTitle: 'Night Drive',
      releaseType: 'single',
      genre: 'Hip-Hop/Rap',
      releaseDate: '2026-09-01',
      explicit: false,
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      stores: ['spotify', 'apple_music'],
    }),
  });
  expect(submitted.status).toBe(201);
  const { release } = (await submitted.json()) as { release: { id: string } };
  // Delivery's jobs come from the event: the bus's log and the consumer group's offsets are written.
  for (const until = Date.now() + 10_000; ; ) {
    const res = await fetch(`${base}/api/releases/${release.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { release: { delivery: { total: number } } };
    if (body.release.delivery.total >= 2) break;
    if (Date.now() > until) throw new Error('no delivery jobs');
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('creates every file 0600 and every folder 0700', async () => {
  platform = await startTestPlatform({ dataDir });
  await exercise(platform.url);
  await platform.close({ keepData: true });
  platform = undefined;

  const paths = walk(dataDir).map((e) => e.path);
  // The walk covers every kind of writer, or it proves nothing.
  for (const expected of [
    /^data\/identity\/documents\.sqlite$/,
    /^data\/mailbox\/.+\.json$/,
    /^data\/objects\/omni-assets\/.+\.wav$/,
    /^data\/bus\/.+\.log$/,
    /^data\/secrets\/object-url-secret$/,
    /^data\/initial-admin\.txt$/,
  ])
    expect({ expected: String(expected), found: paths.some((p) => expected.test(p)) }).toEqual({
      expected: String(expected),
      found: true,
    });
  expect(shared()).toEqual([]);
});

it('tightens a data folder an older version left readable by everyone', async () => {
  for (const entry of walk(dataDir)) chmodSync(join(parent, entry.path), entry.dir ? 0o755 : 0o644);
  expect(shared().length).toBeGreaterThan(10);
  platform = await startTestPlatform({ dataDir });
  expect(shared()).toEqual([]);
});
