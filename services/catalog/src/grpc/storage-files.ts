// What catalog needs to know about an uploaded file (domain/file-rules.ts: FileChecker), answered by the
// storage service over gRPC (GetObjectInfo): this adapts storage's answers and statuses to it.
import { GrpcStatus, isServiceError, type PromiseClient } from '@omni/platform';
import type { storage } from '@omni/proto';
import type { FileChecker } from '../domain/file-rules';

export function storageFileChecker(client: PromiseClient<typeof storage.StorageServiceService>): FileChecker {
  return {
    async info(ownerId, bucket, fileKey, role) {
      try {
        const res = await client.getObjectInfo({ ownerId, bucket, fileKey, role });
        return {
          exists: res.exists,
          ownerId: res.ownerId,
          publicUrl: res.publicUrl,
          inspection: res.inspection,
        };
      } catch (err) {
        // Storage answers NOT_FOUND for a missing bucket or object: the same as "no such file" here.
        if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND)
          return { exists: false, ownerId: '', publicUrl: '', inspection: undefined };
        throw err;
      }
    },
    async discard(ownerId, bucket, fileKey) {
      await client.deleteObject({ ownerId, bucket, fileKey });
    },
  };
}
