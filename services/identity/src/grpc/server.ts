import type { UnaryImpl } from '@omni/platform';
import { identity } from '@omni/proto';

export function identityHandlers(): UnaryImpl<typeof identity.IdentityServiceService> {
  return {
    async describe() {
      return { service: 'identity', version: '0.1.0' };
    },
  };
}
