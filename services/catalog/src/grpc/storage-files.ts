// What catalog needs to know about an uploaded file, behind a small interface: the storage service
// answers over gRPC (GetObjectInfo); tests of catalog rules can stand in for it.
import { GrpcStatus, isServiceError, type PromiseClient } from '@omni/platform';
import type { storage } from '@omni/proto';

export interface FileInfo {
  exists: boolean;
  ownerId: string;
  publicUrl: string;
  inspection: storage.Inspection | undefined;
}

export interface FileChecker {
  /** Storage judges the file for `role` (the stores' rules for a master or a cover). */
  info(ownerId: string, bucket: string, fileKey: string, role: 'audio' | 'artwork'): Promise<FileInfo>;
}

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
  };
}
