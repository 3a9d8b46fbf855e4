// 'Continue with Google' through the real HTTP surface, with the platform in Keycloak mode against a
// small fake Keycloak (tests/support/fake-keycloak.ts). The browser's trip through Keycloak and Google is
// played by `fake.authorize`, which issues a code for the challenge the gateway sent, the way Keycloak
// would after Google vouched for the person. The same trip in a real browser: tests/e2e/google-sign-in.
import { type FakeKeycloak, keycloakModeEnv, startFakeKeycloak } from '../support/fake-keycloak';
import { startTestPlatform, type TestPlatform } from '../support/platform';

let fake: FakeKeycloak;
let platform: TestPlatform;
let ipCounter = 0;

const api = (path: string, init: RequestInit & { cookie?: string; token?: string; json?: unknown } = {}) =>
  fetch(`${platform.url}${path}`, {
    redirect: 'manual',
    ...init,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    headers: {
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      'x-forwarded-for': `10.9.0.${++ipCounter}`,
    },
  });

/** Starts a sign-in: the redirect to Keycloak and the cookie the gateway set for it. */
async function startGoogle(redirectTo = '/app') {
  const res = await api(`/api/auth/google?redirectTo=${encodeURIComponent(redirectTo)}`);
  expect(res.status).toBe(302);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return {
    auth: new URL(res.headers.get('location') ?? ''),
    setCookie,
    cookie: setCookie.split(';')[0] ?? '',
  };
}

const callback = (query: Record<string, string>, cookie?: string) =>
  api(`/api/auth/google/callback?${new URLSearchParams(query)}`, { cookie });

let personCounter = 0;
const newPerson = () => ({
  email: `google${++personCounter}-${Date.now()}@gmail.com`,
  name: `Ada Google ${personCounter}`,
});

/** The whole browser round trip; resolves to the callback's answer. */
async function signInWithGoogle(
  person: ReturnType<typeof newPerson> & { emailVerified?: boolean } = newPerson(),
  redirectTo = '/app',
) {
  const { auth, cookie } = await startGoogle(redirectTo);
  const code = fake.authorize(auth, person);
  return { res: await callback({ code, state: auth.searchParams.get('state') ?? '' }, cookie), person };
}

const handoffOf = (res: Response) => {
  const location = new URL(res.headers.get('location') ?? '', 'http://x');
  return { path: location.pathname, code: location.searchParams.get('handoff') ?? '', location };
};

beforeAll(async () => {
  fake = await startFakeKeycloak();
  platform = await startTestPlatform({ env: keycloakModeEnv(fake) });
});
afterAll(async () => {
  await platform?.close();
  await fake?.close();
});

describe('GET /api/auth/google', () => {
  it('redirects to Keycloak with the Google hint, PKCE (S256) and a state, and sets the signed cookie', async () => {
    const { auth, setCookie } = await startGoogle('/uploader');
    expect(`${auth.origin}${auth.pathname}`).toBe(`${fake.url}/realms/omni/protocol/openid-connect/auth`);
    const q = Object.fromEntries(auth.searchParams);
    expect(q).toMatchObject({
      client_id: 'omni-web',
      response_type: 'code',
      kc_idp_hint: 'google',
      code_challenge_method: 'S256',
      redirect_uri: `${platform.config.publicUrl}/api/auth/google/callback`,
    });
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(setCookie).toMatch(/^omni_google_signin=[^;]+;/);
    expect(setCookie).toMatch(/Max-Age=600/);
    expect(setCookie).toMatch(/Path=\/api\/auth\/google/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/); // PUBLIC_URL is http here
    expect(await (await api('/api/auth/providers')).json()).toMatchObject({
      google: true,
      mailbox: '/dev/mailbox',
    });
  });

  it('never redirects to another site afterwards (redirectTo must be a path)', async () => {
    const { res } = await signInWithGoogle(newPerson(), '//evil.example/steal');
    expect(res.status).toBe(302);
    expect(handoffOf(res).path).toBe('/app');
  });
});

describe('GET /api/auth/google/callback', () => {
  it('refuses a wrong, missing or cookie-less state with /login?error=google_expired, and clears the cookie', async () => {
    const { auth, cookie } = await startGoogle();
    const code = fake.authorize(auth, newPerson());
    const wrong = await callback({ code, state: `${auth.searchParams.get('state')}x` }, cookie);
    expect(wrong.status).toBe(302);
    expect(wrong.headers.get('location')).toBe('/login?error=google_expired');
    expect(wrong.headers.get('set-cookie')).toMatch(/omni_google_signin=;.*Expires=Thu, 01 Jan 1970/);

    const missing = await callback({ code }, cookie);
    expect(missing.headers.get('location')).toBe('/login?error=google_expired');
    const noCookie = await callback({ code, state: auth.searchParams.get('state') ?? '' });
    expect(noCookie.headers.get('location')).toBe('/login?error=google_expired');
  });

  it('refuses a tampered cookie', async () => {
    const { auth, cookie } = await startGoogle();
    const code = fake.authorize(auth, newPerson());
    const [name, value] = cookie.split('=') as [string, string];
    const [payload, mac] = value.split('.') as [string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    forged.redirectTo = '/admin';
    const tampered = `${name}=${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
    const res = await callback({ code, state: auth.searchParams.get('state') ?? '' }, tampered);
    expect(res.headers.get('location')).toBe('/login?error=google_expired');
  });

  it('turns ?error=access_denied into google_cancelled and a refused code into google_failed', async () => {
    const { auth, cookie } = await startGoogle();
    const state = auth.searchParams.get('state') ?? '';
    const cancelled = await callback({ error: 'access_denied', state }, cookie);
    expect(cancelled.headers.get('location')).toBe('/login?error=google_cancelled');

    const again = await startGoogle();
    const refused = await callback(
      { code: 'not-a-code-keycloak-issued', state: again.auth.searchParams.get('state') ?? '' },
      again.cookie,
    );
    expect(refused.headers.get('location')).toBe('/login?error=google_failed');
  });

  it("an address Keycloak does not vouch for: identity's reason email_not_confirmed → /login?error=email_not_confirmed", async () => {
    const { res } = await signInWithGoogle({ ...newPerson(), emailVerified: false });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?error=email_not_confirmed');
  });

  it('signs a new Google user in: handoff → session → /api/me, with a profile named as Google names them', async () => {
    const { res, person } = await signInWithGoogle(newPerson(), '/uploader?tab=new');
    expect(res.status).toBe(302);
    const { path, code, location } = handoffOf(res);
    expect(path).toBe('/uploader');
    expect(location.searchParams.get('tab')).toBe('new');
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers.get('location')).not.toMatch(/token|eyJ/); // no token in the URL

    const redeemed = await api('/api/auth/handoff', { method: 'POST', json: { code } });
    expect(redeemed.status).toBe(200);
    const session = (await redeemed.json()) as {
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      user: { email: string; emailVerified: boolean; roles: string[] };
      profile: { displayName: string };
    };
    expect(session.user).toMatchObject({ email: person.email, emailVerified: true, roles: ['artist'] });
    expect(session.profile.displayName).toBe(person.name);
    expect(session.expiresIn).toBe(300);

    const me = await api('/api/me', { token: session.accessToken });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      user: { email: person.email, roles: ['artist'] },
      profile: { displayName: person.name },
    });

    // The session is the web client's: refreshing and signing out go to Keycloak as omni-web.
    const refreshed = await api('/api/auth/refresh', {
      method: 'POST',
      json: { refreshToken: session.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { refreshToken: string };
    expect(next.refreshToken).not.toBe(session.refreshToken);
    const out = await api('/api/auth/logout', { method: 'POST', json: { refreshToken: next.refreshToken } });
    expect(out.status).toBe(204);
    const afterOut = await api('/api/auth/refresh', {
      method: 'POST',
      json: { refreshToken: next.refreshToken },
    });
    expect(afterOut.status).toBe(401);
  });

  it('a handoff code works once', async () => {
    const { res } = await signInWithGoogle();
    const { code } = handoffOf(res);
    expect((await api('/api/auth/handoff', { method: 'POST', json: { code } })).status).toBe(200);
    const second = await api('/api/auth/handoff', { method: 'POST', json: { code } });
    expect(second.status).toBe(400);
    expect(((await second.json()) as { error: unknown }).error).toEqual({
      code: 'invalid_handoff',
      message: 'This sign-in has expired or was already used. Please sign in again.',
    });
    const unknown = await api('/api/auth/handoff', { method: 'POST', json: { code: 'A'.repeat(43) } });
    expect(unknown.status).toBe(400);
  });

  it('a second Google sign-in finds the same account and profile', async () => {
    const person = newPerson();
    const first = handoffOf((await signInWithGoogle(person)).res).code;
    const second = handoffOf((await signInWithGoogle(person)).res).code;
    const a = (await (await api('/api/auth/handoff', { method: 'POST', json: { code: first } })).json()) as {
      user: { id: string };
    };
    const b = (await (await api('/api/auth/handoff', { method: 'POST', json: { code: second } })).json()) as {
      user: { id: string };
    };
    expect(b.user.id).toBe(a.user.id);
  });

  it('a code cannot be used without the verifier of the browser that started the sign-in', async () => {
    // Someone else's cookie and state, with a code issued for this browser's challenge.
    const mine = await startGoogle();
    const theirs = await startGoogle();
    const code = fake.authorize(mine.auth, newPerson());
    const res = await callback({ code, state: theirs.auth.searchParams.get('state') ?? '' }, theirs.cookie);
    expect(res.headers.get('location')).toBe('/login?error=google_failed');
  });
});

describe('embedded mode', () => {
  it('sends both Google pages back to the sign-in page, which explains', async () => {
    const embedded = await startTestPlatform();
    try {
      for (const path of ['/api/auth/google?redirectTo=/app', '/api/auth/google/callback?code=x&state=y']) {
        const res = await fetch(`${embedded.url}${path}`, { redirect: 'manual' });
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('/login?error=google_not_configured');
      }
    } finally {
      await embedded.close();
    }
  });
});
