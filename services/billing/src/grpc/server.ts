import type { UnaryImpl } from '@omni/platform';
import { billing } from '@omni/proto';

export function billingHandlers(): UnaryImpl<typeof billing.BillingServiceService> {
  return {};
}
