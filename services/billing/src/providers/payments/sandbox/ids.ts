// Ids in Stripe's form (cus_…, cs_test_…, sub_…, si_…, in_…, evt_…, bps_…), so code and logs that look at
// a prefix treat the sandbox's objects as Stripe's.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function newId(prefix: 'cus' | 'cs_test' | 'sub' | 'si' | 'in' | 'evt' | 'bps'): string {
  const bytes = randomBytes(24);
  let body = '';
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${body}`;
}
