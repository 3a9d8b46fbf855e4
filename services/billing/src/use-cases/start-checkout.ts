// A hosted checkout page for one plan. Refuses a price that is not one of the product's plans and an
// account already entitled to the product. A double click, or two open tabs, get ONE session: the
// provider's idempotency key is made of the account, the price and an attempt number that moves on only
// once the previous session completed or expired. Nothing here writes subscription state: only webhooks do.
import { fail } from '@omni/platform';
import { BILLING_MESSAGES, type BillingProduct, PRODUCT_NAMES } from '@omni/proto/api';
import { isEntitled } from '../domain/subscription';
import type { BillingContext } from './context';
import { ensureCustomer } from './ensure-customer';
import { providerCall } from './provider-call';

/** Stripe keeps an idempotency key at least 24 h and a session lives 24 h: an older open attempt is over. */
const ATTEMPT_TTL_MS = 23 * 3600 * 1000;

export interface StartCheckoutInput {
  accountId: string;
  email: string;
  product: BillingProduct;
  priceId: string;
  returnBase: string;
}

export const returnPaths: Record<BillingProduct, { success: string; cancel: string; portal: string }> = {
  pro: { success: '/app?checkout=success', cancel: '/pricing', portal: '/app' },
  finder: {
    success: '/missing-money-finder?checkout=success',
    cancel: '/missing-money-finder',
    portal: '/missing-money-finder',
  },
};

export async function startCheckout(ctx: BillingContext, input: StartCheckoutInput) {
  const { accountId, product, priceId, returnBase } = input;
  if (ctx.plans.productOf(priceId) !== product) throw fail('unknown_price', BILLING_MESSAGES.unknownPrice);
  const current = await ctx.subscriptions.current(accountId, product);
  if (isEntitled(current?.status))
    throw fail('already_subscribed', BILLING_MESSAGES.alreadySubscribed(PRODUCT_NAMES[product]));
  const customer = await ensureCustomer(ctx, accountId, input.email);

  const held = await ctx.attempts.get(accountId, priceId);
  const attempt =
    held && held.state === 'open' && Date.now() - Date.parse(held.startedAt) <= ATTEMPT_TTL_MS
      ? held
      : await ctx.attempts.advance(held, { accountId, priceId, product });
  const number = attempt.attempt;
  const paths = returnPaths[product];
  const session = await providerCall(() =>
    ctx.payments().createCheckoutSession(
      {
        customerId: customer.customerId,
        priceId,
        accountId,
        product,
        successUrl: `${returnBase}${paths.success}`,
        cancelUrl: `${returnBase}${paths.cancel}`,
      },
      `checkout:${accountId}:${priceId}:${number}`,
    ),
  );
  await ctx.attempts.opened(accountId, priceId, number, session.id);
  return session;
}
