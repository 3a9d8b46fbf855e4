// 'Continue with Google' through the real HTTP surface, with the platform in Keycloak mode against a
// small fake Keycloak (below): the realm's token endpoint (client credentials, authorization code with
// PKCE, refresh, logout), its JWKS, and the few admin endpoints the adapter calls. The browser's trip
// through Keycloak and Google is played by `fake.authorize`, which issues a code for the challenge the
// gateway sent, the way Keycloak would after Google vouched for the person.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const REALM = 'omni';
const SERVICE_SECRET = 'fake-omni-services-secret';

interface FakeUser {
  id: string;
  email: string;
  name: string;
  createdTimestamp: number;
}
interface PendingCode {
  user: FakeUser;
  challenge: string;
  redirectUri: string;
  clientId: string;
}

async function startFakeKeycloak() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'fake-kc', alg: 'RS256', use: 'sig' };
  const users = new Map<string, FakeUser>();
  const codes = new Map<string, PendingCode>();
  /** Live refresh tokens → whose (rotation: a used one is gone). */
  const refreshTokens = new Map<string, { user: FakeUser; clientId: string }>();
  const requests: string[] = [];
  let base = '';
  const issuer = () => `${base}/realms/${REALM}`;

  const sign = (claims: Record<string, unknown>, subject: string, typ: string) =>
    new SignJWT({ typ, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'fake-kc' })
      .setIssuer(issuer())
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(privateKey);

  const tokensFor = async (user: FakeUser, clientId: string) => {
    const claims = {
      azp: clientId,
      aud: ['omni-api', 'account'],
      email: user.email,
      email_verified: true,
      name: user.name,
      preferred_username: user.email,
      realm_access: { roles: ['artist', 'default-roles-omni', 'offline_access'] },
    };
    const refreshToken = await sign({ azp: clientId }, user.id, 'Refresh');
    refreshTokens.set(refreshToken, { user, clientId });
    return {
      access_token: await sign(claims, user.id, 'Bearer'),
      refresh_token: refreshToken,
      expires_in: 300,
      refresh_expires_in: 1800,
      token_type: 'Bearer',
    };
  };

  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (chunk: Buffer) => {
        data += chunk.toString('utf8');
      });
      req.on('end', () => resolve(data));
    });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const send = (status: number, json?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(json === undefined ? '' : JSON.stringify(json));
    };
    const oauthError = (error: string) => send(400, { error, error_description: error });
    const form = req.method === 'POST' ? new URLSearchParams(await body(req)) : new URLSearchParams();
    requests.push(
      `${req.method} ${url.pathname}${form.get('grant_type') ? ` ${form.get('grant_type')}` : ''}`,
    );
    const oidc = `/realms/${REALM}/protocol/openid-connect`;
    const admin = `/admin/realms/${REALM}`;

    if (url.pathname === `/realms/${REALM}/.well-known/openid-configuration`)
      return send(200, {
        issuer: issuer(),
        token_endpoint: `${base}${oidc}/token`,
        jwks_uri: `${base}${oidc}/certs`,
      });
    if (url.pathname === `${oidc}/certs`) return send(200, { keys: [jwk] });

    if (url.pathname === `${oidc}/token` && req.method === 'POST') {
      const grant = form.get('grant_type');
      if (grant === 'client_credentials') {
        if (form.get('client_id') !== 'omni-services' || form.get('client_secret') !== SERVICE_SECRET)
          return send(401, { error: 'unauthorized_client' });
        return send(200, { access_token: await sign({}, 'service-account', 'Bearer'), expires_in: 300 });
      }
      if (grant === 'authorization_code') {
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? ''); // a code works once, as in Keycloak
        if (!pending || form.get('client_id') !== pending.clientId || form.has('client_secret'))
          return oauthError('invalid_grant');
        if (form.get('redirect_uri') !== pending.redirectUri) return oauthError('invalid_grant');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (challenge !== pending.challenge) return oauthError('invalid_grant');
        return send(200, await tokensFor(pending.user, pending.clientId));
      }
      if (grant === 'refresh_token') {
        const live = refreshTokens.get(form.get('refresh_token') ?? '');
        // Keycloak: 'Token client and authorized client don't match'.
        if (!live || live.clientId !== form.get('client_id')) return oauthError('invalid_grant');
        refreshTokens.delete(form.get('refresh_token') ?? '');
        return send(200, await tokensFor(live.user, live.clientId));
      }
      return oauthError('unsupported_grant_type');
    }
    if (url.pathname === `${oidc}/logout` && req.method === 'POST') {
      const live = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!live || live.clientId !== form.get('client_id')) return oauthError('invalid_grant');
      refreshTokens.delete(form.get('refresh_token') ?? '');
      return send(204);
    }

    if (url.pathname.startsWith(admin)) {
      if (!req.headers.authorization?.startsWith('Bearer ')) return send(401);
      const path = url.pathname.slice(admin.length);
      if (path === '/users' && req.method === 'GET') {
        const email = url.searchParams.get('email');
        return send(
          200,
          [...users.values()]
            .filter((u) => u.email === email)
            .map((u) => ({ ...u, username: u.email, emailVerified: true, firstName: u.name })),
        );
      }
      const roles = path.match(/^\/users\/([^/]+)\/role-mappings\/realm\/composite$/);
      if (roles)
        return send(200, [
          { id: 'r1', name: 'artist' },
          { id: 'r2', name: 'default-roles-omni' },
        ]);
      const one = path.match(/^\/users\/([^/]+)$/);
      if (one && req.method === 'GET') {
        const u = users.get(decodeURIComponent(one[1] ?? ''));
        return u ? send(200, { ...u, username: u.email, emailVerified: true, firstName: u.name }) : send(404);
      }
      if (one && req.method === 'PUT') return send(204);
    }
    return send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    get url() {
      return base;
    },
    requests,
    /**
     * What Keycloak does between the gateway's redirect and the callback: the person signs in with Google
     * (first broker login creates the Keycloak user), and a code bound to the PKCE challenge comes back.
     */
    authorize(authUrl: URL, person: { email: string; name: string }): string {
      let user = [...users.values()].find((u) => u.email === person.email);
      if (!user) {
        user = { id: randomUUID(), email: person.email, name: person.name, createdTimestamp: Date.now() };
        users.set(user.id, user);
      }
      const code = randomBytes(24).toString('base64url');
      codes.set(code, {
        user,
        challenge: authUrl.searchParams.get('code_challenge') ?? '',
        redirectUri: authUrl.searchParams.get('redirect_uri') ?? '',
        clientId: authUrl.searchParams.get('client_id') ?? '',
      });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type FakeKeycloak = Awaited<ReturnType<typeof startFakeKeycloak>>;

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
async function signInWithGoogle(person = newPerson(), redirectTo = '/app') {
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
  platform = await startTestPlatform({
    env: {
      IDENTITY_PROVIDER: 'keycloak',
      KEYCLOAK_URL: fake.url,
      KEYCLOAK_CLIENT_SECRET: SERVICE_SECRET,
      GOOGLE_SIGN_IN: 'true',
    },
  });
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
      redirect_uri: `${platform.config.env.PUBLIC_URL}/api/auth/google/callback`,
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
  it('still answers 501 with the explanation', async () => {
    const embedded = await startTestPlatform();
    try {
      for (const path of ['/api/auth/google?redirectTo=/app', '/api/auth/google/callback?code=x&state=y']) {
        const res = await fetch(`${embedded.url}${path}`, { redirect: 'manual' });
        expect(res.status).toBe(501);
        expect(await res.json()).toEqual({
          error: {
            code: 'google_not_configured',
            message: 'Google sign-in is not set up on this server. Use email and password or a magic link.',
          },
        });
      }
    } finally {
      await embedded.close();
    }
  });
});
