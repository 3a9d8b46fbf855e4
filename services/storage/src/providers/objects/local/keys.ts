// Bucket and key validation, and the mapping from (bucket, key) to paths on disk. Every path the store
// touches comes from here, so a key can never name a file outside its bucket's folder.
import path from 'node:path';
import { InvalidBucketNameError, InvalidObjectKeyError } from './errors';

// S3's rules, so a bucket that works here also works on MinIO. No '_' is allowed, which is why the store's
// own folders (_meta, _tmp) can sit beside the buckets without ever colliding with one.
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** S3 caps keys at 1024 bytes of UTF-8. */
const MAX_KEY_BYTES = 1024;
/** Most filesystems cap a name at 255 bytes; the metadata sidecar appends '.json'. */
const MAX_SEGMENT_BYTES = 250;

export function assertBucketName(bucket: string): void {
  if (typeof bucket !== 'string' || !BUCKET_RE.test(bucket) || bucket.includes('..')) {
    throw new InvalidBucketNameError(String(bucket));
  }
}

export function assertObjectKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0)
    throw new InvalidObjectKeyError(String(key), 'the key is empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) {
    throw new InvalidObjectKeyError(key, `the key is longer than ${MAX_KEY_BYTES} bytes`);
  }
  if (key.includes('\0')) throw new InvalidObjectKeyError(key, 'the key contains a NUL character');
  // Control characters are legal in S3 keys but only ever arrive here as an attack or an accident.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key))
    throw new InvalidObjectKeyError(key, 'the key contains a control character');
  if (key.includes('\\')) throw new InvalidObjectKeyError(key, 'the key contains a backslash');
  if (key.startsWith('/')) throw new InvalidObjectKeyError(key, 'the key must not start with "/"');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidObjectKeyError(key, 'the key has an empty path segment');
    if (segment === '.' || segment === '..') {
      throw new InvalidObjectKeyError(key, `the key has a "${segment}" path segment`);
    }
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      throw new InvalidObjectKeyError(key, `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
  }
}

/** Where the store keeps everything: data, sidecars and temp files share one filesystem, so link/rename are atomic. */
export interface StoreLayout {
  root: string;
  bucketDir(bucket: string): string;
  dataPath(bucket: string, key: string): string;
  metaPath(bucket: string, key: string): string;
  metaBucketDir(bucket: string): string;
  tmpDir: string;
}

export function storeLayout(dataDir: string): StoreLayout {
  const root = path.resolve(dataDir, 'objects');
  const metaRoot = path.join(root, '_meta');
  const layout: StoreLayout = {
    root,
    tmpDir: path.join(root, '_tmp'),
    bucketDir: (bucket) => {
      assertBucketName(bucket);
      return path.join(root, bucket);
    },
    metaBucketDir: (bucket) => {
      assertBucketName(bucket);
      return path.join(metaRoot, bucket);
    },
    dataPath: (bucket, key) => inside(layout.bucketDir(bucket), key, ''),
    metaPath: (bucket, key) => inside(layout.metaBucketDir(bucket), key, '.json'),
  };
  return layout;
}

function inside(base: string, key: string, suffix: string): string {
  assertObjectKey(key);
  const full = path.join(base, ...key.split('/')) + suffix;
  // Belt and braces: validation already rules out escapes, but the check is cheap and the cost of a miss is not.
  if (!full.startsWith(base + path.sep))
    throw new InvalidObjectKeyError(key, 'the key resolves outside its bucket');
  return full;
}

/** Encodes a key for a URL path: each segment percent-encoded, '/' kept as the separator. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
