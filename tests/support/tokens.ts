// Access tokens for tests, signed with the embedded issuer's own key exactly as it will sign them at
// sign-in (identity issue): Keycloak-style claims, RS256, the realm's issuer. The gateway verifies them
// through the JWKS endpoint like any other token.
import { randomUUID } from 'node:crypto';
import type { DocumentStore } from '@omni/platform';
import {
  activeSigningKey,
  privateKeyOf,
  type SigningKeyDoc,
} from '@omni/service-identity/src/providers/identity/embedded/signing-keys';
import { SignJWT } from 'jose';

export interface TokenOptions {
  roles?: ('artist' | 'admin')[];
  userId?: string;
  email?: string;
  expiresIn?: string;
  issuer?: string;
}

/** The issuer of the platform a test file started last (startTestPlatform sets it); each test file has its own. */
let defaultIssuer = 'http://localhost:8080/realms/omni';
export function setDefaultIssuer(issuer: string): void {
  defaultIssuer = issuer;
}

/** Signs with the issuer's active key, read from identity's store or given directly (a process test's). */
export async function signTestToken(
  source: DocumentStore | SigningKeyDoc,
  options: TokenOptions = {},
): Promise<string> {
  const key = 'privateJwk' in source ? source : await activeSigningKey(source);
  const roles = options.roles ?? ['artist'];
  return new SignJWT({
    email: options.email ?? 'artist@example.com',
    realm_access: { roles },
  })
    .setProtectedHeader({ alg: 'RS256', kid: key._id })
    .setSubject(options.userId ?? randomUUID())
    .setIssuer(options.issuer ?? defaultIssuer)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(await privateKeyOf(key));
}
