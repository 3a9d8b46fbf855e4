// A small fake Keycloak for tests of the Keycloak identity adapter and 'Continue with Google': the realm's
// token endpoint (client credentials, authorization code with PKCE, refresh, logout), its JWKS, the few
// admin endpoints the adapter calls, and the authorization endpoint a browser is sent to. The trip through
// Keycloak and Google is played by `authorize` (tests calling the API) or, for a browser, by the
// authorization endpoint, which signs in `nextPerson` and redirects back with a code at once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

const REALM = 'omni';
/** The omni-services client's secret the fake accepts (KEYCLOAK_CLIENT_SECRET for the platform). */
export const FAKE_KEYCLOAK_SECRET = 'fake-omni-services-secret';
const SERVICE_SECRET = FAKE_KEYCLOAK_SECRET;

interface FakeUser {
  id: string;
  email: string;
  name: string;
  createdTimestamp: number;
  /** False plays a realm whose Google broker does not vouch for the address (trustEmail off). */
  emailVerified?: boolean;
}
interface PendingCode {
  user: FakeUser;
  challenge: string;
  redirectUri: string;
  clientId: string;
}

export async function startFakeKeycloak() {
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
      email_verified: user.emailVerified !== false,
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

  /**
   * What Keycloak does between the gateway's redirect and the callback: the person signs in with Google
   * (first broker login creates the Keycloak user), and a code bound to the PKCE challenge comes back.
   */
  function authorize(authUrl: URL, person: { email: string; name: string; emailVerified?: boolean }): string {
    let user = [...users.values()].find((u) => u.email === person.email);
    if (!user) {
      user = { id: randomUUID(), createdTimestamp: Date.now(), ...person };
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
  }
  let browserPerson: { email: string; name: string } | undefined;

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

    // A browser's stop at Keycloak and Google: sign in `nextPerson` (or cancel) and send it straight back.
    if (url.pathname === `${oidc}/auth` && req.method === 'GET') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      const state = url.searchParams.get('state') ?? '';
      const answer = browserPerson
        ? { code: authorize(url, browserPerson), state, session_state: randomUUID() }
        : { error: 'access_denied', state };
      for (const [name, value] of Object.entries(answer)) back.searchParams.set(name, value);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }

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
    authorize,
    /** Who the authorization endpoint signs in when a browser arrives; undefined: the person cancels. */
    set nextPerson(person: { email: string; name: string } | undefined) {
      browserPerson = person;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeKeycloak = Awaited<ReturnType<typeof startFakeKeycloak>>;

/** The platform's environment for Keycloak mode against this fake, with Google sign-in on. */
export function keycloakModeEnv(fake: FakeKeycloak): Record<string, string> {
  return {
    IDENTITY_PROVIDER: 'keycloak',
    KEYCLOAK_URL: fake.url,
    KEYCLOAK_CLIENT_SECRET: FAKE_KEYCLOAK_SECRET,
    GOOGLE_SIGN_IN: 'true',
  };
}
