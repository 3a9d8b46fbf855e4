// Maps the minio client's S3 errors onto the port's errors, so callers never see S3 error codes.
import { BucketNotFoundError, ObjectExistsError, ObjectNotFoundError } from '../port';

export function s3Code(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isNotFound(err: unknown): boolean {
  const code = s3Code(err);
  return code === 'NotFound' || code === 'NoSuchKey' || code === 'NoSuchBucket';
}

export function mapS3Error(err: unknown, bucket: string, key?: string): unknown {
  switch (s3Code(err)) {
    case 'NoSuchBucket':
      return new BucketNotFoundError(bucket);
    case 'NoSuchKey':
    case 'NotFound':
      return key === undefined ? new BucketNotFoundError(bucket) : new ObjectNotFoundError(bucket, key);
    // If-None-Match: * lost: another writer created the key first.
    case 'PreconditionFailed':
      return key === undefined ? err : new ObjectExistsError(bucket, key);
    default:
      return err;
  }
}

/** The body ended with a different length than PutOptions.size declared; nothing was stored. */
export class BodySizeMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`object body was ${received} bytes, but ${expected} were declared`);
    this.name = 'BodySizeMismatchError';
  }
}

/** A presigned upload broke the limits it was signed for (S3 cannot enforce them on a presigned PUT). */
export class UploadRejectedError extends Error {
  constructor(
    readonly bucket: string,
    readonly key: string,
    reason: string,
  ) {
    super(`upload ${bucket}/${key} was removed: ${reason}`);
    this.name = 'UploadRejectedError';
  }
}
