// The Stripe client billing talks through: the API version pinned to the package's own (its types describe
// that version and no other), a short timeout so a stalled Stripe answers the user in seconds rather than
// the SDK's 80, and one network retry, which is safe because every create carries an idempotency key.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import Stripe from 'stripe';

/** A request that has not answered in this time is given up (and retried once); the SDK's default is 80 s. */
export const STRIPE_TIMEOUT_MS = 10_000;
export const STRIPE_NETWORK_RETRIES = 1;

export interface StripeClientOptions {
  secretKey: string;
  /** A Stripe-shaped server to talk to instead of api.stripe.com (tests: a local server). */
  apiUrl?: string;
  timeoutMs?: number;
}

export interface StripeClient {
  stripe: Stripe;
  /** Closes the kept-alive sockets (the SDK's shared default agent would hold them for the process's life). */
  close(): void;
}

export function createStripeClient({
  secretKey,
  apiUrl,
  timeoutMs = STRIPE_TIMEOUT_MS,
}: StripeClientOptions): StripeClient {
  const address = apiUrl ? hostOf(apiUrl) : undefined;
  const agent =
    address?.protocol === 'http' ? new HttpAgent({ keepAlive: true }) : new HttpsAgent({ keepAlive: true });
  const stripe = new Stripe(secretKey, {
    apiVersion: Stripe.API_VERSION,
    timeout: timeoutMs,
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    // Latency metrics sent back to Stripe: nothing billing needs, and nothing a test server should parse.
    telemetry: false,
    appInfo: { name: 'omni-billing' },
    httpAgent: agent,
    ...address,
  });
  return { stripe, close: () => agent.destroy() };
}

/** stripe-node takes the API's address in parts, not as a URL. */
function hostOf(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`STRIPE_API_URL must be an http(s) URL, got ${url.protocol}`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}
