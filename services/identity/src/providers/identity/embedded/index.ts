// The embedded OIDC issuer: identity's own users (scrypt hashes) in its document store, RS256 access
// tokens shaped like Keycloak's (realm_access.roles, email, email_verified, name), JWKS at Keycloak's path
// (served by the identity service), opaque rotating refresh tokens. One machine gets a real issuer and
// every service verifies its tokens with the same code as in production.

import { randomUUID } from 'node:crypto';
import {
  type DocumentStore,
  DuplicateKeyError,
  type Logger,
  normalizeEmail,
  type Role,
} from '@omni/platform';
import { SignJWT } from 'jose';
import { IdentityError, type IdentityProvider, type IdentityUser, type TokenSet } from '../port';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { SessionStore } from './sessions';
import { activeSigningKey, privateKeyOf } from './signing-keys';
import { insertUser, toIdentityUser, type UserDoc, usersCollection, withImpliedRoles } from './users';

export { activeSigningKey, privateKeyOf, publicJwks, SIGNING_KEYS, type SigningKeyDoc } from './signing-keys';

export interface EmbeddedIdentityOptions {
  store: DocumentStore;
  /** `${PUBLIC_URL}/realms/omni`: what browsers and the token verifier see as the issuer. */
  issuer: string;
  /** A function when the identity service's port is known only after it binds (random ports in tests). */
  jwksUrl: string | (() => string);
  logger?: Logger;
  /** Access token lifetime (default 300 s, as the realm's accessTokenLifespan). */
  accessTokenSeconds?: number;
  /** Refresh token idle lifetime (default 7 days) and absolute session lifetime (default 30 days). */
  refreshTokenSeconds?: number;
  sessionSeconds?: number;
}

const expired = () => new IdentityError('session_expired');
const invalid = () => new IdentityError('invalid_credentials');

export function createEmbeddedIdentityProvider(options: EmbeddedIdentityOptions): IdentityProvider {
  const { store, issuer } = options;
  const accessSeconds = options.accessTokenSeconds ?? 300;
  const users = usersCollection(store);
  const sessions = new SessionStore(store, {
    refreshSeconds: options.refreshTokenSeconds ?? 7 * 24 * 3600,
    sessionSeconds: options.sessionSeconds ?? 30 * 24 * 3600,
  });

  const userOrThrow = async (id: string) => {
    const doc = await users.findById(id);
    if (!doc) throw new IdentityError('user_not_found');
    return doc;
  };

  const accessToken = async (user: UserDoc, sessionId: string) => {
    const key = await activeSigningKey(store);
    return new SignJWT({
      typ: 'Bearer',
      azp: 'omni-web',
      sid: sessionId,
      scope: 'openid email profile',
      email: user.email,
      email_verified: user.emailVerified,
      preferred_username: user.email,
      ...(user.name ? { name: user.name } : {}),
      realm_access: { roles: user.roles },
    })
      .setProtectedHeader({ alg: 'RS256', kid: key._id, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(user._id)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${accessSeconds}s`)
      .sign(await privateKeyOf(key));
  };

  const tokensFor = async (user: UserDoc, sessionId: string, refreshToken: string): Promise<TokenSet> => ({
    accessToken: await accessToken(user, sessionId),
    refreshToken,
    expiresIn: accessSeconds,
    refreshExpiresIn: await sessions.refreshLifetime(sessionId),
  });

  const newSession = async (user: UserDoc) => {
    const { sessionId, refreshToken } = await sessions.start(user._id);
    return { user: toIdentityUser(user), tokens: await tokensFor(user, sessionId, refreshToken) };
  };

  return {
    kind: 'embedded',
    issuer,
    get jwksUrl() {
      return typeof options.jwksUrl === 'function' ? options.jwksUrl() : options.jwksUrl;
    },

    async createUser(input) {
      const doc = await insertUser(store, {
        email: normalizeEmail(input.email),
        passwordHash: await hashPassword(input.password),
        emailVerified: input.emailVerified ?? false,
        roles: input.roles ?? ['artist'],
      });
      return toIdentityUser(doc);
    },
    async getUser(id) {
      const doc = await users.findById(id);
      return doc ? toIdentityUser(doc) : null;
    },
    async findUserByEmail(email) {
      const doc = await users.findOne({ email: normalizeEmail(email) });
      return doc ? toIdentityUser(doc) : null;
    },
    async markEmailVerified(id) {
      await userOrThrow(id);
      const doc = await users.findOneAndUpdate({ _id: id }, { $set: { emailVerified: true } });
      return toIdentityUser(doc!);
    },
    async setPassword(id, password) {
      await userOrThrow(id);
      await users.updateOne(
        { _id: id },
        { $set: { passwordHash: await hashPassword(password), passwordChangedAt: new Date().toISOString() } },
      );
      await sessions.revokeAllOf(id);
    },
    async setName(id, name) {
      await userOrThrow(id);
      await users.updateOne({ _id: id }, { $set: { name } });
    },
    async setEmail(id, email) {
      await userOrThrow(id);
      try {
        const doc = await users.findOneAndUpdate(
          { _id: id },
          { $set: { email: normalizeEmail(email), emailVerified: true } },
        );
        return toIdentityUser(doc!);
      } catch (err) {
        // The unique email index: another account took the address between the request and the click.
        if (err instanceof DuplicateKeyError) throw new IdentityError('email_taken');
        throw err;
      }
    },
    async deleteUser(id) {
      await userOrThrow(id);
      await sessions.revokeAllOf(id);
      await users.deleteOne({ _id: id });
    },
    async grantRole(id, role: Role) {
      const doc = await userOrThrow(id);
      const roles = withImpliedRoles([...doc.roles, role]);
      const updated = await users.findOneAndUpdate({ _id: id }, { $set: { roles } });
      return toIdentityUser(updated!);
    },

    async signInWithPassword(email, password) {
      const doc = await users.findOne({ email: normalizeEmail(email) });
      if (!doc) {
        await burnPasswordCheck(password);
        throw invalid();
      }
      if (!(await verifyPassword(password, doc.passwordHash))) throw invalid();
      // Only after the password is proven: telling a stranger an address is unconfirmed would reveal it exists.
      if (!doc.emailVerified) throw new IdentityError('email_not_confirmed');
      return newSession(doc);
    },
    async issueSession(userId) {
      return newSession(await userOrThrow(userId));
    },
    async exchangeAuthorizationCode() {
      // The embedded issuer has no login page of its own and brokers no Google: it never issued a code.
      throw new IdentityError(
        'not_supported',
        'Google sign-in needs Keycloak (IDENTITY_PROVIDER=keycloak); the embedded issuer does not broker it.',
      );
    },
    async refresh(refreshToken) {
      const outcome = await sessions.rotate(refreshToken);
      if (!outcome.ok || !outcome.refreshToken) {
        if (outcome.ok === false && outcome.reason === 'reused')
          options.logger?.warn('a rotated refresh token was presented again; its session is revoked');
        throw expired();
      }
      const doc = await users.findById(outcome.userId);
      if (!doc) throw expired();
      return {
        user: toIdentityUser(doc),
        tokens: await tokensFor(doc, outcome.sessionId, outcome.refreshToken),
      };
    },
    async signOut(refreshToken) {
      await sessions.revokeByToken(refreshToken);
    },

    async ready() {
      await store.ready();
      await activeSigningKey(store);
    },
    healthy: () => store.healthy(),
    // The document store belongs to the identity service's ports; it closes it.
    async close() {},
  };
}

export type { IdentityUser };
