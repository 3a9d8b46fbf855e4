// Which identity provider this process gets: Keycloak (production) or the embedded issuer, whose users
// and signing keys live in identity's own document store. Keycloak's client is loaded only when chosen.
import {
  adapterLine,
  type DocumentStore,
  type Logger,
  openAdapter,
  type PlatformConfig,
} from '@omni/platform';
import type { IdentityProvider } from './port';

export async function openIdentityProvider(
  config: PlatformConfig,
  store: DocumentStore,
  logger: Logger,
): Promise<IdentityProvider> {
  const env = config.env;
  return openAdapter(`identity provider (${env.IDENTITY_PROVIDER})`, async () => {
    if (env.IDENTITY_PROVIDER === 'keycloak') {
      const { createKeycloakIdentityProvider } = await import('./keycloak');
      return createKeycloakIdentityProvider({
        baseUrl: env.KEYCLOAK_URL!,
        realm: env.KEYCLOAK_REALM,
        issuer: env.KEYCLOAK_ISSUER,
        clientId: env.KEYCLOAK_CLIENT_ID,
        clientSecret: env.KEYCLOAK_CLIENT_SECRET!,
        logger,
      });
    }
    const { createEmbeddedIdentityProvider } = await import('./embedded');
    const realm = `/realms/${env.KEYCLOAK_REALM}`;
    return createEmbeddedIdentityProvider({
      store,
      issuer: `${config.publicUrl}${realm}`,
      jwksUrl: () => `${config.httpUrl('identity')}${realm}/protocol/openid-connect/certs`,
      logger,
    });
  });
}

export const describeIdentityProvider = (config: PlatformConfig) =>
  adapterLine(
    'identity',
    'embedded issuer (users in the identity store)',
    `keycloak ${config.env.KEYCLOAK_URL} realm ${config.env.KEYCLOAK_REALM}`,
    config.env.IDENTITY_PROVIDER === 'keycloak',
  );
