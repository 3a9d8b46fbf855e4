import type { UnaryImpl } from '@omni/platform';
import { catalog } from '@omni/proto';

export function catalogHandlers(): UnaryImpl<typeof catalog.CatalogServiceService> {
  return {
    async describe() {
      return { service: 'catalog', version: '0.1.0' };
    },
  };
}
