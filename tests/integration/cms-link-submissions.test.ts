// Issue 21 §3.8: a use of a contributor link is one submission, however many files it carries; a
// submission has a title (required), and moderation shows it. So a 2-use link takes one submission of
// three files and one audio release, and refuses a third submission.
import { CONTRIBUTOR_SUBMISSION } from '@omni/proto/api';
import { type AssetJson, type CmsApi, cmsApi, contributorSignAndPut, createLink } from '../support/cms';
import { wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;
let artist: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
  artist = await signTestToken(identity, { roles: ['artist'], userId: 'artist-submissions-1' });
});
afterAll(() => platform?.close());

const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error;

const submit = (token: string, body: unknown) =>
  api.call('/api/contributor/uploads', { method: 'POST', uploadToken: token, body: JSON.stringify(body) });

async function usesOf(id: string): Promise<number> {
  const res = await api.call('/api/admin/upload-links?limit=200', { token: admin });
  const { links } = (await res.json()) as { links: { id: string; uses: number }[] };
  return links.find((l) => l.id === id)!.uses;
}

async function pendingTitles(): Promise<string[]> {
  const res = await api.call('/api/admin/assets?status=pending&limit=100', { token: admin });
  return ((await res.json()) as { assets: AssetJson[] }).assets.map((a) => a.title);
}

const note = (name: string) => ({
  bucket: 'documents',
  fileName: `${name}.txt`,
  contentType: 'text/plain',
  bytes: Buffer.from(`notes for ${name}\n`),
});

it('counts a submission of three files as one use, titles each in moderation, and a release as the second', async () => {
  const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 2 });
  const files = [];
  for (const name of ['setlist', 'lyrics', 'credits'])
    files.push(await contributorSignAndPut(api, token, note(name)));

  // No title: refused, in words, and nothing is used up.
  let res = await submit(token, { files: files.map((f) => ({ bucket: 'documents', fileKey: f.fileKey })) });
  expect(res.status).toBe(400);
  expect((await errorOf(res)).message).toBe(CONTRIBUTOR_SUBMISSION.titleRequired);
  res = await submit(token, { title: '   ', bucket: 'documents', fileKey: files[0]!.fileKey });
  expect(res.status).toBe(400);
  expect((await errorOf(res)).message).toBe(CONTRIBUTOR_SUBMISSION.titleRequired);
  expect(await usesOf(String(link.id))).toBe(0);

  res = await submit(token, {
    title: 'Tour paperwork',
    files: files.map((f) => ({ bucket: 'documents', fileKey: f.fileKey })),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { files: { path: string; asset: AssetJson }[] };
  expect(body.files.map((f) => f.path)).toEqual(files.map((f) => f.path));
  expect(await usesOf(String(link.id))).toBe(1);
  // Moderation shows the submission's title on each of its files, never "Untitled".
  const titles = await pendingTitles();
  for (const t of ['Tour paperwork (1 of 3)', 'Tour paperwork (2 of 3)', 'Tour paperwork (3 of 3)'])
    expect(titles).toContain(t);

  // The second use: an audio release.
  const signed = (await (
    await api.call('/api/uploads/sign', {
      method: 'POST',
      token: artist,
      body: JSON.stringify({
        bucket: 'audio',
        purpose: 'song-submission',
        title: 'Second Use',
        fileName: 'take.wav',
        contentType: 'audio/wav',
        size: wav(1).length,
      }),
    })
  ).json()) as { signedUrl: string; fileKey: string };
  expect(
    (await api.put(signed.signedUrl, wav(1), 'audio/wav', { authorization: `Bearer ${artist}` })).status,
  ).toBe(200);
  res = await api.call('/api/contributor/releases', {
    method: 'POST',
    uploadToken: token,
    token: artist,
    body: JSON.stringify({ title: 'Second Use', artist: 'Me', fileKey: signed.fileKey }),
  });
  expect(res.status).toBe(201);
  expect(await usesOf(String(link.id))).toBe(2);

  // Spent: a third submission is refused as used up.
  res = await api.call('/api/contributor/uploads-sign', {
    method: 'POST',
    uploadToken: token,
    body: JSON.stringify({ bucket: 'documents', fileName: 'late.txt', contentType: 'text/plain', size: 5 }),
  });
  expect(res.status).toBe(410);
});

it('a one-file submission still names its file as bucket + fileKey, with its title', async () => {
  const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 1 });
  const file = await contributorSignAndPut(api, token, note('rider'));
  const res = await submit(token, { title: 'Stage rider', bucket: 'documents', fileKey: file.fileKey });
  expect(res.status).toBe(201);
  expect(((await res.json()) as { asset: AssetJson }).asset.title).toBe('Stage rider');
  expect(await usesOf(String(link.id))).toBe(1);
  expect(await pendingTitles()).toContain('Stage rider');
});

it('refuses a submission with no file, or more than the limit, in words', async () => {
  const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 1 });
  let res = await submit(token, { title: 'Empty', files: [] });
  expect(res.status).toBe(400);
  expect((await errorOf(res)).message).toBe(CONTRIBUTOR_SUBMISSION.noFiles);
  res = await submit(token, { title: 'Empty' });
  expect(res.status).toBe(400);
  expect((await errorOf(res)).message).toBe(CONTRIBUTOR_SUBMISSION.noFiles);
  res = await submit(token, {
    title: 'Too many',
    files: Array.from({ length: 21 }, (_, i) => ({ bucket: 'documents', fileKey: `anon/x/${i}.txt` })),
  });
  expect(res.status).toBe(400);
  expect((await errorOf(res)).message).toBe(CONTRIBUTOR_SUBMISSION.tooManyFiles);
});
