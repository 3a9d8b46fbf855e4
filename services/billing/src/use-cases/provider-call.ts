// A call to the payments provider: an outage becomes UNAVAILABLE (the gateway's 503, "try again in a few
// minutes"); anything else is our bug and stays an internal error, logged with its stack.
import { GrpcError, GrpcStatus } from '@omni/platform';
import { BILLING_MESSAGES } from '@omni/proto/api';
import { PaymentsUnavailableError } from '../providers/payments/port';

export async function providerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PaymentsUnavailableError)
      throw new GrpcError(GrpcStatus.UNAVAILABLE, BILLING_MESSAGES.paymentsUnavailable);
    throw err;
  }
}
