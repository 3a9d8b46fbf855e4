// The token verifier every service builds from its configuration: Keycloak's keys in a cluster, the
// embedded issuer's (served by identity) on one machine. One place, so the gateway and storage agree on
// the issuer and where its keys are.
import type { PlatformConfig } from '../config/config';
import { createTokenVerifier, issuerPath, jwksPath, type TokenVerifier } from './tokens';

/** The realm both the embedded issuer and Keycloak's realm import use. */
export const REALM = 'omni';

/**
 * Built on first use: with random ports (tests) identity's HTTP address is known only once it has bound,
 * which may be after the calling service's init.
 */
export function tokenVerifierFor(config: PlatformConfig, realm = REALM): TokenVerifier {
  let verifier: TokenVerifier | undefined;
  return {
    verify(token) {
      verifier ??= createTokenVerifier({
        issuer: issuerFor(config, realm),
        jwksUrl: jwksUrlFor(config, realm),
      });
      return verifier.verify(token);
    },
  };
}

/** The Keycloak URL services reach, when Keycloak is the identity provider. */
export const keycloakUrl = (config: PlatformConfig): string | undefined =>
  config.env.IDENTITY_PROVIDER === 'keycloak' ? config.env.KEYCLOAK_URL : undefined;

/**
 * In a cluster, browsers reach Keycloak at a public address (the token's issuer) while services fetch keys
 * at an in-cluster one; KEYCLOAK_ISSUER names the former when they differ.
 */
export const issuerFor = (config: PlatformConfig, realm = REALM): string =>
  config.env.KEYCLOAK_ISSUER ?? `${keycloakUrl(config) ?? config.publicUrl}${issuerPath(realm)}`;

/** Fetched from inside the cluster (or the process), not through the public URL. */
const jwksUrlFor = (config: PlatformConfig, realm: string): string =>
  `${keycloakUrl(config) ?? config.httpUrl('identity')}${jwksPath(realm)}`;
