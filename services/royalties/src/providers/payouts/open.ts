// Which payout rail this process gets: Stripe Connect (PAYOUTS=stripe; the default in production) or the
// embedded payout sandbox (the default elsewhere). Production refuses the sandbox twice: the platform's config
// (PAYOUTS must be stripe) and here, so no path builds it there. Both send their events to the same
// public webhook route, verified with the same scheme.
import { resolve } from 'node:path';
import {
  adapterLine,
  type DocumentStore,
  dataDirSecret,
  type Logger,
  type PlatformConfig,
} from '@omni/platform';
import type { Router } from 'express';
import type { PayoutsProvider } from './port';

export const payoutsRail = (config: PlatformConfig) =>
  config.env.PAYOUTS ?? (config.env.NODE_ENV === 'production' ? 'stripe' : 'embedded');

export const WEBHOOK_PATH = '/api/royalties/webhooks/stripe-connect';

export const describePayouts = (config: PlatformConfig) =>
  adapterLine(
    'payouts',
    'payout sandbox at /payouts-sandbox (signed test webhooks, no real money)',
    `stripe connect${config.env.STRIPE_API_URL ? ` at ${config.env.STRIPE_API_URL}` : ''}`,
    payoutsRail(config) === 'stripe',
  );

export class SandboxRefusedError extends Error {
  override name = 'SandboxRefusedError';
}

export interface OpenedPayouts {
  provider: PayoutsProvider;
  /** The sandbox's hosted pages (embedded mode only), mounted on royalties' HTTP. */
  router?: Router;
  livemode: boolean;
}

export async function openPayouts(
  config: PlatformConfig,
  o: { documents: () => Promise<DocumentStore>; logger: Logger; tickMs?: number },
): Promise<OpenedPayouts> {
  if (payoutsRail(config) === 'stripe') {
    const secretKey = config.env.STRIPE_SECRET_KEY;
    const webhookSecret = config.env.STRIPE_CONNECT_WEBHOOK_SECRET;
    if (!secretKey || !webhookSecret)
      throw new Error('PAYOUTS=stripe needs STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET');
    const { createStripeConnectPayouts } = await import('./stripe-connect');
    return {
      provider: createStripeConnectPayouts({ secretKey, webhookSecret, apiUrl: config.env.STRIPE_API_URL }),
      livemode: secretKey.startsWith('sk_live_'),
    };
  }
  if (config.env.NODE_ENV === 'production')
    throw new SandboxRefusedError(
      'The payout sandbox is refused in production: it pays nobody. Set PAYOUTS=stripe.',
    );
  const webhookSecret =
    config.env.STRIPE_CONNECT_WEBHOOK_SECRET ??
    `whsec_${await dataDirSecret(resolve(config.dataDir), 'stripe-connect-webhook-secret')}`;
  const { createPayoutSandbox } = await import('./sandbox');
  const sandbox = await createPayoutSandbox({
    documents: await o.documents(),
    webhookSecret,
    publicUrl: () => config.publicUrl,
    // Through the gateway, as Stripe's events arrive: the same route, signature check and code path.
    send: async (payload, signature) => {
      const res = await fetch(`${config.publicUrl}${WEBHOOK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) Omni payout sandbox',
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      return res.ok;
    },
    logger: o.logger,
    tickMs: o.tickMs ?? 60_000,
  });
  return { provider: sandbox, router: sandbox.router(), livemode: false };
}
