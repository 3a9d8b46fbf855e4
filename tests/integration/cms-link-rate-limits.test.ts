// The contributor endpoints are rate-limited per client address and per link: a real contributor sending a
// folder of 20 files one by one (as the page does) passes; a script hammering one link gets 429 with
// Retry-After and a sentence a person understands. Checked through HTTP against a started platform.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CmsApi,
  cmsApi,
  contributorSignAndPut,
  createLink,
  submitContributorFile,
} from '../support/cms';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;

const RATE_LIMITED = 'Too many requests for this upload link right now. Please wait a minute and try again.';

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
});

afterAll(() => platform?.close());

const lookup = (token: string) => api.call('/api/contributor/link', { uploadToken: token });

it('lets a contributor send a folder of 20 files, one by one as the page does', async () => {
  const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 20 });
  expect((await lookup(token)).status).toBe(200);
  for (let i = 0; i < 20; i++) {
    const { fileKey } = await contributorSignAndPut(api, token, {
      bucket: 'documents',
      folder: 'album',
      fileName: `track-notes-${i}.txt`,
      contentType: 'text/plain',
      bytes: Buffer.from(`notes for track ${i}`),
    });
    const res = await submitContributorFile(api, token, {
      bucket: 'documents',
      fileKey,
      title: `Track ${i}`,
    });
    expect(res.status).toBe(201);
    // The page reloads the link's summary after each file (uses left; the last one used it up).
    expect((await lookup(token)).status).toBe(i < 19 ? 200 : 410);
  }
});

it('answers 429 with Retry-After once one link is looked up past its limit, without slowing other links', async () => {
  const { token } = await createLink(api, admin, { pageSlug: 'music' });
  const statuses: number[] = [];
  let limited: Response | undefined;
  for (let i = 0; i < 61; i++) {
    const res = await lookup(token);
    statuses.push(res.status);
    if (res.status === 429) limited = res;
    else await res.arrayBuffer();
  }
  expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
  expect(statuses[60]).toBe(429);
  const retryAfter = Number(limited!.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(120);
  expect(await limited!.json()).toEqual({ error: { code: 'rate_limited', message: RATE_LIMITED } });
  // Another link from the same address still works.
  const other = await createLink(api, admin, { pageSlug: 'music' });
  expect((await lookup(other.token)).status).toBe(200);
});

it('limits signings per link (120 a minute), before cms is asked', async () => {
  const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 10 });
  const sign = (i: number) =>
    api.call('/api/contributor/uploads-sign', {
      method: 'POST',
      uploadToken: token,
      body: JSON.stringify({
        bucket: 'documents',
        fileName: `s${i}.txt`,
        contentType: 'text/plain',
        size: 5,
      }),
    });
  const statuses: number[] = [];
  for (let i = 0; i < 121; i++) statuses.push((await sign(i)).status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(120);
  expect(statuses[120]).toBe(429);
});

it('limits per client address too, whatever the token (guessing at links)', async () => {
  // The link-lookup limit per address is 120 a minute; the earlier tests used part of it already.
  const guess = () => `${'A'.repeat(42)}${String.fromCharCode(65 + Math.floor(Math.random() * 26))}`;
  let status = 404;
  for (let i = 0; i < 130 && status !== 429; i++) status = (await lookup(guess())).status;
  expect(status).toBe(429);
});

it('never writes a link token into the data folder (counters are keyed by its hash)', async () => {
  const { token } = await createLink(api, admin, { pageSlug: 'music' });
  await lookup(token);
  const { readdirSync, statSync } = await import('node:fs');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
  for (const file of files(platform.dataDir)) expect(readFileSync(file).includes(token)).toBe(false);
});
