// In a cluster the objects live in S3/MinIO, whose public origin is not Omni's: the browser PUTs uploads
// there, and the media redirect, the moderation preview and cover art load from there. The web app's
// Content-Security-Policy must admit that origin (and only it) for fetches, media and images, or no
// published track plays. Checked against an in-process S3 server that verifies SigV4 (as the storage
// contract suite does), reached by the services at 127.0.0.1 and by "browsers" at localhost, its
// S3_PUBLIC_URL. With the embedded store, objects are Omni's own: the policy keeps 'self' only.
import { loadConfig } from '@omni/platform';
import { type RunningS3rver, startS3rver } from '../../services/storage/test/support/objects-s3rver';
import { wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

/** The sources of one directive of a Content-Security-Policy header. */
function directive(policy: string | null, name: string): string[] | undefined {
  const found = (policy ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found?.slice(1);
}

/** An HTML page of the web app and an API answer: the two kinds of answer the public service sends. */
async function policies(base: string): Promise<string[]> {
  const page = await fetch(`${base}/music`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const api = await fetch(`${base}/api/pages/music/assets`);
  expect(api.status).toBe(200);
  return [page, api].map((res) => res.headers.get('content-security-policy') ?? '');
}

describe('objects in S3 with a public origin of their own', () => {
  let s3: RunningS3rver;
  let platform: TestPlatform;
  let objectOrigin: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    objectOrigin = `http://localhost:${s3.port}`;
    platform = await startTestPlatform({
      env: {
        OBJECT_STORE: 'minio',
        S3_ENDPOINT: s3.endPoint,
        S3_PORT: String(s3.port),
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        S3_PUBLIC_URL: `${objectOrigin}/`,
      },
    });
  });
  afterAll(async () => {
    await platform?.close();
    await s3?.stop();
  });

  it('admits the object store origin for fetches, media and images on pages and API answers', async () => {
    for (const policy of await policies(platform.url)) {
      expect(directive(policy, 'media-src')).toEqual(["'self'", 'blob:', objectOrigin]);
      expect(directive(policy, 'img-src')).toEqual(["'self'", 'data:', 'blob:', objectOrigin]);
      expect(directive(policy, 'connect-src')).toEqual(["'self'", objectOrigin]);
      // Nothing else is opened: scripts and the rest still come from Omni only.
      expect(directive(policy, 'default-src')).toEqual(["'self'"]);
      expect(directive(policy, 'script-src')?.[0]).toBe("'self'");
    }
  });

  it('an admin upload goes to that origin and the published track plays from it', async () => {
    const identity = await platform.ports.documents('identity');
    const admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
    const call = (path: string, body: unknown) =>
      fetch(`${platform.url}/api/admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify(body),
      });
    const bytes = wav(1);
    const sign = await call('/uploads-sign', {
      fileName: 'tide.wav',
      contentType: 'audio/wav',
      size: bytes.length,
    });
    expect(sign.status).toBe(200);
    const signed = (await sign.json()) as {
      signedUrl: string;
      fileKey: string;
      headers: Record<string, string>;
    };
    // What the browser's XHR does (put-to-signed-url.ts): another origin gets the bytes and no bearer.
    expect(new URL(signed.signedUrl).origin).toBe(objectOrigin);
    // The file's own type, set once as the XHR does: a second Content-Type header would join the signed one.
    const headers = new Headers(signed.headers);
    headers.set('content-type', 'audio/wav');
    const put = await fetch(signed.signedUrl, {
      method: 'PUT',
      headers,
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    const created = await call('/uploads', {
      pageSlug: 'music',
      kind: 'music',
      title: 'Tide',
      source: 'file',
      fileKey: signed.fileKey,
    });
    expect(created.status).toBe(201);
    const { asset } = (await created.json()) as { asset: { id: string; status: string } };
    expect(asset.status).toBe('published');

    const media = await fetch(`${platform.url}/api/assets/${asset.id}/media`, { redirect: 'manual' });
    expect(media.status).toBe(302);
    const location = media.headers.get('location')!;
    expect(new URL(location).origin).toBe(objectOrigin);
    const [pagePolicy] = await policies(platform.url);
    expect(directive(pagePolicy!, 'media-src')).toContain(new URL(location).origin);
    // The object store serves it there, ranges included, as an <audio> element asks.
    const played = await fetch(location, { headers: { range: 'bytes=0-3' } });
    expect(played.status).toBe(206);
    expect(await played.text()).toBe('RIFF');
  });
});

describe('objects in the embedded store', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.close());

  it("keeps 'self' only: the objects are served by Omni at /objects", async () => {
    for (const policy of await policies(platform.url)) {
      expect(directive(policy, 'media-src')).toEqual(["'self'", 'blob:']);
      expect(directive(policy, 'img-src')).toEqual(["'self'", 'data:', 'blob:']);
      expect(directive(policy, 'connect-src')).toBeUndefined();
      expect(directive(policy, 'default-src')).toEqual(["'self'"]);
    }
  });
});

describe('S3_PUBLIC_URL', () => {
  const minio = { OBJECT_STORE: 'minio', S3_ENDPOINT: 'minio', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' };
  const load = (url: string) => () => loadConfig({ ...minio, S3_PUBLIC_URL: url }, []);

  it('must be an http(s) origin, refused at start with a message naming it', () => {
    expect(load('https://media.example.com')).not.toThrow();
    expect(load('https://media.example.com:8443/')).not.toThrow();
    expect(load('media.example.com')).toThrow(/S3_PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/);
    expect(load('javascript:alert(1)')).toThrow(/S3_PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/);
    for (const notOrigin of [
      'https://media.example.com/audio',
      'https://media.example.com/?x=1',
      'https://user:pw@media.example.com',
    ])
      expect(load(notOrigin)).toThrow(/S3_PUBLIC_URL: must be an origin only/);
    // A value that would break the header (a space, a quote, a semicolon) is no URL.
    expect(load("https://media.example.com; script-src 'unsafe-inline'")).toThrow(/S3_PUBLIC_URL/);
  });
});
