// The webhook's signature, checked over the RAW bytes with the endpoint's secret (Stripe's own verifier:
// HMAC-SHA256 of `${t}.${body}`, any v1 of the header, timestamp within 300 s). A failure changes nothing.
import { fail, invalidArgument } from '@omni/platform';
import { BILLING_MESSAGES } from '@omni/proto/api';
import Stripe from 'stripe';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function verifyWebhook(payload: Buffer, signature: string, secret: string): Stripe.Event {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(payload, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch {
    throw fail('bad_signature', BILLING_MESSAGES.badSignature);
  }
  // Signed by whoever holds our secret, so this is a bug on the sender's side, still told plainly.
  const shaped =
    typeof event === 'object' &&
    event !== null &&
    typeof event.id === 'string' &&
    typeof event.type === 'string' &&
    typeof event.created === 'number' &&
    typeof event.data?.object === 'object' &&
    event.data.object !== null;
  if (!shaped) throw invalidArgument(BILLING_MESSAGES.badEvent);
  return event;
}
