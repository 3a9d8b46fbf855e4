// A webhook's bytes and signature → a Stripe event, or a refusal that changes nothing: a signature that
// does not verify or is too old is `bad_signature`; a signed body that is not an event says so.
import { fail, invalidArgument } from '@omni/platform';
import { BILLING_MESSAGES } from '@omni/proto/api';
import type Stripe from 'stripe';
import { type VerifyWebhook, WebhookSignatureError } from '../providers/payments/signature';

export function verifiedEvent(verify: VerifyWebhook, payload: Buffer, signature: string): Stripe.Event {
  let event: Stripe.Event;
  try {
    event = verify(payload, signature);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw fail('bad_signature', BILLING_MESSAGES.badSignature);
    // A body that verifies but is not JSON: the sender holds our secret, so say plainly what is wrong.
    throw invalidArgument(BILLING_MESSAGES.badEvent);
  }
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
