// The embedded issuer's public endpoints at Keycloak's paths, so the token verifier is the same code
// whichever provider runs. The gateway forwards /realms/* here.
import { type DocumentStore, jwksPath } from '@omni/platform';
import type { Express } from 'express';
import { publicJwks } from '../providers/identity/embedded/signing-keys';

export function mountOidcRoutes(http: Express, store: DocumentStore, realm: string, issuer: string): void {
  http.get(jwksPath(realm), async (_req, res, next) => {
    try {
      res.set('Cache-Control', 'public, max-age=300').json(await publicJwks(store));
    } catch (err) {
      next(err);
    }
  });
  http.get(`/realms/${realm}/.well-known/openid-configuration`, (_req, res) => {
    res.json({
      issuer,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });
}
