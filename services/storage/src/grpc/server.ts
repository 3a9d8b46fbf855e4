import type { UnaryImpl } from '@omni/platform';
import { storage } from '@omni/proto';

export function storageHandlers(): UnaryImpl<typeof storage.StorageServiceService> {
  return {
    async describe() {
      return { service: 'storage', version: '0.1.0' };
    },
  };
}
