// The size and type check S3 cannot do on a presigned PUT: run it when the client says its upload is done.
import type { ObjectInfo, ObjectStore } from '../port';
import { UploadRejectedError } from './errors';

/**
 * Resolves with the object when it honours the limits it was signed for; otherwise removes it and rejects
 * with UploadRejectedError. Works with any ObjectStore (the local one enforces both limits itself).
 */
export async function verifyPresignedUpload(
  store: ObjectStore,
  bucket: string,
  key: string,
  limits: { maxSize: number; contentType: string },
): Promise<ObjectInfo> {
  const info = await store.statObject(bucket, key);
  if (!info) throw new UploadRejectedError(bucket, key, 'nothing was uploaded');
  let reason: string | undefined;
  if (info.size > limits.maxSize)
    reason = `it is ${info.size} bytes, more than the ${limits.maxSize} allowed`;
  else if (mediaType(info.contentType) !== mediaType(limits.contentType)) {
    reason = `its type is ${info.contentType}, not ${limits.contentType}`;
  }
  if (reason) {
    await store.removeObject(bucket, key);
    throw new UploadRejectedError(bucket, key, reason);
  }
  return info;
}

function mediaType(value: string): string {
  return value.split(';')[0]!.trim().toLowerCase();
}
