// The provider's hosted page where a customer cancels, resumes or changes plan. An account that never
// checked out has no customer: it is told to choose a plan first.
import { fail } from '@omni/platform';
import { BILLING_MESSAGES, type BillingProduct } from '@omni/proto/api';
import type { BillingContext } from './context';
import { providerCall } from './provider-call';
import { returnPaths } from './start-checkout';

export async function openPortal(
  ctx: BillingContext,
  input: { accountId: string; product: BillingProduct; returnBase: string },
) {
  const customer = await ctx.customers.byAccount(input.accountId);
  if (!customer) throw fail('no_billing_account', BILLING_MESSAGES.noBillingAccount);
  return providerCall(() =>
    ctx.payments().createPortalSession({
      customerId: customer.customerId,
      returnUrl: `${input.returnBase}${returnPaths[input.product].portal}`,
    }),
  );
}
