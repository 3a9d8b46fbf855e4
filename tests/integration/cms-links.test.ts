// Contributor upload links through the real HTTP surface: created by an admin (URL shown once, token
// stored only hashed), listed with derived statuses, revoked; each refusal says why; contributors' files
// and audio releases wait in moderation for the link's page; uses are counted atomically.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Doc } from '@omni/platform';
import {
  type AssetJson,
  type CmsApi,
  cmsApi,
  contributorSignAndPut,
  createLink,
  submitContributorFile,
} from '../support/cms';
import { png, wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;
let artist: string;
let artistId: string;

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

const MESSAGES = {
  notFound: 'This upload link is not valid. Ask for a new one.',
  revoked: 'This upload link was revoked. Ask for a new one.',
  expired: 'This upload link has expired. Ask for a new one.',
  usedUp: 'This upload link has already been used the maximum number of times.',
  noFiles: 'This link does not accept files.',
};

interface LinkJson {
  id: string;
  status: string;
  uses: number;
  maxUses: number;
  pageSlug: string;
  pageTitle: string;
}

async function listLinks(): Promise<LinkJson[]> {
  const res = await api.call('/api/admin/upload-links?limit=200', { token: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { links: LinkJson[] }).links;
}

async function pending(): Promise<AssetJson[]> {
  const out: AssetJson[] = [];
  let cursor = '';
  do {
    const res = await api.call(
      `/api/admin/assets?status=pending&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      {
        token: admin,
      },
    );
    const body = (await res.json()) as { assets: AssetJson[]; nextCursor: string | null };
    out.push(...body.assets);
    cursor = body.nextCursor ?? '';
  } while (cursor);
  return out;
}

/** Every file under a folder (the data folder: documents' WAL and snapshots, events, objects). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
  artistId = 'artist-contributor-1';
  artist = await signTestToken(identity, { roles: ['artist'], userId: artistId });
});

afterAll(() => platform?.close());

describe('creating and listing links', () => {
  it('returns an absolute upload URL once and never stores or echoes the token in clear', async () => {
    const { uploadUrl, token, link } = await createLink(api, admin, { pageSlug: 'videos', maxUses: 3 });
    expect(uploadUrl).toBe(`${platform.url}/upload?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link).toMatchObject({
      pageSlug: 'videos',
      pageTitle: 'Videos',
      status: 'active',
      uses: 0,
      maxUses: 3,
    });
    const listed = await api.call('/api/admin/upload-links', { token: admin });
    expect(await listed.text()).not.toContain(token);
    const stored = await (await platform.ports.documents('cms'))
      .collection<Doc>('upload_links')
      .findById(String(link.id));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored).toHaveProperty('tokenHash');
    for (const file of filesUnder(platform.dataDir)) expect(readFileSync(file).includes(token)).toBe(false);
  });

  it('defaults to one use for 24 hours, and validates the fields', async () => {
    const { link } = await createLink(api, admin, { pageSlug: 'music' });
    expect(link.maxUses).toBe(1);
    const hours = (Date.parse(String(link.expiresAt)) - Date.parse(String(link.createdAt))) / 3_600_000;
    expect(Math.round(hours)).toBe(24);
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /Choose a page/],
      [{ pageSlug: 'music', maxUses: 0 }, 400, /Max Uses must be at least 1/],
      [{ pageSlug: 'music', maxUses: 1.5 }, 400, /Max Uses must be a whole number/],
      [{ pageSlug: 'music', maxUses: 10_001 }, 400, /Max Uses must be at most 10000/],
      [{ pageSlug: 'music', expiresInHours: 0 }, 400, /Expires In must be at least 1/],
      [{ pageSlug: 'music', expiresInHours: 8761 }, 400, /Expires In must be at most 8760/],
      [{ pageSlug: 'music', maxUses: '5' }, 400, /Max Uses/],
      [{ pageSlug: 'nowhere' }, 404, /no page called 'nowhere'/],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.call('/api/admin/upload-links', {
        method: 'POST',
        token: admin,
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(status);
      expect((await errorOf(res)).message).toMatch(message);
    }
  });
});

describe('refusals', () => {
  it('refuses unknown and malformed tokens with 404', async () => {
    for (const token of ['', 'short', 'A'.repeat(43), 'x'.repeat(300)]) {
      const res = await api.call('/api/contributor/link', { uploadToken: token });
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toEqual({ code: 'link_not_found', message: MESSAGES.notFound });
    }
    expect((await api.call('/api/contributor/link')).status).toBe(404);
  });

  it('revokes: the list says revoked and the link answers 410', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 2 });
    const summary = await api.call('/api/contributor/link', { uploadToken: token });
    expect(summary.status).toBe(200);
    expect(await summary.json()).toMatchObject({
      pageSlug: 'music',
      pageTitle: 'Music',
      usesLeft: 2,
      allowFile: true,
    });
    const revoke = await api.call(`/api/admin/upload-links/${link.id}/revoke`, {
      method: 'POST',
      token: admin,
    });
    expect(revoke.status).toBe(200);
    expect(((await revoke.json()) as { link: LinkJson }).link.status).toBe('revoked');
    const res = await api.call('/api/contributor/link', { uploadToken: token });
    expect(res.status).toBe(410);
    expect(await errorOf(res)).toEqual({ code: 'link_revoked', message: MESSAGES.revoked });
    expect((await listLinks()).find((l) => l.id === link.id)?.status).toBe('revoked');
    expect(
      (await api.call('/api/admin/upload-links/nope/revoke', { method: 'POST', token: admin })).status,
    ).toBe(404);
  });

  it('says expired once the expiry passed (410), and the list shows expired', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'music' });
    const links = (await platform.ports.documents('cms')).collection<Doc>('upload_links');
    await links.updateOne(
      { _id: String(link.id) },
      { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } },
    );
    const res = await api.call('/api/contributor/link', { uploadToken: token });
    expect(res.status).toBe(410);
    expect(await errorOf(res)).toEqual({ code: 'link_expired', message: MESSAGES.expired });
    expect((await listLinks()).find((l) => l.id === link.id)?.status).toBe('expired');
  });

  it('refuses files on a link that does not take them (403)', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', allowFile: false });
    const res = await api.call('/api/contributor/uploads-sign', {
      method: 'POST',
      uploadToken: token,
      body: JSON.stringify({ bucket: 'documents', fileName: 'a.txt', contentType: 'text/plain', size: 5 }),
    });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toEqual({ code: 'link_forbids_files', message: MESSAGES.noFiles });
  });
});

describe('contributor submissions', () => {
  it('an anonymous contributor uploads into anon/{yyyymmdd}/{folder}/{name}; the asset waits in moderation', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'videos', maxUses: 2 });
    const { fileKey, path } = await contributorSignAndPut(api, token, {
      bucket: 'artwork',
      folder: 'press/2026 shoot',
      fileName: 'cover art.png',
      contentType: 'image/png',
      bytes: png(16, 16),
    });
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(fileKey).toBe(`anon/${day}/press/2026_shoot/cover_art.png`);
    expect(path).toBe(`artwork/${fileKey}`);
    const res = await submitContributorFile(api, token, { bucket: 'artwork', fileKey, title: 'Cover' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { status: string; path: string; url: string; asset: AssetJson };
    expect(body).toMatchObject({ status: 'pending', path: `artwork/${fileKey}` });
    expect(body.url).toMatch(/^http/);
    expect((await fetch(body.url)).status).toBe(200);
    expect(body.asset).toMatchObject({
      kind: 'image',
      pageSlug: 'videos',
      status: 'pending',
      title: 'Cover',
    });
    expect((await pending()).map((a) => a.id)).toContain(body.asset.id);
    expect((await listLinks()).find((l) => l.id === link.id)).toMatchObject({
      uses: 1,
      maxUses: 2,
      status: 'active',
    });
  });

  it('a signed-in contributor uploads under their own id', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music' });
    const { fileKey } = await contributorSignAndPut(
      api,
      token,
      { bucket: 'audio', fileName: 'demo.wav', contentType: 'audio/wav', bytes: wav(1) },
      artist,
    );
    expect(fileKey.startsWith(`${artistId}/`)).toBe(true);
    const res = await submitContributorFile(api, token, { bucket: 'audio', fileKey }, artist);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { asset: AssetJson }).asset.kind).toBe('music');
  });

  it('upserts: the same sender sending the same path replaces the file; another sender gets a new name', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const file = { bucket: 'presskits', folder: 'bio', fileName: 'bio.txt', contentType: 'text/plain' };
    const first = await contributorSignAndPut(api, token, { ...file, bytes: Buffer.from('first version') });
    const second = await contributorSignAndPut(api, token, {
      ...file,
      bytes: Buffer.from('second version!'),
    });
    expect(second.fileKey).toBe(first.fileKey);
    const res = await submitContributorFile(api, token, { bucket: 'presskits', fileKey: second.fileKey });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect(await (await fetch(url)).text()).toBe('second version!');
    // Another link's anonymous contributor at the same path does not replace this one's file.
    const other = (await createLink(api, admin, { pageSlug: 'music' })).token;
    const theirs = await contributorSignAndPut(api, other, { ...file, bytes: Buffer.from('someone else') });
    expect(theirs.fileKey).toBe(first.fileKey.replace(/bio\.txt$/, 'bio-2.txt'));
    expect(await (await fetch(url)).text()).toBe('second version!');
  });

  it('refuses an anonymous PUT without the session secret the sign call handed out', async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music' });
    const signed = (await (
      await api.call('/api/contributor/uploads-sign', {
        method: 'POST',
        uploadToken: token,
        body: JSON.stringify({ bucket: 'documents', fileName: 'a.txt', contentType: 'text/plain', size: 5 }),
      })
    ).json()) as { signedUrl: string; headers: Record<string, string> };
    expect(signed.headers['X-Upload-Session']).toBeTruthy();
    expect((await api.put(signed.signedUrl, Buffer.from('hello'), 'text/plain')).status).toBe(401);
    const wrong = await api.put(signed.signedUrl, Buffer.from('hello'), 'text/plain', {
      'X-Upload-Session': 'not-the-secret',
    });
    expect(wrong.status).toBe(403);
  });

  it("refuses bad buckets, folder tricks and bytes storage refuses, with storage's message", async () => {
    const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 5 });
    const sign = (body: unknown) =>
      api.call('/api/contributor/uploads-sign', {
        method: 'POST',
        uploadToken: token,
        body: JSON.stringify(body),
      });
    const base = { fileName: 'a.txt', contentType: 'text/plain', size: 5 };
    expect((await sign({ ...base, bucket: 'omni-assets' })).status).toBe(400);
    const dots = await sign({ ...base, bucket: 'documents', folder: '../../etc' });
    expect(dots.status).toBe(400);
    expect((await errorOf(dots)).message).toMatch(/folder path/);
    expect((await sign({ ...base, bucket: 'documents', folder: 'a/<script>' })).status).toBe(400);
    expect((await sign({ ...base, bucket: 'documents', size: -1 })).status).toBe(400);
    expect((await sign({ ...base, bucket: 'documents', extra: 1 })).status).toBe(400);
    // A text file claimed as an image goes up but storage's sniffer refuses it at submission.
    const { fileKey } = await contributorSignAndPut(api, token, {
      bucket: 'artwork',
      fileName: 'fake.png',
      contentType: 'image/png',
      bytes: Buffer.from('not an image at all'),
    });
    const res = await submitContributorFile(api, token, { bucket: 'artwork', fileKey });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/"artwork" bucket takes an image/);
    expect((await listLinks()).find((l) => l.maxUses === 5)?.uses).toBe(0);
  });

  it('an audio release needs a session, checks its fields and generates OMNI + 7 digits', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 3 });
    const release = (body: unknown, session?: string) =>
      api.call('/api/contributor/releases', {
        method: 'POST',
        uploadToken: token,
        token: session,
        body: JSON.stringify(body),
      });
    const anonymous = await release({ title: 'Song', artist: 'Me', fileKey: 'x' });
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).message).toBe('Sign in first.');
    expect((await errorOf(await release({ title: '', artist: 'Me', fileKey: 'x' }, artist))).message).toBe(
      'Title and Artist required.',
    );
    expect((await errorOf(await release({ title: 'Song', artist: 'Me', fileKey: '' }, artist))).message).toBe(
      'Choose an audio file.',
    );
    expect(
      (await errorOf(await release({ title: 'Song', artist: 'Me', fileKey: 'x', code: 'bad code!' }, artist)))
        .message,
    ).toBe('Identifier code must be 3 to 32 letters, digits or dashes.');

    // The audio file is signed as a song submission (key {userId}/{yyyymmdd}/{title}-{name}).
    const signed = (await (
      await api.call('/api/uploads/sign', {
        method: 'POST',
        token: artist,
        body: JSON.stringify({
          bucket: 'audio',
          purpose: 'song-submission',
          title: 'My Song',
          fileName: 'take 1.wav',
          contentType: 'audio/wav',
          size: wav(1).length,
        }),
      })
    ).json()) as { signedUrl: string; fileKey: string };
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(signed.fileKey).toBe(`${artistId}/${day}/My_Song-take_1.wav`);
    expect(
      (await api.put(signed.signedUrl, wav(1), 'audio/wav', { authorization: `Bearer ${artist}` })).status,
    ).toBe(200);
    const ok = await release({ title: 'My Song', artist: 'Me', fileKey: signed.fileKey }, artist);
    expect(ok.status).toBe(201);
    const body = (await ok.json()) as { status: string; code: string; path: string };
    expect(body.status).toBe('pending');
    expect(body.code).toMatch(/^OMNI\d{7}$/);
    expect(body.path).toBe(`audio/${signed.fileKey}`);
    const queued = (await pending()).find((a) => a.title === 'My Song');
    expect(queued).toMatchObject({ kind: 'music', pageSlug: 'music', artist: 'Me', code: body.code });
    expect((await listLinks()).find((l) => l.id === link.id)?.uses).toBe(1);
  });
});

describe('use counting under concurrency', () => {
  it('admits exactly 5 of 100 simultaneous submissions on a max-5 link; the rest get 410 used up', async () => {
    const { token, link } = await createLink(api, admin, { pageSlug: 'music', maxUses: 5 });
    const files = [];
    for (let i = 0; i < 100; i++)
      files.push(
        await contributorSignAndPut(api, token, {
          bucket: 'documents',
          fileName: `note-${i}.txt`,
          contentType: 'text/plain',
          bytes: Buffer.from(`note ${i}`),
        }),
      );
    const before = (await pending()).length;
    const answers = await Promise.all(
      files.map((f, i) =>
        submitContributorFile(api, token, { bucket: 'documents', fileKey: f.fileKey, title: `n${i}` }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 410)).toHaveLength(95);
    const refused = answers.find((r) => r.status === 410)!;
    expect(await errorOf(refused)).toEqual({ code: 'link_used_up', message: MESSAGES.usedUp });
    expect((await pending()).length - before).toBe(5);
    expect((await listLinks()).find((l) => l.id === link.id)).toMatchObject({
      uses: 5,
      maxUses: 5,
      status: 'used up',
    });
    const after = await api.call('/api/contributor/link', { uploadToken: token });
    expect(after.status).toBe(410);
  }, 120_000);
});
