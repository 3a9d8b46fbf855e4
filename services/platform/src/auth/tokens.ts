// Access tokens are JWTs signed by the identity provider (Keycloak, or the embedded issuer with the same
// URL layout and claims). Every service verifies them the same way: signature against the issuer's JWKS,
// issuer, expiry; roles from Keycloak's `realm_access.roles`.
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';

export type Role = 'artist' | 'admin';

export interface Principal {
  userId: string;
  email?: string;
  name?: string;
  roles: Role[];
}

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** Keycloak's layout, which the embedded issuer copies: {base}/realms/{realm}/protocol/openid-connect/certs */
export const jwksPath = (realm: string) => `/realms/${realm}/protocol/openid-connect/certs`;
export const issuerPath = (realm: string) => `/realms/${realm}`;

interface KeycloakClaims extends JWTPayload {
  email?: string;
  name?: string;
  preferred_username?: string;
  realm_access?: { roles?: string[] };
}

/** Said for an expired access token here, and by identity for a refresh that no longer works. */
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export function createTokenVerifier(options: { jwksUrl: string; issuer: string }): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: 30_000,
    cacheMaxAge: 600_000,
  });
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify<KeycloakClaims>(token, jwks, {
          issuer: options.issuer,
          algorithms: ['RS256'],
          clockTolerance: 5,
        });
        if (!payload.sub) throw new InvalidTokenError('token has no subject');
        const roles = (payload.realm_access?.roles ?? []).filter(
          (r): r is Role => r === 'artist' || r === 'admin',
        );
        return { userId: payload.sub, email: payload.email, name: payload.name, roles };
      } catch (err) {
        if (err instanceof InvalidTokenError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError(SESSION_EXPIRED);
        if (err instanceof joseErrors.JOSEError)
          throw new InvalidTokenError('Your session is not valid. Please sign in again.');
        throw err;
      }
    },
  };
}
