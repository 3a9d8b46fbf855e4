// MinIO / S3 ObjectStore through the minio client. See minio-store.ts for the no-overwrite guarantee and
// verify-upload.ts for the limits S3 cannot enforce on a presigned PUT.
import type { ObjectStore } from '../port';
import { MinioObjectStore, type MinioObjectStoreOptions } from './minio-store';

export { BodySizeMismatchError, UploadRejectedError } from './errors';
export type { MinioObjectStoreOptions } from './minio-store';
export { verifyPresignedUpload } from './verify-upload';

export function createMinioObjectStore(options: MinioObjectStoreOptions): ObjectStore {
  return new MinioObjectStore(options);
}
