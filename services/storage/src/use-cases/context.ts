// What every storage use case works with: the uploads repository, the object store, the log and the clock,
// built once by the gRPC layer (grpc/server.ts) from the module's ports.
import type { Collection, Logger } from '@omni/platform';
import type { ObjectStore } from '../providers/objects/port';
import type { UploadDoc } from '../store/uploads';

export interface StorageContext {
  uploads: Collection<UploadDoc>;
  objects: ObjectStore;
  log: Logger;
  now: () => Date;
  /** Seconds a signed upload URL stays valid (the UPLOAD_LINK_SECONDS setting). */
  uploadUrlSeconds: number;
}
