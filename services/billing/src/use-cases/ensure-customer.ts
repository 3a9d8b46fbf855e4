// The account's one provider customer, made on its first checkout. Concurrent first checkouts share one
// provider call in this process, and across processes the provider's idempotency key
// (`customer:<accountId>`) returns the same customer, whose id the store then records once.
import type { CustomerDoc } from '../store/customers';
import type { BillingContext } from './context';
import { providerCall } from './provider-call';

const inFlight = new Map<string, Promise<CustomerDoc>>();

export async function ensureCustomer(ctx: BillingContext, accountId: string, email: string) {
  const held = await ctx.customers.byAccount(accountId);
  if (held) return held;
  const running = inFlight.get(accountId);
  if (running) return running;
  const making = (async () => {
    const made = await providerCall(() =>
      ctx.payments().createCustomer({ accountId, email }, `customer:${accountId}`),
    );
    return ctx.customers.remember(accountId, made.id, email);
  })().finally(() => inFlight.delete(accountId));
  inFlight.set(accountId, making);
  return making;
}
