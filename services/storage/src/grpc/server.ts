import { GrpcError, GrpcStatus, type UnaryImpl } from '@omni/platform';
import { storage } from '@omni/proto';

const notYet = async (): Promise<never> => {
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, 'Uploads are not available yet.');
};

export function storageHandlers(): UnaryImpl<typeof storage.StorageServiceService> {
  return {
    async describe() {
      return { service: 'storage', version: '0.1.0' };
    },
    signUpload: notYet,
    completeUpload: notYet,
    getObjectInfo: notYet,
    listBuckets: notYet,
    listUploads: notYet,
  };
}
