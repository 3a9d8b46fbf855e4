// The Checkout Session billing asks Stripe for: one subscription to one price, for a customer that already
// exists (left empty, Checkout makes a new Stripe customer on every visit). No payment_method_types: Stripe
// picks the methods from the Dashboard's settings, and the parameter is gone from the current API.
import type Stripe from 'stripe';
import type { CheckoutInput } from '../port';

export function checkoutSessionParams(input: CheckoutInput): Stripe.Checkout.SessionCreateParams {
  const metadata = { account_id: input.accountId, product: input.product };
  return {
    mode: 'subscription',
    line_items: [{ price: input.priceId, quantity: 1 }],
    customer: input.customerId,
    client_reference_id: input.accountId,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    // On the subscription itself, so every later customer.subscription.* event names its Omni account.
    subscription_data: { metadata },
    metadata,
  };
}
