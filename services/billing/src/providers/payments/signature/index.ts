// Stripe's webhook signature scheme, which both adapters' events carry (the sandbox signs exactly as
// Stripe does): HMAC-SHA256 of `${t}.${body}` with the endpoint secret, any v1 of the header, the
// timestamp within the tolerance. Checked with Stripe's own verifier over the RAW bytes; the event it
// holds is then checked field by field and handed to billing in billing's terms (stripe/events.ts).
import Stripe from 'stripe';
import type { PaymentEvent } from '../port';
import { paymentEventOf, WebhookEventError } from '../stripe/events';

export { WebhookEventError } from '../stripe/events';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  constructor(cause: unknown) {
    super('webhook signature refused', { cause });
    this.name = 'WebhookSignatureError';
  }
}

/**
 * The event the bytes hold: WebhookSignatureError when the signature does not verify, WebhookEventError
 * (with a sentence naming the field) when the signed bytes are not an event billing can read.
 */
export type VerifyWebhook = (payload: Buffer, signature: string) => PaymentEvent;

export function stripeSignatureVerifier(secret: string): VerifyWebhook {
  return (payload, signature) => {
    let event: unknown;
    try {
      event = Stripe.webhooks.constructEvent(payload, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (err) {
      // It verifies the signature, then parses: a SyntaxError is a signed body that is not JSON.
      if (!(err instanceof SyntaxError)) throw new WebhookSignatureError(err);
      throw new WebhookEventError('The webhook body is not a Stripe event: it is not JSON.');
    }
    return paymentEventOf(event);
  };
}
