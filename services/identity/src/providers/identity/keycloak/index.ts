// Keycloak as the identity provider (production). Users, roles, e-mail verification state and passwords
// through the admin REST API, with the `omni-services` client's service account; sign-in, refresh and
// sign-out through the realm's OIDC token and logout endpoints with the same confidential client.
//
// Passwordless sessions (a verified email link or a magic link, both issued and checked by the identity
// service) use Keycloak's token exchange with impersonation (`requested_subject`), which needs the
// `token-exchange` and `admin-fine-grained-authz` features and an impersonation permission for the client;
// deploy/keycloak/README.md has the exact setup. Realm, clients and roles: deploy/keycloak/omni-realm.json.

import type { Logger, Role } from '@omni/platform';
import { normalizeEmail } from '@omni/platform';
import { decodeJwt } from 'jose';
import { IdentityError, type IdentityProvider, type IdentityUser, type TokenSet } from '../port';
import { callJson, KeycloakHttpError, keycloakFetch, postForm } from './http';

export interface KeycloakIdentityOptions {
  /** Where services reach Keycloak (in-cluster URL), e.g. http://keycloak:8080. */
  baseUrl: string;
  realm: string;
  /** The token's `iss` when browsers see Keycloak at another address; default `${baseUrl}/realms/${realm}`. */
  issuer?: string;
  clientId: string;
  clientSecret: string;
  /**
   * The public browser client (`omni-web`) that the Google broker's authorization codes are issued to.
   * Its sessions are refreshed and ended with that client, since Keycloak binds a refresh token to the
   * client it was issued to.
   */
  webClientId?: string;
  logger?: Logger;
  timeoutMs?: number;
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  refresh_expires_in?: number;
}

interface UserRepresentation {
  id: string;
  email?: string;
  username: string;
  emailVerified?: boolean;
  firstName?: string;
  createdTimestamp?: number;
}

interface RoleRepresentation {
  id: string;
  name: string;
}

interface AccessClaims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  realm_access?: { roles?: string[] };
}

const omniRoles = (names: string[]): Role[] =>
  names.filter((r): r is Role => r === 'artist' || r === 'admin');

const expired = () => new IdentityError('session_expired');
const invalid = () => new IdentityError('invalid_credentials');

export function createKeycloakIdentityProvider(options: KeycloakIdentityOptions): IdentityProvider {
  const base = options.baseUrl.replace(/\/$/, '');
  const realmUrl = `${base}/realms/${encodeURIComponent(options.realm)}`;
  const oidc = `${realmUrl}/protocol/openid-connect`;
  const admin = `${base}/admin/realms/${encodeURIComponent(options.realm)}`;
  const timeout = options.timeoutMs ?? 5000;
  const client = { client_id: options.clientId, client_secret: options.clientSecret };
  const webClientId = options.webClientId ?? 'omni-web';
  /**
   * Keycloak refuses a refresh or logout by another client than the token's (`azp`): sessions from the
   * Google broker belong to the public web client (no secret), every other session to omni-services.
   * Keycloak's refresh tokens are JWTs; reading `azp` needs no verification, Keycloak checks them.
   */
  const clientFor = (refreshToken: string): Record<string, string> => {
    try {
      if (decodeJwt(refreshToken).azp === webClientId) return { client_id: webClientId };
    } catch {
      // Not a JWT: let Keycloak refuse it with the usual client.
    }
    return client;
  };

  // The service account's token, reused until shortly before it expires.
  let serviceToken: { value: string; until: number } | undefined;
  const adminToken = async () => {
    if (serviceToken && serviceToken.until > Date.now()) return serviceToken.value;
    const t = await postForm<TokenResponse>(
      `${oidc}/token`,
      { grant_type: 'client_credentials', ...client },
      'client credentials',
      timeout,
    );
    serviceToken = { value: t.access_token, until: Date.now() + (t.expires_in - 30) * 1000 };
    return t.access_token;
  };
  const adminCall = async <T>(path: string, init: { method?: string; body?: unknown } = {}, where = path) =>
    callJson<T>(`${admin}${path}`, { ...init, bearer: await adminToken() }, `admin ${where}`, timeout);

  const rolesOf = async (id: string) => {
    const { body } = await adminCall<RoleRepresentation[]>(
      `/users/${encodeURIComponent(id)}/role-mappings/realm/composite`,
      {},
      'role mappings',
    );
    return omniRoles((body ?? []).map((r) => r.name));
  };

  const toUser = async (rep: UserRepresentation): Promise<IdentityUser> => ({
    id: rep.id,
    email: normalizeEmail(rep.email ?? rep.username),
    emailVerified: rep.emailVerified ?? false,
    roles: await rolesOf(rep.id),
    name: rep.firstName || undefined,
    createdAt: rep.createdTimestamp ? new Date(rep.createdTimestamp).toISOString() : '',
  });

  const getUser = async (id: string) => {
    const { body } = await adminCall<UserRepresentation>(`/users/${encodeURIComponent(id)}`, {}, 'get user');
    return body ? toUser(body) : null;
  };
  const userOrThrow = async (id: string) => {
    const user = await getUser(id);
    if (!user) throw new IdentityError('user_not_found');
    return user;
  };

  const tokenSet = (t: TokenResponse): TokenSet => ({
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? '',
    expiresIn: t.expires_in,
    refreshExpiresIn: t.refresh_expires_in ?? 0,
  });

  /** The user as the fresh access token describes them (Keycloak just signed it; no need to re-verify). */
  const userFromToken = (t: TokenResponse): IdentityUser => {
    const claims = decodeJwt(t.access_token) as AccessClaims;
    return {
      id: claims.sub ?? '',
      email: normalizeEmail(claims.email ?? ''),
      emailVerified: claims.email_verified ?? false,
      roles: omniRoles(claims.realm_access?.roles ?? []),
      name: claims.name,
      createdAt: '',
    };
  };

  const logoutRefresh = (refreshToken: string) =>
    postForm(
      `${oidc}/logout`,
      { ...clientFor(refreshToken), refresh_token: refreshToken },
      'logout',
      timeout,
    ).catch((err: unknown) => {
      // An already-ended session is what the caller wanted; anything else is worth a warning.
      if (!(err instanceof KeycloakHttpError && err.status === 400)) throw err;
    });

  const provider: IdentityProvider = {
    kind: 'keycloak',
    issuer: options.issuer ?? realmUrl,
    jwksUrl: `${oidc}/certs`,

    async createUser(input) {
      const email = normalizeEmail(input.email);
      let location: string | null;
      try {
        ({ location } = await adminCall(
          '/users',
          {
            method: 'POST',
            body: {
              username: email,
              email,
              enabled: true,
              emailVerified: input.emailVerified ?? false,
              credentials: [{ type: 'password', value: input.password, temporary: false }],
            },
          },
          'create user',
        ));
      } catch (err) {
        if (err instanceof KeycloakHttpError && err.status === 409) throw new IdentityError('email_taken');
        // The realm's password policy refuses with 400 and says why (e.g. 'invalidPasswordMinLengthMessage').
        if (err instanceof KeycloakHttpError && err.status === 400) throw new IdentityError('weak_password');
        throw err;
      }
      const id = location?.split('/').pop() ?? (await provider.findUserByEmail(email))?.id;
      if (!id) throw new Error('Keycloak created a user but did not say which');
      // New users get `default-roles-omni` (→ artist) from the realm; admin is added explicitly.
      if (input.roles?.includes('admin')) return provider.grantRole(id, 'admin');
      return userOrThrow(id);
    },
    getUser,
    async findUserByEmail(email) {
      const q = new URLSearchParams({ email: normalizeEmail(email), exact: 'true' });
      const { body } = await adminCall<UserRepresentation[]>(`/users?${q}`, {}, 'find user');
      const match = (body ?? []).find((u) => normalizeEmail(u.email ?? '') === normalizeEmail(email));
      return match ? toUser(match) : null;
    },
    async markEmailVerified(id) {
      await userOrThrow(id);
      await adminCall(
        `/users/${encodeURIComponent(id)}`,
        {
          method: 'PUT',
          body: { emailVerified: true, requiredActions: [] },
        },
        'verify email',
      );
      return userOrThrow(id);
    },
    async setPassword(id, password) {
      await userOrThrow(id);
      try {
        await adminCall(
          `/users/${encodeURIComponent(id)}/reset-password`,
          {
            method: 'PUT',
            body: { type: 'password', value: password, temporary: false },
          },
          'reset password',
        );
      } catch (err) {
        if (err instanceof KeycloakHttpError && err.status === 400) throw new IdentityError('weak_password');
        throw err;
      }
      await adminCall(`/users/${encodeURIComponent(id)}/logout`, { method: 'POST' }, 'logout user');
    },
    async setName(id, name) {
      await userOrThrow(id);
      await adminCall(
        `/users/${encodeURIComponent(id)}`,
        { method: 'PUT', body: { firstName: name } },
        'set name',
      );
    },
    async setEmail(id, email) {
      await userOrThrow(id);
      try {
        await adminCall(
          `/users/${encodeURIComponent(id)}`,
          // The realm signs in by email (registrationEmailAsUsername): the username follows the address.
          { method: 'PUT', body: { email: normalizeEmail(email), emailVerified: true } },
          'set email',
        );
      } catch (err) {
        if (err instanceof KeycloakHttpError && err.status === 409) throw new IdentityError('email_taken');
        throw err;
      }
      return userOrThrow(id);
    },
    async deleteUser(id) {
      await userOrThrow(id);
      // Deleting a Keycloak user ends its sessions with it.
      await adminCall(`/users/${encodeURIComponent(id)}`, { method: 'DELETE' }, 'delete user');
    },
    async grantRole(id, role) {
      await userOrThrow(id);
      const { body: rep } = await adminCall<RoleRepresentation>(`/roles/${role}`, {}, 'get role');
      if (!rep)
        throw new Error(`Keycloak realm ${options.realm} has no role '${role}' (see omni-realm.json)`);
      await adminCall(
        `/users/${encodeURIComponent(id)}/role-mappings/realm`,
        {
          method: 'POST',
          body: [{ id: rep.id, name: rep.name }],
        },
        'grant role',
      );
      return userOrThrow(id);
    },

    async signInWithPassword(email, password) {
      let t: TokenResponse;
      try {
        t = await postForm<TokenResponse>(
          `${oidc}/token`,
          { grant_type: 'password', ...client, username: normalizeEmail(email), password, scope: 'openid' },
          'password grant',
          timeout,
        );
      } catch (err) {
        if (err instanceof KeycloakHttpError && (err.status === 400 || err.status === 401)) {
          // 'Account is not fully set up': the password was right (Keycloak checks it before required
          // actions) and a required action is pending. VERIFY_EMAIL means an unconfirmed address; any other
          // (VERIFY_PROFILE when the realm's user profile requires what Omni never asks for) is the realm's
          // fault, not the person's, and must not read as a wrong password.
          if (err.description?.includes('not fully set up')) {
            const user = await provider.findUserByEmail(email);
            if (user && !user.emailVerified) throw new IdentityError('email_not_confirmed');
            throw new Error(
              `Keycloak refused the password grant for a verified account with a pending required action: check realm ${options.realm}'s user profile and required actions (deploy/keycloak/omni-realm.json)`,
            );
          }
          throw invalid();
        }
        throw err;
      }
      const user = userFromToken(t);
      if (!user.emailVerified) {
        // The realm lets unverified users have tokens (Omni verifies emails itself); this one must not.
        if (t.refresh_token) await logoutRefresh(t.refresh_token);
        throw new IdentityError('email_not_confirmed');
      }
      return { user, tokens: tokenSet(t) };
    },
    async issueSession(userId) {
      let t: TokenResponse;
      try {
        t = await postForm<TokenResponse>(
          `${oidc}/token`,
          {
            grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
            ...client,
            requested_subject: userId,
            requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token',
            scope: 'openid',
          },
          'token exchange',
          timeout,
        );
      } catch (err) {
        if (err instanceof KeycloakHttpError && (err.status === 400 || err.status === 403))
          options.logger?.error(
            { status: err.status, error: err.oauthError },
            'Keycloak refused token exchange: enable token-exchange and grant omni-services impersonation (deploy/keycloak/README.md)',
          );
        throw err;
      }
      return { user: userFromToken(t), tokens: tokenSet(t) };
    },
    async exchangeAuthorizationCode(grant) {
      let t: TokenResponse;
      try {
        // The code was issued to the public web client with a PKCE challenge: the verifier, not a
        // secret, proves the caller started that login.
        t = await postForm<TokenResponse>(
          `${oidc}/token`,
          {
            grant_type: 'authorization_code',
            client_id: webClientId,
            code: grant.code,
            code_verifier: grant.codeVerifier,
            redirect_uri: grant.redirectUri,
          },
          'authorization code',
          timeout,
        );
      } catch (err) {
        // invalid_grant: expired or used code, wrong verifier or redirect_uri.
        if (err instanceof KeycloakHttpError && (err.status === 400 || err.status === 401)) {
          options.logger?.warn(
            { status: err.status, error: err.oauthError },
            'Keycloak refused an authorization code',
          );
          throw new IdentityError('external_sign_in_failed');
        }
        throw err;
      }
      const user = userFromToken(t);
      if (!user.id) throw new Error('Keycloak issued an access token without a subject');
      if (!user.emailVerified) {
        // The google provider has trustEmail on; an unverified address here means the realm was changed.
        if (t.refresh_token) await logoutRefresh(t.refresh_token);
        throw new IdentityError('email_not_confirmed');
      }
      return { user, tokens: tokenSet(t) };
    },
    async refresh(refreshToken) {
      try {
        const t = await postForm<TokenResponse>(
          `${oidc}/token`,
          { grant_type: 'refresh_token', ...clientFor(refreshToken), refresh_token: refreshToken },
          'refresh',
          timeout,
        );
        return { user: userFromToken(t), tokens: tokenSet(t) };
      } catch (err) {
        // invalid_grant: expired, revoked, reused beyond refreshTokenMaxReuse, or session gone.
        if (err instanceof KeycloakHttpError && (err.status === 400 || err.status === 401)) throw expired();
        throw err;
      }
    },
    async signOut(refreshToken) {
      await logoutRefresh(refreshToken);
    },

    async ready() {
      const res = await keycloakFetch(
        `${realmUrl}/.well-known/openid-configuration`,
        {},
        'the discovery document',
        timeout,
      );
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`Keycloak has no realm ${options.realm} (${res.status})`);
      await adminToken();
    },
    async healthy() {
      try {
        const res = await fetch(`${realmUrl}/.well-known/openid-configuration`, {
          signal: AbortSignal.timeout(2000),
        });
        return res.ok;
      } catch {
        return false;
      }
    },
    async close() {},
  };
  return provider;
}
