// HMAC-SHA256 signatures for the local store's upload and download links. A signature binds the method,
// bucket, key, expiry and (for uploads) the byte limit, content type and owner subject, so a link cannot be
// reused for another file, a longer time, a bigger body, another type or another sender.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { encodeKeyPath } from './keys';

export interface SignedFields {
  method: 'GET' | 'PUT';
  bucket: string;
  key: string;
  /** Unix seconds. */
  expires: number;
  /** Uploads only. */
  maxSize?: number;
  /** Uploads only. */
  contentType?: string;
  /** Uploads only: the subject whose credential the PUT must carry (see PresignPutOptions.owner). */
  owner?: string;
  /** Uploads only: the PUT may replace an existing object. */
  overwrite?: boolean;
}

export type SignatureCheck = 'ok' | 'invalid' | 'expired';

// Versioned and newline-separated so fields cannot be shifted into one another ("a"+"bc" vs "ab"+"c"):
// neither bucket nor key may contain a newline (keys.ts rejects control characters; presignPut refuses an
// owner with one).
function canonical(fields: SignedFields): string {
  const lines = [
    'omni-objects-v1',
    fields.method,
    fields.bucket,
    fields.key,
    String(fields.expires),
    fields.maxSize === undefined ? '' : String(fields.maxSize),
    fields.contentType ?? '',
  ];
  // Appended only when present, so download links signed before owners existed keep their signatures.
  if (fields.owner !== undefined) lines.push(fields.owner);
  // Likewise only when granted, so every link signed without it keeps its signature (and cannot gain it).
  if (fields.overwrite) lines.push('overwrite');
  return lines.join('\n');
}

export function sign(secret: string, fields: SignedFields): string {
  return createHmac('sha256', secret).update(canonical(fields)).digest('hex');
}

/**
 * Signature first, expiry second: a link whose expiry was edited is "not valid", not "expired", and the
 * comparison is constant-time so the signature cannot be guessed byte by byte.
 */
export function verify(
  secret: string,
  fields: SignedFields,
  signature: string,
  nowMs = Date.now(),
): SignatureCheck {
  const expected = Buffer.from(sign(secret, fields), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  if (fields.expires * 1000 < nowMs) return 'expired';
  return 'ok';
}

export function objectUrl(publicBaseUrl: string, bucket: string, key: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/objects/${bucket}/${encodeKeyPath(key)}`;
}

export function signedUrl(publicBaseUrl: string, secret: string, fields: SignedFields): string {
  const params = new URLSearchParams({ expires: String(fields.expires) });
  if (fields.maxSize !== undefined) params.set('maxSize', String(fields.maxSize));
  if (fields.contentType !== undefined) params.set('contentType', fields.contentType);
  if (fields.owner !== undefined) params.set('owner', fields.owner);
  if (fields.overwrite) params.set('overwrite', '1');
  params.set('sig', sign(secret, fields));
  return `${objectUrl(publicBaseUrl, fields.bucket, fields.key)}?${params.toString()}`;
}
