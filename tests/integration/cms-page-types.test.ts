// Issue 21 §3.9: a page shows one type (Music: music, Videos: videos). An admin's music file published on
// the Videos page used to be accepted and then shown nowhere; now it is a 400 that says which page takes
// which type, and nothing is published.
import { wrongPageMessage } from '@omni/proto/api';
import { type AssetJson, adminSignAndPut, adminUpload, type CmsApi, cmsApi } from '../support/cms';
import { mp4, wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
});
afterAll(() => platform?.close());

const published = async (slug: string) =>
  ((await (await api.call(`/api/pages/${slug}/assets`)).json()) as { assets: AssetJson[] }).assets;

it.each([
  [
    'music',
    'videos',
    'Videos',
    { fileName: 'song.wav', contentType: 'audio/wav', bytes: wav(1, { tone: true }) },
  ],
  ['video', 'music', 'Music', { fileName: 'clip.mp4', contentType: 'video/mp4', bytes: mp4() }],
] as const)(
  'refuses %s on the %s page with a 400 that says which page takes which type',
  async (kind, pageSlug, pageTitle, file) => {
    const fileKey = await adminSignAndPut(api, admin, file);
    const res = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug, kind, title: 'Wrong page', source: 'file', fileKey }),
    });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { message: string } };
    expect(error.message).toBe(wrongPageMessage(pageTitle, kind));
    expect(error.message).toContain('Music goes on the Music page and videos on the Videos page');
    expect((await published(pageSlug)).map((a) => a.title)).not.toContain('Wrong page');
  },
);

it('still publishes music on Music and video on Videos', async () => {
  const song = await adminUpload(
    api,
    admin,
    { pageSlug: 'music', kind: 'music', title: 'Right page song' },
    { fileName: 'right.wav', contentType: 'audio/wav', bytes: wav(1, { tone: true }) },
  );
  const clip = await adminUpload(
    api,
    admin,
    { pageSlug: 'videos', kind: 'video', title: 'Right page clip' },
    { fileName: 'right.mp4', contentType: 'video/mp4', bytes: mp4() },
  );
  expect((await published('music')).map((a) => a.id)).toContain(song.id);
  expect((await published('videos')).map((a) => a.id)).toContain(clip.id);
});

describe('admins read people words, never a bucket name (issue 21 §3.10)', () => {
  const sign = (body: Record<string, unknown>) =>
    api.call('/api/admin/uploads-sign', { method: 'POST', token: admin, body: JSON.stringify(body) });

  it('refuses an image for the pages by saying what the pages take', async () => {
    const res = await sign({ fileName: 'cover.png', contentType: 'image/png', size: 1000 });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { message: string } };
    expect(error.message).toBe('The Music and Videos pages take music and video; this file is image/png.');
  });

  it('refuses a file over the limit by saying what the limit is for', async () => {
    const res = await sign({ fileName: 'long.mp4', contentType: 'video/mp4', size: 6 * 1024 ** 3 });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { message: string } };
    expect(error.message).toBe(
      'This file is 6 GB; files for the Music and Videos pages may be at most 5 GB.',
    );
  });

  it('refuses audio bytes sent as a video without naming the bucket', async () => {
    const fileKey = await adminSignAndPut(api, admin, {
      fileName: 'not-a-clip.mp4',
      contentType: 'video/mp4',
      bytes: wav(1, { tone: true }),
    });
    const res = await api.call('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({
        pageSlug: 'videos',
        kind: 'video',
        title: 'Not a clip',
        source: 'file',
        fileKey,
      }),
    });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { message: string } };
    expect(error.message).not.toMatch(/cms-assets|bucket/i);
  });
});
