// StorageService over gRPC: adapts each request to its use case (use-cases/) and each answer to the
// contract; the rules and the steps live there. Messages are written for the person at the other end of
// the gateway.
import type { DocumentStore, Logger, UnaryImpl } from '@omni/platform';
import { storage } from '@omni/proto';
import type { UploadPurposeName } from '../domain/buckets';
import type { Inspection } from '../domain/inspect';
import type { ObjectStore } from '../providers/objects/port';
import { uploadsCollection } from '../store/uploads';
import { completeUpload } from '../use-cases/complete-upload';
import type { StorageContext } from '../use-cases/context';
import { deleteObject, discardUpload } from '../use-cases/delete-object';
import { listBuckets, listUploads } from '../use-cases/list-uploads';
import { objectInfo } from '../use-cases/object-info';
import { signDownload } from '../use-cases/sign-download';
import { signUpload } from '../use-cases/sign-upload';

const PURPOSES: Partial<Record<storage.UploadPurpose, UploadPurposeName>> = {
  [storage.UploadPurpose.UPLOAD_PURPOSE_CONSOLE]: 'console',
  [storage.UploadPurpose.UPLOAD_PURPOSE_ARTIST_UPLOAD]: 'artist-upload',
  [storage.UploadPurpose.UPLOAD_PURPOSE_SONG_SUBMISSION]: 'song-submission',
  [storage.UploadPurpose.UPLOAD_PURPOSE_CONTRIBUTOR]: 'contributor',
  [storage.UploadPurpose.UPLOAD_PURPOSE_CMS_ADMIN]: 'cms-admin',
};

/** The contract's Inspection: the measured fields (not why a file was unreadable) plus the verdict. */
const toProto = (inspection: Inspection, problems: string[], warnings: string[]): storage.Inspection => {
  const { unreadable: _unreadable, ...fields } = inspection;
  return { ...fields, problems, warnings };
};

export function storageHandlers(
  store: DocumentStore,
  objects: ObjectStore,
  log: Logger,
  settings: { uploadUrlSeconds: number },
): UnaryImpl<typeof storage.StorageServiceService> {
  const ctx: StorageContext = {
    uploads: uploadsCollection(store),
    objects,
    log,
    now: () => new Date(),
    uploadUrlSeconds: settings.uploadUrlSeconds,
  };

  return {
    signUpload: (req) => signUpload(ctx, { ...req, purpose: PURPOSES[req.purpose] }),

    async completeUpload(req) {
      const done = await completeUpload(ctx, req);
      return {
        accepted: true,
        inspection: toProto(done.inspection, [], done.warnings),
        publicUrl: done.publicUrl,
      };
    },

    async getObjectInfo(req) {
      const facts = await objectInfo(ctx, req);
      return {
        exists: facts.exists,
        inspection: toProto(facts.inspection, facts.problems, facts.warnings),
        publicUrl: facts.publicUrl,
        ownerId: facts.ownerId,
      };
    },

    listBuckets: async () => ({ buckets: await listBuckets(ctx) }),

    listUploads: async (req) => ({ files: await listUploads(ctx, req) }),

    signDownload: async (req) => ({ url: await signDownload(ctx, req) }),

    deleteObject: async (req) => ({ deleted: await deleteObject(ctx, req) }),

    discardUpload: async (req) => ({ deleted: await discardUpload(ctx, req) }),
  };
}
