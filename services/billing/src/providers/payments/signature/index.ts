// Stripe's webhook signature scheme, which both adapters' events carry (the sandbox signs exactly as
// Stripe does): HMAC-SHA256 of `${t}.${body}` with the endpoint secret, any v1 of the header, the
// timestamp within the tolerance. Checked with Stripe's own verifier over the RAW bytes.
import Stripe from 'stripe';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  constructor(cause: unknown) {
    super('webhook signature refused', { cause });
    this.name = 'WebhookSignatureError';
  }
}

/** The event the bytes hold, or WebhookSignatureError when the signature does not verify. */
export type VerifyWebhook = (payload: Buffer, signature: string) => Stripe.Event;

export function stripeSignatureVerifier(secret: string): VerifyWebhook {
  return (payload, signature) => {
    try {
      return Stripe.webhooks.constructEvent(payload, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (err) {
      throw new WebhookSignatureError(err);
    }
  };
}
