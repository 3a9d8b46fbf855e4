import type { UnaryImpl } from '@omni/platform';
import { delivery } from '@omni/proto';

export function deliveryHandlers(): UnaryImpl<typeof delivery.DeliveryServiceService> {
  return {
    async describe() {
      return { service: 'delivery', version: '0.1.0' };
    },
  };
}
