// Which payments provider this process gets: Stripe (PAYMENTS=stripe) or the embedded checkout sandbox
// (npm start, tests). Each adapter is loaded only when chosen. Both send their events to the same public
// webhook endpoint, verified with the same secret, so billing's state changes by one path only.
import { resolve } from 'node:path';
import {
  adapterLine,
  type DocumentStore,
  dataDirSecret,
  type Logger,
  type PlatformConfig,
} from '@omni/platform';
import type { Router } from 'express';
import type { PaymentsProvider } from './port';

/** The endpoint secret billing verifies with: configured, or on one machine a random one kept under data/. */
export async function webhookSecretFor(config: PlatformConfig): Promise<string> {
  return (
    config.env.STRIPE_WEBHOOK_SECRET ??
    `whsec_${await dataDirSecret(resolve(config.dataDir), 'stripe-webhook-secret')}`
  );
}

export const describePayments = (config: PlatformConfig) =>
  adapterLine(
    'payments',
    'checkout sandbox at /billing-sandbox (signed test webhooks, no real payments)',
    `stripe${config.env.STRIPE_API_URL ? ` at ${config.env.STRIPE_API_URL}` : ''}`,
    config.env.PAYMENTS === 'stripe',
  );

/** The opened provider; `router` is the sandbox's hosted pages (embedded mode only), mounted on billing's HTTP. */
export interface OpenedPayments {
  payments: PaymentsProvider;
  router?: Router;
}

export async function openPayments(
  config: PlatformConfig,
  options: {
    /** Opens the sandbox's own store (only in embedded mode). */
    documents: () => Promise<DocumentStore>;
    webhookSecret: string;
    prices: Record<string, { product: 'pro' | 'finder'; interval: 'month' | 'year'; amount: number }>;
    logger: Logger;
  },
): Promise<OpenedPayments> {
  if (config.env.PAYMENTS === 'stripe') {
    const { createStripePayments } = await import('./stripe');
    return {
      payments: createStripePayments({
        secretKey: config.env.STRIPE_SECRET_KEY!,
        apiUrl: config.env.STRIPE_API_URL,
        logger: options.logger,
      }),
    };
  }
  const { createSandboxPayments } = await import('./sandbox');
  const sandbox = await createSandboxPayments({
    documents: await options.documents(),
    publicUrl: () => config.publicUrl,
    // Through the gateway, as Stripe's events arrive: the same endpoint, signature check and code path.
    webhookUrl: () => `${config.publicUrl}/api/billing/webhooks/stripe`,
    webhookSecret: options.webhookSecret,
    prices: options.prices,
    logger: options.logger,
  });
  return { payments: sandbox, router: sandbox.router() };
}
