// The foundation's slice through the real HTTP surface: gateway → gRPC → cms → documents port, the
// moderation API's guards, and the asset.approved event reaching storage through the event bus.
import { createGrpcClient, type Doc } from '@omni/platform';
import { cms } from '@omni/proto';
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
let cmsCalls: CmsApi;
/** One contributor link per page, so the slice can put pending assets in moderation. */
const linkTokens = new Map<string, string>();

const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${platform.url}${path}`, {
    ...init,
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.headers as Record<string, string>),
    },
  });

/** A pending music asset, submitted by a contributor through an upload link (as moderation receives them). */
async function createAsset(title: string, pageSlug = 'music') {
  let token = linkTokens.get(pageSlug);
  if (!token) {
    token = (await createLink(cmsCalls, admin, { pageSlug, maxUses: 100 })).token;
    linkTokens.set(pageSlug, token);
  }
  const { fileKey } = await contributorSignAndPut(cmsCalls, token, {
    bucket: 'audio',
    fileName: `${title}.wav`,
    contentType: 'audio/wav',
    bytes: wav(1),
  });
  const res = await submitContributorFile(cmsCalls, token, {
    bucket: 'audio',
    fileKey,
    title,
    description: `About ${title}`,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { asset: { id: string; status: string } }).asset;
}

const publish = (id: string) => api(`/api/admin/assets/${id}/publish`, { method: 'POST', token: admin });

beforeAll(async () => {
  platform = await startTestPlatform();
  cmsCalls = cmsApi(platform.url);
  const identity = await platform.ports.documents('identity');
  admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
  artist = await signTestToken(identity, { roles: ['artist'] });
});

afterAll(() => platform?.close());

describe('public pages', () => {
  it('seeds the Music and Videos pages on first start', async () => {
    const res = await api('/api/pages');
    expect(res.status).toBe(200);
    const { pages } = (await res.json()) as { pages: { slug: string; title: string }[] };
    expect(pages.map((p) => [p.slug, p.title])).toEqual([
      ['music', 'Music'],
      ['videos', 'Videos'],
    ]);
  });

  it('lists nothing before anything is published', async () => {
    const res = await api('/api/pages/videos/assets');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      page: expect.objectContaining({ slug: 'videos', title: 'Videos' }),
      assets: [],
      nextCursor: null,
    });
  });

  it('answers an unknown page slug with 404 and a readable message', async () => {
    const res = await api('/api/pages/podcasts/assets');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "There is no page called 'podcasts'.",
    );
  });

  it('answers a malformed slug or query with 400, never 5xx', async () => {
    const bad = await api('/api/pages/Not%20A%20Slug/assets');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/page slug/);
    const badLimit = await api('/api/pages/music/assets?limit=-4');
    expect(badLimit.status).toBe(400);
    const unknownParam = await api('/api/pages/music/assets?sort=evil');
    expect(unknownParam.status).toBe(400);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await api('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
  it('answers a cached page exactly as the first time: same bytes, same headers, 304 and HEAD alike', async () => {
    // The first read goes through the Express route and fills the gateway cache; the later ones are
    // answered from the cache before Express (the fast path). A reader must not see the difference.
    const headersOf = (res: Response) =>
      Object.fromEntries([...res.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive'));
    for (const path of ['/api/pages/videos/assets', '/api/pages/videos/assets?limit=7']) {
      const first = await api(path);
      const firstBody = await first.text();
      const again = await api(path);
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(firstBody);
      expect(headersOf(again)).toEqual(headersOf(first));
      expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(again.headers.get('content-security-policy')).toContain("default-src 'self'");

      const etag = first.headers.get('etag')!;
      const notModified = await api(path, { headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(await notModified.text()).toBe('');

      const head = await api(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(firstBody)));
      expect(await head.text()).toBe('');
    }
    // What the fast path does not recognise still reaches the route's validation once cached.
    expect((await api('/api/pages/videos/assets?limit=900')).status).toBe(400);
    expect((await api('/api/pages/videos/assets?limit=7&sort=evil')).status).toBe(400);
    expect((await api('/api/pages/videos/assets?limit=07')).status).toBe(200);
  });
});

describe('moderation and publishing', () => {
  it('shows only published assets, newest published first, with page title', async () => {
    const first = await createAsset('First light');
    const second = await createAsset('Second wind');
    const hidden = await createAsset('Still pending');
    expect(hidden.status).toBe('pending');
    expect((await publish(first.id)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    expect((await publish(second.id)).status).toBe(200);

    const res = await api('/api/pages/music/assets');
    const body = (await res.json()) as {
      assets: {
        id: string;
        title: string;
        description: string;
        publishedAt: string;
        status: string;
        pageTitle: string;
      }[];
    };
    expect(body.assets.map((a) => a.title)).toEqual(['Second wind', 'First light']);
    expect(body.assets[0]).toMatchObject({
      status: 'published',
      pageTitle: 'Music',
      description: 'About Second wind',
    });
    expect(Date.parse(body.assets[0]!.publishedAt)).toBeGreaterThanOrEqual(
      Date.parse(body.assets[1]!.publishedAt),
    );
  });

  it('publishes an asset once: a second approval is a 409 that says why', async () => {
    const asset = await createAsset('Twice');
    expect((await publish(asset.id)).status).toBe(200);
    const again = await publish(asset.id);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      'This asset was already moderated.',
    );
  });

  it('rejects with a reason, which is required', async () => {
    const asset = await createAsset('Not this one');
    const empty = await api(`/api/admin/assets/${asset.id}/reject`, {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ reason: '   ' }),
    });
    expect(empty.status).toBe(400);
    const ok = await api(`/api/admin/assets/${asset.id}/reject`, {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ reason: 'Audio clips' }),
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { asset: { status: string; rejectionReason: string } }).asset).toMatchObject(
      {
        status: 'rejected',
        rejectionReason: 'Audio clips',
      },
    );
  });

  it('delivers asset.approved to storage, which makes the file public exactly once', async () => {
    const asset = await createAsset('Event me');
    await publish(asset.id);
    const storage = await platform.ports.documents('storage');
    const publicObjects = storage.collection<Doc>('public_objects');
    let found: Doc | null = null;
    for (let i = 0; i < 100 && !found; i++) {
      found = await publicObjects.findById(asset.id);
      if (!found) await new Promise((r) => setTimeout(r, 20));
    }
    expect(found).toMatchObject({ assetId: asset.id });
    expect(await publicObjects.count({ assetId: asset.id })).toBe(1);
  });

  it('drops cached public pages when cms announces a decision made elsewhere (asset.approved)', async () => {
    const asset = await createAsset('Approved by another gateway');
    const before = (await (await api('/api/pages/music/assets')).json()) as { assets: { id: string }[] };
    expect(before.assets.map((a) => a.id)).not.toContain(asset.id);
    // Straight to cms over gRPC, as a second gateway replica would: only the event can refresh this one.
    const direct = createGrpcClient(cms.CmsServiceService, platform.config.grpcAddress('cms'));
    await direct.publishAsset({ assetId: asset.id, actorId: 'another-replica' });
    direct.close();
    let ids: string[] = [];
    for (let i = 0; i < 100 && !ids.includes(asset.id); i++) {
      await new Promise((r) => setTimeout(r, 20));
      ids = (
        (await (await api('/api/pages/music/assets')).json()) as { assets: { id: string }[] }
      ).assets.map((a) => a.id);
    }
    expect(ids).toContain(asset.id);
  });

  it('answers a repeated public read with 304 when the ETag matches', async () => {
    const first = await api('/api/pages/music/assets');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await api('/api/pages/music/assets', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('refuses anonymous callers (401), artists (403) and forged tokens (401)', async () => {
    const body = JSON.stringify({ pageSlug: 'music', kind: 'music', title: 'x', fileKey: 'x' });
    expect((await api('/api/admin/uploads', { method: 'POST', body })).status).toBe(401);
    expect((await api('/api/admin/uploads', { method: 'POST', body, token: artist })).status).toBe(403);
    const [h, p] = admin.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString(
      'base64url',
    );
    const forged = `${h}.${forgedPayload}.${admin.split('.')[2]}`;
    const res = await api('/api/admin/uploads', { method: 'POST', body, token: forged });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/sign in again/);
    expect((await api('/api/admin/uploads', { method: 'POST', body, token: 'not-a-jwt' })).status).toBe(401);
  });

  it('refuses an expired token with 401', async () => {
    const identity = await platform.ports.documents('identity');
    const expired = await signTestToken(identity, { roles: ['admin'], expiresIn: '-1m' });
    const res = await api('/api/admin/assets/x/publish', { method: 'POST', token: expired });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('answers bad input to the admin API with 4xx and a readable message', async () => {
    const badJson = await api('/api/admin/uploads', { method: 'POST', token: admin, body: '{"title": ' });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { message: string } }).error.message).toBe(
      'The request body is not valid JSON.',
    );
    const missing = await api('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'music', kind: 'music', title: '' }),
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /Please fill all required fields/,
    );
    const wrongType = await api('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'music', kind: 'podcast', title: 7 }),
    });
    expect(wrongType.status).toBe(400);
    const unknownField = await api('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'music', kind: 'music', title: 'x', status: 'published' }),
    });
    expect(unknownField.status).toBe(400);
    const huge = await api('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({
        pageSlug: 'music',
        kind: 'music',
        title: 'x',
        description: 'y'.repeat(2_000_000),
      }),
    });
    expect(huge.status).toBe(413);
    const noPage = await api('/api/admin/uploads', {
      method: 'POST',
      token: admin,
      body: JSON.stringify({ pageSlug: 'nowhere', kind: 'music', title: 'x', fileKey: 'x' }),
    });
    expect(noPage.status).toBe(404);
    const missingAsset = await publish('does-not-exist');
    expect(missingAsset.status).toBe(404);
  });
});

describe('operations', () => {
  it('GET /healthz reports every service as serving', async () => {
    const res = await api('/healthz');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; services: Record<string, string> };
    expect(body.status).toBe('ok');
    expect(Object.keys(body.services).sort()).toEqual([
      'billing',
      'catalog',
      'cms',
      'delivery',
      'finder',
      'gateway',
      'identity',
      'royalties',
      'storage',
    ]);
    expect(new Set(Object.values(body.services))).toEqual(new Set(['SERVING']));
  });

  it('GET /readyz is 200 when the gateway reaches cms', async () => {
    const res = await api('/readyz');
    expect(res.status).toBe(200);
  });

  it('sends security headers and no stack traces', async () => {
    const res = await api('/api/pages/music/assets');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
    const bad = await api('/api/admin/uploads', { method: 'POST', token: admin, body: '{' });
    expect(await bad.text()).not.toMatch(/at .*\.ts:\d+/);
  });
});
