// Stripe Connect for payouts (PAYOUTS=stripe). Recipient accounts: v1 accounts with only the `transfers`
// capability under the recipient service agreement, the dashboard Stripe's Express one and requirements
// collected by Stripe's hosted onboarding (account links). Money moves per payout as one transfer from the
// platform balance to the account (Omni's payout id in metadata, an idempotency key); the account's daily
// automatic schedule then pays it out to the bank once it is available (a recipient's transfer takes about
// 24 h), and the payout.* events (event.account set) tell where it is: royalties links them to the payee's
// one payout in flight. A failed payout's money is brought back by reversing the transfer. Stripe's types
// stay in this folder.

import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import Stripe from 'stripe';
import { type AccountFacts, type PayoutsProvider, PayoutsUnavailableError } from '../port';
import { verifyConnectEvent } from './events';

export interface StripeConnectOptions {
  secretKey: string;
  webhookSecret: string;
  /** A Stripe-shaped server instead of api.stripe.com (tests). */
  apiUrl?: string;
}

const accountFacts = (a: Stripe.Account): AccountFacts => ({
  accountId: a.id,
  payoutsEnabled: a.payouts_enabled ?? false,
  currentlyDue: [...new Set([...(a.requirements?.past_due ?? []), ...(a.requirements?.currently_due ?? [])])],
  pendingVerification: a.requirements?.pending_verification ?? [],
  disabledReason: a.requirements?.disabled_reason ?? '',
});

/** Stripe's side failed or could not be reached: tried again later. A 4xx is our bug and stays an Error. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeAPIError ||
      err instanceof Stripe.errors.StripeRateLimitError
    )
      throw new PayoutsUnavailableError(`Stripe: ${what} failed: ${(err as Error).message}`, { cause: err });
    throw err;
  }
}

export function createStripeConnectPayouts(o: StripeConnectOptions): PayoutsProvider {
  const url = o.apiUrl ? new URL(o.apiUrl) : undefined;
  const http = url?.protocol === 'http:';
  const agent = http ? new HttpAgent({ keepAlive: true }) : new HttpsAgent({ keepAlive: true });
  const stripe = new Stripe(o.secretKey, {
    apiVersion: Stripe.API_VERSION,
    timeout: 10_000,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: 'omni-royalties' },
    httpAgent: agent,
    ...(url
      ? { host: url.hostname, port: Number(url.port || (http ? 80 : 443)), protocol: http ? 'http' : 'https' }
      : {}),
  });
  return {
    kind: 'stripe-connect',
    async createAccount({ payeeId, email }, idempotencyKey) {
      const account = await call('creating the payout account', () =>
        stripe.accounts.create(
          {
            email,
            country: 'US',
            controller: {
              stripe_dashboard: { type: 'express' },
              requirement_collection: 'stripe',
              fees: { payer: 'application' },
              losses: { payments: 'application' },
            },
            capabilities: { transfers: { requested: true } },
            tos_acceptance: { service_agreement: 'recipient' },
            settings: { payouts: { schedule: { interval: 'daily', delay_days: 'minimum' } } },
            metadata: { omni_payee_id: payeeId },
          },
          { idempotencyKey },
        ),
      );
      return accountFacts(account);
    },
    async onboardingLink({ accountId, returnUrl, refreshUrl }) {
      const link = await call('the onboarding link', () =>
        stripe.accountLinks.create({
          account: accountId,
          type: 'account_onboarding',
          return_url: returnUrl,
          refresh_url: refreshUrl,
        }),
      );
      return { url: link.url };
    },
    async pay({ accountId, amountCents, payoutId, payeeId }, key) {
      const amount = Number(amountCents);
      const metadata = { omni_payout_id: payoutId, omni_payee_id: payeeId };
      const transfer = await call('the transfer', () =>
        stripe.transfers.create(
          { amount, currency: 'usd', destination: accountId, transfer_group: payoutId, metadata },
          { idempotencyKey: `${key}:transfer` },
        ),
      );
      return { transferId: transfer.id };
    },
    async reverse({ transferId, amountCents }, key) {
      await call('reversing the transfer', () =>
        stripe.transfers.createReversal(
          transferId,
          { amount: Number(amountCents) },
          { idempotencyKey: `${key}:reversal` },
        ),
      );
    },
    verify: verifyConnectEvent(o.webhookSecret),
    async close() {
      agent.destroy();
    },
  };
}
