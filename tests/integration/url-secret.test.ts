// Object URLs are signed with a secret of this installation, never one written in the source: without
// OBJECT_URL_SECRET the first start makes a random one under the data folder (owner-only) and later starts
// reuse it; production refuses a secret published in this repository. Links forged with the secret older
// versions had in the source are refused, for uploads and downloads alike.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedUrl } from '@omni/service-storage/src/providers/objects/local/signing';
import { wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { runPlatformUntilExit } from '../support/process';
import { signTestToken } from '../support/tokens';
import { type UploadedFile, uploadFile } from '../support/uploads';

const OLD_BUILT_IN = 'omni-embedded-development-signing-secret';
const USER = 'user-url-secret';
const dataDir = mkdtempSync(join(tmpdir(), 'omni-url-secret-'));
let platform: TestPlatform;
let master: UploadedFile;
const bytes = wav(1, { tone: true });

/** The same path and query on the gateway this test started (signed URLs carry the public address). */
const onGateway = (url: string) => {
  const u = new URL(url);
  return `${platform.url}${u.pathname}${u.search}`;
};

let token: string;

beforeAll(async () => {
  platform = await startTestPlatform({ dataDir });
  token = await signTestToken(await platform.ports.documents('identity'), { userId: USER });
  master = await uploadFile(platform.url, token, {
    bucket: 'omni-assets',
    fileName: 'master.wav',
    contentType: 'audio/wav',
    bytes,
    role: 'audio',
  });
});
afterAll(async () => {
  await platform?.close({ keepData: true });
  rmSync(dataDir, { recursive: true, force: true });
});

it('makes a random secret on first start, readable by the owner only', () => {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, 'object-url-secret');
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const secret = readFileSync(file, 'utf8').trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(secret).not.toBe(OLD_BUILT_IN);
});

it('refuses links signed with the secret older versions had in the source', async () => {
  const expires = Math.floor(Date.now() / 1000) + 600;
  const forgedPut = signedUrl(platform.url, OLD_BUILT_IN, {
    method: 'PUT',
    bucket: 'omni-assets',
    key: `${USER}/planted.wav`,
    expires,
    maxSize: 10_000_000_000,
    contentType: 'audio/wav',
    owner: USER,
  });
  // A signed-in user forging an upload link for themselves: any key, any size, never signed by storage.
  const put = await fetch(forgedPut, {
    method: 'PUT',
    headers: { 'content-type': 'audio/wav', authorization: `Bearer ${token}` },
    body: bytes,
  });
  expect(put.status).toBe(403);

  const forgedGet = signedUrl(platform.url, OLD_BUILT_IN, {
    method: 'GET',
    bucket: master.bucket,
    key: master.fileKey,
    expires,
  });
  expect((await fetch(forgedGet)).status).toBe(403);
  // The link the platform handed out works.
  expect((await fetch(onGateway(master.publicUrl))).status).toBe(200);
});

it('keeps the secret across restarts: a link handed out before still works', async () => {
  const before = readFileSync(join(dataDir, 'secrets', 'object-url-secret'), 'utf8');
  await platform.close({ keepData: true });
  platform = await startTestPlatform({ dataDir });
  expect(readFileSync(join(dataDir, 'secrets', 'object-url-secret'), 'utf8')).toBe(before);
  const res = await fetch(onGateway(master.publicUrl));
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
});

it('refuses, in production, a secret published in this repository, naming the variable', async () => {
  const { code, output } = await runPlatformUntilExit({
    NODE_ENV: 'production',
    MAIL: 'smtp',
    SMTP_URL: 'smtp://127.0.0.1:1',
    OBJECT_URL_SECRET: 'omni-dev-object-url-secret',
  });
  expect(code).toBe(2);
  expect(output).toMatch(/OBJECT_URL_SECRET: is a development value published in the Omni repository/);
});
