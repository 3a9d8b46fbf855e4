// The Stripe adapter against Stripe's real TEST mode, to catch where the local Stripe-shaped server and
// Stripe itself disagree. Runs only when STRIPE_SECRET_KEY (sk_test_… or rk_test_…) and STRIPE_TEST_PRICE_ID
// (a recurring price in that test account) are set; otherwise every case says SKIPPED and why. It never
// runs against a live key. The portal case needs the test-mode customer portal saved once in the
// Dashboard (Settings → Billing → Customer portal). Customers it creates are deleted afterwards.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { PaymentsProvider } from '../src/providers/payments/port';
import { PaymentsUnavailableError } from '../src/providers/payments/port';
import { createStripePayments } from '../src/providers/payments/stripe';
import { capturedLogger } from './support/captured-logger';

const secretKey = process.env.STRIPE_SECRET_KEY ?? '';
const priceId = process.env.STRIPE_TEST_PRICE_ID ?? '';

function whySkipped(): string | undefined {
  if (!secretKey) return 'STRIPE_SECRET_KEY is not set (a test-mode key, sk_test_…)';
  if (/^(sk|rk)_live_/.test(secretKey))
    return 'STRIPE_SECRET_KEY is a LIVE key: refused, this suite runs only in test mode';
  if (!/^(sk|rk)_test_/.test(secretKey)) return 'STRIPE_SECRET_KEY is not a test-mode key (sk_test_…)';
  if (!priceId) return 'STRIPE_TEST_PRICE_ID is not set (a recurring price id in that test account)';
  return undefined;
}
const skipped = whySkipped();

/** A case that runs only against Stripe's test mode, and says so when it cannot. */
function live(name: string, run: () => Promise<void>) {
  if (skipped) {
    console.log(`[contract] stripe live: SKIPPED "${name}": ${skipped}`);
    it.skip(name, run);
  } else it(name, run, 30_000);
}

describe(`Stripe adapter against Stripe test mode${skipped ? ' (SKIPPED)' : ''}`, () => {
  const run = randomUUID();
  const created: string[] = [];
  let payments: PaymentsProvider;
  let stripe: Stripe;

  beforeAll(() => {
    if (skipped) return;
    payments = createStripePayments({ secretKey, logger: capturedLogger().logger });
    stripe = new Stripe(secretKey);
  });

  afterAll(async () => {
    if (skipped) return;
    await Promise.all(created.map((id) => stripe.customers.del(id)));
    await payments.close();
  });

  async function customer(): Promise<string> {
    const { id } = await payments.createCustomer(
      { accountId: `acc_${run}`, email: 'contract@example.com' },
      `cus:${run}:${created.length}`,
    );
    created.push(id);
    return id;
  }

  live('creates a customer linked to the Omni account', async () => {
    const id = await customer();
    const stored = (await stripe.customers.retrieve(id)) as Stripe.Customer;
    expect(stored.metadata).toEqual({ account_id: `acc_${run}` });
    expect(stored.email).toBe('contract@example.com');
  });

  live('creates one hosted checkout session per idempotency key', async () => {
    const customerId = await customer();
    const input = {
      customerId,
      priceId,
      accountId: `acc_${run}`,
      product: 'pro' as const,
      successUrl: 'http://localhost:8080/app?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://localhost:8080/pricing',
    };
    const first = await payments.createCheckoutSession(input, `checkout:${run}`);
    const again = await payments.createCheckoutSession(input, `checkout:${run}`);

    expect(first.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(again.id).toBe(first.id);
    const session = await stripe.checkout.sessions.retrieve(first.id);
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: `acc_${run}`,
    });
  });

  live('an unknown price is a plain error with Stripe’s message, not an outage', async () => {
    const customerId = await customer();
    const err = await payments
      .createCheckoutSession(
        {
          customerId,
          priceId: `price_omni_missing_${run.slice(0, 8)}`,
          accountId: `acc_${run}`,
          product: 'pro',
          successUrl: 'http://localhost:8080/app',
          cancelUrl: 'http://localhost:8080/pricing',
        },
        `bad-price:${run}`,
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PaymentsUnavailableError);
    expect((err as Error).message).toContain('No such price');
  });

  live('opens the customer portal', async () => {
    const { url } = await payments.createPortalSession({
      customerId: await customer(),
      returnUrl: 'http://localhost:8080/app',
    });
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\//);
  });

  live('a missing subscription is a plain error', async () => {
    await expect(payments.retrieveSubscription(`sub_missing_${run.slice(0, 8)}`)).rejects.toThrow(
      /No such subscription/,
    );
  });
});
