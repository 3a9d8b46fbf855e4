// The embedded checkout sandbox's hosted page, as a person fills it in a browser suite.
import type { Page } from 'playwright-core';

/** Stripe's test cards the sandbox knows (its page lists them all). */
export const SANDBOX_CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/** Pays on the sandbox's checkout page with `card`. */
export async function payInSandbox(checkout: Page, card: string = SANDBOX_CARDS.succeeds): Promise<void> {
  await checkout.waitForURL(/\/billing-sandbox\/checkout\//);
  await checkout.getByLabel('Card number').fill(card);
  await checkout.getByLabel(/Expiry/).fill('12 / 34');
  await checkout.getByLabel('CVC').fill('123');
  await checkout.getByLabel('Name on card').fill('Test Artist');
  await checkout.getByRole('button', { name: /^Pay / }).click();
}
