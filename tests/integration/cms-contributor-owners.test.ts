// Whose a contributor's file is: two anonymous contributors on one link are two owners (each page's own
// X-Contributor-Key), so neither can replace or submit the other's file at the same path; and a file an
// asset refers to is never replaced by a later upsert, whoever sends it. Through HTTP against a started
// platform, comparing the bytes that come back.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Doc } from '@omni/platform';
import {
  type CmsApi,
  cmsApi,
  contributorSignAndPut,
  createLink,
  submitContributorFile,
} from '../support/cms';
import { wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let admin: string;
let artist: string;
const artistId = 'artist-owners-1';

const day = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A text file for the public presskits bucket, so its URL can be read back without signing. */
const bio = (text: string) => ({
  bucket: 'presskits',
  folder: 'tour',
  fileName: 'bio.txt',
  contentType: 'text/plain',
  bytes: Buffer.from(text),
});

async function submittedBytes(api: CmsApi, token: string, fileKey: string): Promise<string> {
  const res = await submitContributorFile(api, token, { bucket: 'presskits', fileKey });
  expect(res.status).toBe(201);
  const { url } = (await res.json()) as { url: string };
  return (await fetch(url)).text();
}

/** An asset's bytes, as an admin previews them (302 to a signed GET). */
async function assetBytes(api: CmsApi, assetId: string): Promise<Buffer> {
  const media = await api.call(`/api/admin/assets/${assetId}/media`, { token: admin });
  expect(media.status).toBe(302);
  const target = new URL(String(media.headers.get('location')), platform.url);
  return Buffer.from(await (await fetch(`${platform.url}${target.pathname}${target.search}`)).arrayBuffer());
}

beforeAll(async () => {
  platform = await startTestPlatform();
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
  artist = await signTestToken(identity, { roles: ['artist'], userId: artistId });
});

afterAll(() => platform?.close());

describe('anonymous contributors on one link', () => {
  it('keep their own files at the same path, and each can submit only its own', async () => {
    const alice = cmsApi(platform.url);
    const bob = cmsApi(platform.url);
    const { token } = await createLink(alice, admin, { pageSlug: 'music', maxUses: 4 });
    const hers = await contributorSignAndPut(alice, token, bio('alice wrote this'));
    const his = await contributorSignAndPut(bob, token, bio('bob wrote this'));
    expect(hers.fileKey).toBe(`anon/${day()}/tour/bio.txt`);
    expect(his.fileKey).toBe(`anon/${day()}/tour/bio-2.txt`);

    // Naming the other's path is as if it did not exist, and spends nothing of the link or of their file.
    for (const [api, fileKey] of [
      [bob, hers.fileKey],
      [alice, his.fileKey],
    ] as const) {
      const res = await submitContributorFile(api, token, { bucket: 'presskits', fileKey });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe('No such file.');
    }
    expect(await submittedBytes(alice, token, hers.fileKey)).toBe('alice wrote this');
    expect(await submittedBytes(bob, token, his.fileKey)).toBe('bob wrote this');
  });

  it('records only the hash of a contributor key, and refuses an anonymous call without one', async () => {
    const api = cmsApi(platform.url);
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 2 });
    const { fileKey } = await contributorSignAndPut(api, token, bio('hashed'));
    const uploads = await (await platform.ports.documents('cms')).collection<Doc>('link_uploads').find({});
    const mine = uploads.find((u) => u.fileKey === fileKey && String(u.ownerId).startsWith('link:'));
    const hash = createHash('sha256').update(api.contributorKey).digest('hex');
    expect(String(mine?.ownerId)).toMatch(new RegExp(`^link:[^:]+:${hash}$`));
    // Nothing the platform keeps (records, WAL, objects) holds the key itself.
    for (const file of filesUnder(platform.dataDir))
      expect(readFileSync(file).includes(api.contributorKey)).toBe(false);

    const sign = await api.call('/api/contributor/uploads-sign', {
      method: 'POST',
      uploadToken: token,
      contributorKey: '',
      body: JSON.stringify({ bucket: 'documents', fileName: 'a.txt', contentType: 'text/plain', size: 5 }),
    });
    expect(sign.status).toBe(400);
    expect((await errorOf(sign)).message).toBe(
      'This upload page did not say which contributor is sending (X-Contributor-Key). Reload the page and try again.',
    );
    const submit = await api.call('/api/contributor/uploads', {
      method: 'POST',
      uploadToken: token,
      contributorKey: 'short',
      body: JSON.stringify({ bucket: 'presskits', fileKey }),
    });
    expect(submit.status).toBe(400);
  });
});

describe('what an upsert may replace', () => {
  it('the same sender re-sending an unsubmitted file replaces it; once submitted, a re-send gets a new name', async () => {
    const api = cmsApi(platform.url);
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const file = { ...bio(''), folder: 'again' };
    const first = await contributorSignAndPut(api, token, { ...file, bytes: Buffer.from('draft') });
    const second = await contributorSignAndPut(api, token, { ...file, bytes: Buffer.from('final cut') });
    expect(second.fileKey).toBe(first.fileKey);
    const res = await submitContributorFile(api, token, { bucket: 'presskits', fileKey: second.fileKey });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect(await (await fetch(url)).text()).toBe('final cut');

    const third = await contributorSignAndPut(api, token, { ...file, bytes: Buffer.from('after submit') });
    expect(third.fileKey).toBe(`anon/${day()}/again/bio-2.txt`);
    expect(await (await fetch(url)).text()).toBe('final cut');
  });

  it('an upsert link signed before the submission cannot replace the submitted bytes afterwards', async () => {
    const api = cmsApi(platform.url);
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const file = { ...bio(''), folder: 'swap' };
    await contributorSignAndPut(api, token, { ...file, bytes: Buffer.from('first take') });
    // The same sender signs the same path again (an upsert link) and keeps the URL without using it…
    const { bytes: _unused, ...rest } = { ...file, bytes: Buffer.from('') };
    const resigned = await api.call('/api/contributor/uploads-sign', {
      method: 'POST',
      uploadToken: token,
      body: JSON.stringify({ ...rest, size: 64 }),
    });
    expect(resigned.status).toBe(200);
    const held = (await resigned.json()) as {
      signedUrl: string;
      fileKey: string;
      headers: Record<string, string>;
    };
    const put = (bytes: string) => api.put(held.signedUrl, Buffer.from(bytes), 'text/plain', held.headers);
    expect((await put('reviewed take')).status).toBe(200);
    // …submits, and the reviewer sees these bytes…
    const res = await submitContributorFile(api, token, { bucket: 'presskits', fileKey: held.fileKey });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect(await (await fetch(url)).text()).toBe('reviewed take');
    // …then tries to swap them through the link it still holds.
    const swap = await put('swapped after review');
    expect(swap.status).toBe(409);
    expect((await errorOf(swap)).message).toMatch(/already submitted/);
    expect(await (await fetch(url)).text()).toBe('reviewed take');
  });

  it("a signed-in user's song submission survives a contributor file at the same key", async () => {
    const api = cmsApi(platform.url);
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const song = wav(1);
    const signed = (await (
      await api.call('/api/uploads/sign', {
        method: 'POST',
        token: artist,
        body: JSON.stringify({
          bucket: 'audio',
          purpose: 'song-submission',
          title: 'Night Drive',
          fileName: 'take.wav',
          contentType: 'audio/wav',
          size: song.length,
        }),
      })
    ).json()) as { signedUrl: string; fileKey: string };
    expect(signed.fileKey).toBe(`${artistId}/${day()}/Night_Drive-take.wav`);
    expect(
      (await api.put(signed.signedUrl, song, 'audio/wav', { authorization: `Bearer ${artist}` })).status,
    ).toBe(200);
    const release = await api.call('/api/contributor/releases', {
      method: 'POST',
      uploadToken: token,
      token: artist,
      body: JSON.stringify({ title: 'Night Drive', artist: 'Me', fileKey: signed.fileKey }),
    });
    expect(release.status).toBe(201);

    // The same person, signed in on the contributor page, sends a file with no folder whose name makes the
    // same key: it gets the next name, and the release keeps its bytes.
    const other = wav(2);
    const file = await contributorSignAndPut(
      api,
      token,
      { bucket: 'audio', fileName: 'Night_Drive-take.wav', contentType: 'audio/wav', bytes: other },
      artist,
    );
    expect(file.fileKey).toBe(`${artistId}/${day()}/Night_Drive-take-2.wav`);
    const pending = (await (
      await api.call('/api/admin/assets?status=pending&limit=100', { token: admin })
    ).json()) as {
      assets: { id: string; title: string }[];
    };
    const asset = pending.assets.find((a) => a.title === 'Night Drive');
    expect(asset).toBeDefined();
    expect((await assetBytes(api, asset!.id)).equals(song)).toBe(true);
  });
});
