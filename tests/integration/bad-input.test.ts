// The quality bar's "no 5xx for anything a client sends", swept across the public HTTP surface: every
// API route the gateway serves, with no token, a malformed one, a forged one, an artist's and an admin's,
// and bodies that are malformed, mistyped, oversized, hostile or of the wrong media type. Every answer
// must be below 500 and must come (a request the server never answers is worse than a 500).
// The route list is kept by hand: add a route here when you add one to the gateway.
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

const ROUTES: [method: string, path: string][] = [
  ['GET', '/api/pages'],
  ['GET', '/api/pages/music/assets'],
  ['GET', '/api/pages/%00/assets'],
  ['GET', `/api/pages/${'a'.repeat(3000)}/assets`],
  ['GET', '/api/admin/pages'],
  ['GET', '/api/admin/assets'],
  ['GET', '/api/admin/assets?status=pending&cursor=not-a-cursor'],
  ['POST', '/api/admin/uploads-sign'],
  ['POST', '/api/admin/uploads'],
  ['POST', '/api/admin/assets/no-such-id/publish'],
  ['POST', '/api/admin/assets/no-such-id/reject'],
  ['GET', '/api/admin/assets/no-such-id/media'],
  ['POST', '/api/admin/upload-links'],
  ['GET', '/api/admin/upload-links'],
  ['POST', '/api/admin/upload-links/no-such-id/revoke'],
  ['GET', '/api/contributor/link'],
  ['POST', '/api/contributor/uploads-sign'],
  ['POST', '/api/contributor/uploads'],
  ['POST', '/api/contributor/releases'],
  ['GET', '/api/assets/no-such-id/media'],
  ['GET', '/api/pages/music/assets?cursor=%ff%fe'],
  ['POST', '/api/auth/signup'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/refresh'],
  ['POST', '/api/auth/logout'],
  ['POST', '/api/auth/resend'],
  ['POST', '/api/auth/verify'],
  ['POST', '/api/auth/magic-link'],
  ['POST', '/api/auth/magic-link/consume'],
  ['POST', '/api/auth/forgot-password'],
  ['POST', '/api/auth/reset-password'],
  ['POST', '/api/auth/handoff'],
  ['GET', '/api/auth/providers'],
  ['GET', '/api/auth/google'],
  ['GET', '/api/auth/google/callback'],
  ['GET', '/api/me'],
  ['PATCH', '/api/me'],
  ['DELETE', '/api/me'],
  ['GET', '/api/me/deletion'],
  ['POST', '/api/me/password'],
  ['POST', '/api/me/email'],
  ['POST', '/api/auth/reset-password/check'],
  ['POST', '/api/auth/email-change/confirm'],
  ['POST', '/api/uploads/sign'],
  ['POST', '/api/uploads/complete'],
  ['GET', '/api/uploads'],
  ['GET', '/api/storage/status'],
  ['GET', '/api/platforms'],
  ['GET', '/api/releases'],
  ['POST', '/api/releases'],
  ['GET', '/api/releases/no-such-release'],
  ['GET', '/api/releases/%E0%A4%A'],
  ['GET', '/api/songs'],
  ['GET', '/api/songs/no-such-song'],
  ['GET', '/api/dashboard'],
  ['GET', '/api/dev/mailbox'],
  ['POST', '/api/no-such-route'],
  ['GET', '/objects/omni-assets/x.wav'],
  ['PUT', '/objects/omni-assets/x.wav'],
  ['PUT', '/objects/documents/notes.json'],
  ['GET', '/objects/..%2F..%2Fetc/passwd'],
  ['GET', '/realms/omni/protocol/openid-connect/certs'],
  ['GET', '/%E0%A4%A'],
];

const BODIES: string[] = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '{}',
  JSON.stringify({ email: 42, password: [], token: {}, title: null, stores: 'all', tracks: 'none' }),
  JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(200_000) }),
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { admin: true } } }),
  JSON.stringify({ a: { b: { c: { d: { e: { f: { g: {} } } } } } } }),
  JSON.stringify({ fileName: '../../etc/passwd\u0000.wav', size: -1, contentType: 'audio/wav', bucket: 'x' }),
  JSON.stringify({ title: '\ud800\u0000', pageSlug: 'music', kind: 'music', size: 1e300 }),
];

const QUERIES = ['', '?limit=abc', '?x[y]=1&x=2', `?token=${'z'.repeat(3000)}`];

let platform: TestPlatform;
let tokens: (string | undefined)[];

beforeAll(async () => {
  platform = await startTestPlatform();
  const identity = await platform.ports.documents('identity');
  const artist = await signTestToken(identity, { roles: ['artist'] });
  const admin = await signTestToken(identity, { roles: ['artist', 'admin'] });
  tokens = [undefined, 'Bearer not.a.token', `Bearer ${artist}x`, `Bearer ${artist}`, `Bearer ${admin}`];
});
afterAll(() => platform?.close());

interface Probe {
  method: string;
  path: string;
  token?: string;
  body?: string;
  contentType?: string;
}

function probes(method: string, path: string): Probe[] {
  const out: Probe[] = [];
  for (const token of tokens) {
    if (method === 'GET') {
      for (const query of QUERIES) out.push({ method, path: `${path}${query}`, token });
      continue;
    }
    for (const body of BODIES) {
      for (const contentType of ['application/json', 'text/plain'])
        out.push({ method, path, token, body, contentType });
    }
  }
  return out;
}

async function send(probe: Probe): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  if (probe.token) headers.authorization = probe.token;
  if (probe.contentType) headers['content-type'] = probe.contentType;
  const what = `${probe.method} ${probe.path.slice(0, 60)} token=${probe.token?.slice(0, 14)} type=${probe.contentType} body=${probe.body?.slice(0, 40)}`;
  try {
    const res = await fetch(`${platform.url}${probe.path}`, {
      method: probe.method,
      headers,
      body: probe.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status >= 500) return `${res.status} for ${what}: ${text.slice(0, 120)}`;
    return undefined;
  } catch (error) {
    return `no answer for ${what}: ${(error as Error).message}`;
  }
}

it.each(ROUTES)(
  '%s %s answers every bad or unauthorised request below 500, and answers it',
  async (method, path) => {
    const all = probes(method, path);
    const failures: string[] = [];
    // A few at a time: enough to be quick, few enough that the auth rate limits, not load, shape answers.
    for (let i = 0; i < all.length; i += 8) {
      for (const failure of await Promise.all(all.slice(i, i + 8).map(send)))
        if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  },
);
