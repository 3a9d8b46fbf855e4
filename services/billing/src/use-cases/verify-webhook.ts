// A webhook's bytes and signature → a payment event in billing's terms, or a refusal that changes nothing:
// a signature that does not verify or is too old is `bad_signature`; signed bytes that are not an event
// billing can read (not JSON, not an event, a field out of range or of the wrong kind) are a 400 that
// says which field, since the sender holds our secret and is owed a plain reason.
import { fail, invalidArgument } from '@omni/platform';
import { BILLING_MESSAGES } from '@omni/proto/api';
import type { PaymentEvent } from '../providers/payments/port';
import {
  type VerifyWebhook,
  WebhookEventError,
  WebhookSignatureError,
} from '../providers/payments/signature';

export function verifiedEvent(verify: VerifyWebhook, payload: Buffer, signature: string): PaymentEvent {
  try {
    return verify(payload, signature);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw fail('bad_signature', BILLING_MESSAGES.badSignature);
    if (err instanceof WebhookEventError) throw invalidArgument(err.message);
    throw err;
  }
}
