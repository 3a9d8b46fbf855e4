// A SigV4 presigned PUT that signs the Content-Type and Content-Length beside the host, so S3 itself refuses
// an upload of another type or another size (403 SignatureDoesNotMatch) before any byte is stored.
// minio-js cannot: its presigner leaves both headers out of the signature on purpose (browsers used to
// rewrite Content-Type), which let any file of any size through a link signed for one small image.
import { createHash, createHmac } from 'node:crypto';

export interface PresignPutRequest {
  /** The origin the URL is for (scheme, host, port): its host is signed. */
  origin: string;
  bucket: string;
  key: string;
  accessKey: string;
  secretKey: string;
  region: string;
  expiresInSeconds: number;
  contentType: string;
  contentLength: number;
  now?: Date;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

export function presignPutUrl(req: PresignPutRequest): string {
  const origin = new URL(req.origin);
  const now = req.now ?? new Date();
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = stamp.slice(0, 8);
  const scope = `${day}/${req.region}/s3/aws4_request`;
  const path = `/${[req.bucket, ...req.key.split('/')].map(encodeRfc3986).join('/')}`;
  const headers: [string, string][] = [
    ['content-length', String(req.contentLength)],
    ['content-type', req.contentType.trim()],
    ['host', origin.host],
  ];
  const signedHeaders = headers.map(([name]) => name).join(';');
  const query: [string, string][] = [
    ['X-Amz-Algorithm', ALGORITHM],
    ['X-Amz-Credential', `${req.accessKey}/${scope}`],
    ['X-Amz-Date', stamp],
    ['X-Amz-Expires', String(req.expiresInSeconds)],
    ['X-Amz-SignedHeaders', signedHeaders],
  ];
  const canonicalQuery = query
    .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    'PUT',
    path,
    canonicalQuery,
    `${headers.map(([name, value]) => `${name}:${value}`).join('\n')}\n`,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [ALGORITHM, stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${req.secretKey}`, day);
  for (const part of [req.region, 's3', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return `${origin.protocol}//${origin.host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

/** S3's URI encoding: everything but unreserved characters, including the !'()* encodeURIComponent keeps. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}
