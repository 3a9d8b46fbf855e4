// identity: accounts, sessions, roles. This first cut is the embedded issuer's key and JWKS, which every
// service's token verifier reads; accounts, sign-in and Keycloak come with the identity issue.
import { issuerPath, type ServiceModule } from '@omni/platform';
import { identity } from '@omni/proto';
import { identityHandlers } from './grpc/server';
import { mountOidcRoutes } from './http/oidc';
import { activeSigningKey } from './keys/signing-keys';

export const REALM = 'omni';

export const identityService: ServiceModule = {
  name: 'identity',
  description: 'accounts, sessions, roles (embedded issuer)',
  async init(ctx) {
    const store = await ctx.ports.documents('identity');
    await activeSigningKey(store);
    mountOidcRoutes(ctx.http, store, REALM, `${ctx.config.env.PUBLIC_URL}${issuerPath(REALM)}`);
    ctx.grpc.add(identity.IdentityServiceService, identityHandlers());
    ctx.readiness('documents', () => store.healthy());
  },
};
