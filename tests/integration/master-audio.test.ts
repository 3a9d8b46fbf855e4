// GET /api/admin/releases/:id/tracks/:n/audio through the gateway: the admin listens to a held upload and to
// the recording it matched, seeking with Range. Only admins (the owner too is refused: the route exists for
// judging matches, and an artist never gets another artist's audio).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseSong, songMaster } from '../support/rights-hold';
import { startDeliveryPlatform } from './delivery.fixtures';
import { type ReleasePlatform, releaseBody } from './releases.fixtures';

let omni: ReleasePlatform;
let dir: string;
let master: Buffer;
let releaseId: string;
let adminToken: string;
let ownerToken: string;
const A = randomUUID();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-master-audio-'));
  omni = await startDeliveryPlatform();
  ownerToken = await omni.token(A);
  adminToken = await omni.token(randomUUID(), ['artist', 'admin']);
  master = songMaster(dir, 'song', { seed: 3, seconds: 20 });
  releaseId = await releaseSong(
    omni,
    ownerToken,
    releaseBody(A, { releaseTitle: 'Heard', trackTitle: 'Heard' }),
    master,
  );
}, 300_000);

afterAll(async () => {
  await omni?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const audio = (token: string | null, n = 1, headers: Record<string, string> = {}) =>
  omni.api(`/api/admin/releases/${releaseId}/tracks/${n}/audio`, {
    ...(token ? { token } : {}),
    headers,
  });

it('streams the whole master to an admin, as audio/wav, seekable', async () => {
  const res = await audio(adminToken);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('audio/wav');
  expect(res.headers.get('accept-ranges')).toBe('bytes');
  expect(Buffer.from(await res.arrayBuffer()).equals(master)).toBe(true);
});

it('answers a Range with 206 and exactly those bytes', async () => {
  const res = await audio(adminToken, 1, { range: 'bytes=1000-1999' });
  expect(res.status).toBe(206);
  expect(res.headers.get('content-range')).toBe(`bytes 1000-1999/${master.length}`);
  expect(Buffer.from(await res.arrayBuffer()).equals(master.subarray(1000, 2000))).toBe(true);
  const tail = await audio(adminToken, 1, { range: `bytes=${master.length - 10}-` });
  expect(tail.status).toBe(206);
  expect(Buffer.from(await tail.arrayBuffer()).equals(master.subarray(master.length - 10))).toBe(true);
});

it('answers 416 for a range past the end', async () => {
  const res = await audio(adminToken, 1, { range: `bytes=${master.length + 10}-` });
  expect(res.status).toBe(416);
  expect(res.headers.get('content-range')).toBe(`bytes */${master.length}`);
});

it('refuses the owner (403), nobody (401), and a track the release does not have (404)', async () => {
  expect((await audio(ownerToken)).status).toBe(403);
  expect((await audio(null)).status).toBe(401);
  const missing = await audio(adminToken, 2);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain('No such track');
  expect(
    (await omni.api(`/api/admin/releases/${randomUUID()}/tracks/1/audio`, { token: adminToken })).status,
  ).toBe(404);
});
