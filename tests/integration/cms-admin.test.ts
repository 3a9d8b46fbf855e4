// OMNI CMS admin API through the real HTTP surface: every admin route refuses the wrong caller, an admin's
// upload is judged by storage and published at once, and a published asset plays through a signed link
// that answers Range requests.

import { type AssetJson, adminSignAndPut, adminUpload, type CmsApi, cmsApi } from '../support/cms';
import { mp4, png, wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;
let artist: string;

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
  artist = await signTestToken(identity, { roles: ['artist'] });
});

afterAll(() => platform?.close());

const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/api/admin/pages'],
  ['POST', '/api/admin/uploads-sign'],
  ['POST', '/api/admin/uploads'],
  ['GET', '/api/admin/assets?status=pending'],
  ['POST', '/api/admin/assets/some-id/publish'],
  ['POST', '/api/admin/assets/some-id/reject'],
  ['GET', '/api/admin/assets/some-id/media'],
  ['POST', '/api/admin/upload-links'],
  ['GET', '/api/admin/upload-links'],
  ['POST', '/api/admin/upload-links/some-id/revoke'],
];

describe('admin routes refuse the wrong caller', () => {
  it.each(ADMIN_ROUTES)('%s %s: anonymous 401, artist 403', async (method, path) => {
    const body = method === 'POST' ? JSON.stringify({}) : undefined;
    const anonymous = await api.call(path, { method, body });
    expect(anonymous.status).toBe(401);
    const asArtist = await api.call(path, { method, body, token: artist });
    expect(asArtist.status).toBe(403);
  });
});

describe('admin upload', () => {
  it('lists the pages', async () => {
    const res = await api.call('/api/admin/pages', { token: admin });
    expect(res.status).toBe(200);
    const { pages } = (await res.json()) as { pages: { slug: string; title: string }[] };
    expect(pages.map((p) => p.slug)).toEqual(['music', 'videos']);
  });

  it('publishes music at once; it appears on /music and plays with Range support', async () => {
    const bytes = wav(1, { tone: true });
    const asset = await adminUpload(
      api,
      admin,
      { pageSlug: 'music', kind: 'music', title: 'Morning tone', description: 'A test tone' },
      { fileName: 'morning tone.wav', contentType: 'audio/wav', bytes },
    );
    expect(asset).toMatchObject({ status: 'published', kind: 'music', title: 'Morning tone' });
    expect(asset.publishedAt).toBeTruthy();

    const list = (await (await api.call('/api/pages/music/assets')).json()) as { assets: AssetJson[] };
    const listed = list.assets.find((a) => a.id === asset.id)!;
    expect(listed.mediaUrl).toBe(`/api/assets/${asset.id}/media`);

    const redirect = await api.call(listed.mediaUrl);
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!, platform.url);
    const whole = await fetch(`${platform.url}${location.pathname}${location.search}`);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const ranged = await fetch(`${platform.url}${location.pathname}${location.search}`, {
      headers: { range: 'bytes=100-199' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
  });

  it('publishes a video on /videos', async () => {
    const asset = await adminUpload(
      api,
      admin,
      { pageSlug: 'videos', kind: 'video', title: 'Clip' },
      { fileName: 'clip.mp4', contentType: 'video/mp4', bytes: mp4() },
    );
    expect(asset).toMatchObject({ status: 'published', kind: 'video' });
    const list = (await (await api.call('/api/pages/videos/assets')).json()) as { assets: AssetJson[] };
    expect(list.assets.map((a) => a.id)).toContain(asset.id);
  });

  it("refuses music whose bytes are a video, with storage's message, and publishes nothing", async () => {
    const fileKey = await adminSignAndPut(api, admin, {
      fileName: 'song.wav',
      contentType: 'audio/wav',
      bytes: mp4(),
    });
    const res = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'music', kind: 'music', source: 'file', fileKey, title: 'Not music' }),
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(
      'This file is a video; upload an audio file (WAV, FLAC, AIFF, MP3, ...) instead.',
    );
    const list = (await (await api.call('/api/pages/music/assets')).json()) as { assets: AssetJson[] };
    expect(list.assets.map((a) => a.title)).not.toContain('Not music');
  });

  it('refuses an image on the public pages at all', async () => {
    const fileKey = await adminSignAndPut(api, admin, {
      fileName: 'cover.png',
      contentType: 'application/octet-stream',
      bytes: png(8, 8),
    });
    const res = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'videos', kind: 'video', fileKey, title: 'Picture' }),
    });
    expect(res.status).toBe(400);
    // In people's words: the pages and what they take, never the bucket's name (issue 21 §3.10).
    const { message } = await errorOf(res);
    expect(message).toBe(
      'The Music and Videos pages take an audio file (WAV, FLAC, AIFF, MP3, ...) or a video file (MP4, MOV, ...); this file is an image.',
    );
    expect(message).not.toMatch(/cms-assets/);
  });

  it('answers missing fields with the spec message, and other bad input with 4xx', async () => {
    for (const body of [
      { pageSlug: 'music', kind: 'music', fileKey: 'x' },
      { pageSlug: '', kind: 'music', fileKey: 'x', title: 'T' },
      { pageSlug: 'music', kind: 'music', title: 'T' },
      { pageSlug: 'music', kind: 'music', fileKey: 'x', title: '   ' },
    ]) {
      const res = await api.call('/api/admin/uploads', {
        method: 'POST',
        token: admin,
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('Please fill all required fields');
    }
    const badKind = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'music', kind: 'podcast', fileKey: 'x', title: 'T' }),
    });
    expect(badKind.status).toBe(400);
    const unknownFile = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'music', kind: 'music', fileKey: 'nope/x.wav', title: 'T' }),
    });
    expect(unknownFile.status).toBe(404);
    const noPage = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'nowhere', kind: 'music', fileKey: 'x', title: 'T' }),
    });
    expect(noPage.status).toBe(404);
    const badJson = await api.call('/api/admin/uploads', { method: 'POST', token: admin, body: '{"x":' });
    expect(badJson.status).toBe(400);
    const badSize = await api.call('/api/admin/uploads-sign', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ fileName: 'a.wav', contentType: 'audio/wav', size: 'big' }),
    });
    expect(badSize.status).toBe(400);
    const tooBig = await api.call('/api/admin/uploads-sign', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ fileName: 'a.wav', contentType: 'audio/wav', size: 6 * 1024 ** 3 }),
    });
    expect(tooBig.status).toBe(400);
  });

  it('does not play what is not published (404), and answers a bad id with 404', async () => {
    expect((await api.call('/api/assets/does-not-exist/media')).status).toBe(404);
  });
});
