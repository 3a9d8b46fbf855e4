// BillingService over gRPC. The contract (proto/omni/billing/v1) lands first; the use cases behind each
// call land with issue #12's billing core, which replaces these refusals.
import { GrpcError, GrpcStatus, type UnaryImpl } from '@omni/platform';
import type { billing } from '@omni/proto';

const notYet = async (): Promise<never> => {
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, 'Billing is not available yet.');
};

export function billingHandlers(): UnaryImpl<typeof billing.BillingServiceService> {
  return { startCheckout: notYet, openPortal: notYet, getSubscription: notYet, handleWebhook: notYet };
}
