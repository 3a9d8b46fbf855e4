// StorageService over gRPC: signing uploads, completing them (sniff, inspect, apply the rules, remove what
// is refused), object info for catalog, bucket status and a person's uploads. Messages are written for
// the person at the other end of the gateway.

import type { DocumentStore } from '@omni/platform';
import {
  DuplicateKeyError,
  GrpcError,
  GrpcStatus,
  invalidArgument,
  type Logger,
  notFoundError,
  type ObjectInfo,
  type ObjectStore,
  signInRequired,
  type UnaryImpl,
} from '@omni/platform';
import { storage } from '@omni/proto';
import {
  BUCKETS,
  type BucketName,
  claimedKind,
  describeSize,
  isBucketName,
  policyOf,
  sizeLimit,
  type UploadPurposeName,
} from '../domain/buckets';
import { emptyInspection, type Inspection, inspectObject } from '../domain/inspect';
import { buildKey, sanitiseSegment } from '../domain/keys';
import { userSubject } from '../domain/owner';
import { effectiveRole, isRequestedRole, judge, type RequestedRole, roleFitsBucket } from '../domain/rules';
import { type UploadDoc, uploadId, uploadsCollection } from '../domain/uploads';

export interface StorageOptions {
  /** Lifetime of a signed upload URL (default 15 minutes); tests shorten it to see expiry refused. */
  uploadUrlSeconds?: () => number;
  now?: () => Date;
}

const DEFAULT_UPLOAD_URL_SECONDS = 15 * 60;
const MAX_KEY_ATTEMPTS = 20;

const PURPOSES: Partial<Record<storage.UploadPurpose, UploadPurposeName>> = {
  [storage.UploadPurpose.UPLOAD_PURPOSE_CONSOLE]: 'console',
  [storage.UploadPurpose.UPLOAD_PURPOSE_ARTIST_UPLOAD]: 'artist-upload',
  [storage.UploadPurpose.UPLOAD_PURPOSE_SONG_SUBMISSION]: 'song-submission',
  [storage.UploadPurpose.UPLOAD_PURPOSE_CONTRIBUTOR]: 'contributor',
};

export function storageHandlers(
  store: DocumentStore,
  objects: ObjectStore,
  log: Logger,
  options: StorageOptions = {},
): UnaryImpl<typeof storage.StorageServiceService> {
  const uploads = uploadsCollection(store);
  const now = options.now ?? (() => new Date());
  const ttl = options.uploadUrlSeconds ?? (() => DEFAULT_UPLOAD_URL_SECONDS);

  /** The caller's record of this key; someone else's (or no) record is "not found", never "forbidden". */
  async function ownUpload(ownerId: string, bucket: string, key: string): Promise<UploadDoc> {
    if (!ownerId) throw signInRequired();
    const doc = key ? await uploads.findById(uploadId(bucket, key)) : null;
    if (!doc || doc.ownerId !== ownerId) throw notFoundError('No such file.');
    return doc;
  }

  /**
   * What the bytes are. Inspected once per object version: the record keeps the inspection with the ETag
   * it was made from, so a later call (catalog's, at release time) reuses it, and an object replaced since
   * (possible with S3's presigned PUT) is inspected again rather than trusted.
   */
  async function inspectionOf(
    doc: UploadDoc,
    info: ObjectInfo,
  ): Promise<{ inspection: Inspection; fresh: boolean }> {
    if (doc.inspection && doc.inspectedEtag === info.etag)
      return { inspection: doc.inspection, fresh: false };
    if (info.size > doc.maxSize)
      return { inspection: { ...emptyInspection(info.size), unreadable: 'too large' }, fresh: true };
    const inspection = await inspectObject(
      objects,
      { bucket: doc.bucket, key: doc.key, size: info.size, fileName: doc.fileName },
      log,
    );
    return { inspection, fresh: true };
  }

  /** The rules for the role asked for (or what the bucket and bytes imply): problems refuse, warnings inform. */
  function verdictOn(doc: UploadDoc, info: ObjectInfo, inspection: Inspection, requested: RequestedRole) {
    const role = effectiveRole(doc.bucket, requested, inspection);
    if (info.size > doc.maxSize) {
      const tooLarge = `This file is ${describeSize(info.size)}; the upload was signed for at most ${describeSize(doc.maxSize)}.`;
      return { role, problems: [tooLarge], warnings: [] };
    }
    return { role, ...judge(doc.bucket, role, inspection) };
  }

  function requestedRole(bucket: BucketName, role: string): RequestedRole {
    if (!isRequestedRole(role)) throw invalidArgument('role must be audio or artwork.');
    if (!roleFitsBucket(bucket, role))
      throw invalidArgument(`The "${bucket}" bucket does not hold ${role} files.`);
    return role;
  }

  const toProto = (inspection: Inspection, problems: string[], warnings: string[]): storage.Inspection => {
    const { unreadable: _unreadable, ...fields } = inspection;
    return { ...fields, problems, warnings };
  };

  return {
    async describe() {
      return { service: 'storage', version: '0.2.0' };
    },

    async signUpload(req) {
      if (!req.ownerId) throw signInRequired();
      const purpose = PURPOSES[req.purpose];
      if (!purpose) throw invalidArgument('Say what the upload is for (purpose).');
      if (!isBucketName(req.bucket)) throw notFoundError(`Bucket "${req.bucket}" missing...`);
      const bucket = req.bucket;
      if (!(await objects.bucketExists(bucket))) throw notFoundError(`Bucket "${bucket}" missing...`);
      const policy = policyOf(bucket);
      if (!policy.purposes.includes(purpose)) {
        throw invalidArgument(`Files for ${purpose.replace('-', ' ')} cannot go to the "${bucket}" bucket.`);
      }
      if (!req.fileName.trim()) throw invalidArgument('The file needs a name.');
      const contentType = (req.contentType || 'application/octet-stream').trim().toLowerCase();
      // The browser's type is only a claim (the bytes decide at completion), but an obvious mismatch is
      // refused now rather than after a long upload.
      const claimed = claimedKind(contentType);
      const kinds: readonly string[] | undefined = policy.kinds;
      if (claimed && kinds && !kinds.includes(claimed)) {
        throw invalidArgument(`The "${bucket}" bucket takes ${policy.accepts}; this file is ${contentType}.`);
      }
      const limit = sizeLimit(bucket, contentType);
      if (!(req.size > 0)) throw invalidArgument('The file is empty.');
      if (req.size > limit) {
        throw invalidArgument(
          `This file is ${describeSize(req.size)}; files in "${bucket}" may be at most ${describeSize(limit)}.`,
        );
      }
      if (purpose === 'song-submission' && !req.title.trim())
        throw invalidArgument('Title and Artist required.');

      const signedAt = now();
      const fileName = sanitiseSegment(req.fileName);
      for (let attempt = 0; attempt < MAX_KEY_ATTEMPTS; attempt++) {
        const key = buildKey(
          {
            purpose,
            ownerId: req.ownerId,
            fileName: req.fileName,
            folder: req.folder,
            title: req.title,
            now: signedAt,
          },
          attempt,
        );
        if (await objects.statObject(bucket, key)) continue;
        const seconds = ttl();
        const owner = userSubject(req.ownerId);
        const signed = await objects.presignPut(bucket, key, {
          expiresInSeconds: seconds,
          maxSize: req.size,
          contentType,
          owner,
        });
        try {
          await uploads.insertOne({
            _id: uploadId(bucket, key),
            bucket,
            key,
            ownerId: req.ownerId,
            ownerSubject: owner,
            purpose,
            fileName,
            contentType,
            maxSize: req.size,
            signedAt: signedAt.toISOString(),
            expiresAt: signed.expiresAt.toISOString(),
            status: 'signed',
          });
        } catch (err) {
          if (err instanceof DuplicateKeyError) continue;
          throw err;
        }
        log.info({ bucket, key, ownerId: req.ownerId, purpose, maxSize: req.size }, 'upload signed');
        return {
          signedUrl: signed.url,
          fileKey: key,
          bucket,
          headers: signed.headers,
          expiresAt: signed.expiresAt.toISOString(),
          maxSize: req.size,
        };
      }
      throw new GrpcError(
        GrpcStatus.ALREADY_EXISTS,
        'A file with this name already exists here; rename it and try again.',
      );
    },

    async completeUpload(req) {
      const doc = await ownUpload(req.ownerId, req.bucket, req.fileKey);
      const requested = requestedRole(doc.bucket, req.role);
      if (doc.status === 'rejected')
        throw invalidArgument(doc.problems?.join(' ') || 'This file was refused.');
      const info = await objects.statObject(doc.bucket, doc.key);
      if (!info) throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'The file has not been uploaded yet.');
      const { inspection } = await inspectionOf(doc, info);
      const verdict = verdictOn(doc, info, inspection, requested);
      if (verdict.problems.length > 0) {
        // Refused bytes do not stay behind: the object goes, the record keeps why.
        await objects.removeObject(doc.bucket, doc.key);
        await uploads.updateOne(
          { _id: doc._id },
          {
            $set: {
              status: 'rejected',
              role: verdict.role,
              inspection,
              inspectedEtag: info.etag,
              problems: verdict.problems,
              warnings: [],
              completedAt: now().toISOString(),
            },
          },
        );
        log.info(
          { bucket: doc.bucket, key: doc.key, problems: verdict.problems },
          'upload refused and removed',
        );
        throw invalidArgument(verdict.problems.join(' '));
      }
      await uploads.updateOne(
        { _id: doc._id },
        {
          $set: {
            status: 'complete',
            role: verdict.role,
            inspection,
            inspectedEtag: info.etag,
            problems: [],
            warnings: verdict.warnings,
            completedAt: now().toISOString(),
          },
        },
      );
      return {
        accepted: true,
        inspection: toProto(inspection, [], verdict.warnings),
        publicUrl: objects.publicUrl(doc.bucket, doc.key),
      };
    },

    async getObjectInfo(req) {
      const doc = await ownUpload(req.ownerId, req.bucket, req.fileKey);
      // Catalog names the role the file plays in a release; otherwise it is judged as it was completed.
      const completedAs = doc.role === 'audio' || doc.role === 'artwork' ? doc.role : '';
      const requested = requestedRole(doc.bucket, req.role || completedAs);
      const info = doc.status === 'rejected' ? null : await objects.statObject(doc.bucket, doc.key);
      if (!info) {
        const inspection = doc.inspection ?? emptyInspection(0);
        return {
          exists: false,
          inspection: toProto(inspection, doc.problems ?? [], []),
          publicUrl: '',
          ownerId: doc.ownerId,
        };
      }
      // Uploaded but never completed (or replaced since): judged now, without removing it (this is a read).
      const { inspection, fresh } = await inspectionOf(doc, info);
      if (fresh)
        await uploads.updateOne({ _id: doc._id }, { $set: { inspection, inspectedEtag: info.etag } });
      const verdict = verdictOn(doc, info, inspection, requested);
      return {
        exists: true,
        inspection: toProto(inspection, verdict.problems, verdict.warnings),
        publicUrl: objects.publicUrl(doc.bucket, doc.key),
        ownerId: doc.ownerId,
      };
    },

    async listBuckets() {
      const names = Object.keys(BUCKETS) as BucketName[];
      const buckets = await Promise.all(
        names.map(async (name) => ({
          name,
          exists: await objects.bucketExists(name),
          accepts: BUCKETS[name].accepts,
        })),
      );
      return { buckets };
    },

    async listUploads(req) {
      if (!req.ownerId) throw signInRequired();
      if (req.bucket && !isBucketName(req.bucket)) throw notFoundError(`Bucket "${req.bucket}" missing...`);
      const limit = Math.min(Math.max(req.limit || 50, 1), 200);
      const docs = await uploads.find(
        { ownerId: req.ownerId, status: { $ne: 'rejected' }, ...(req.bucket ? { bucket: req.bucket } : {}) },
        { sort: { signedAt: -1 }, limit: limit * 2 },
      );
      const files: storage.UploadedFile[] = [];
      // Signed but never sent (or sent and not yet completed): only what is really stored is listed.
      for (const doc of docs) {
        if (files.length >= limit) break;
        const info = await objects.statObject(doc.bucket, doc.key);
        if (!info) continue;
        files.push({
          bucket: doc.bucket,
          fileKey: doc.key,
          publicUrl: objects.publicUrl(doc.bucket, doc.key),
          size: info.size,
          contentType: doc.inspection?.mimeType || info.contentType,
          uploadedAt: info.lastModified.toISOString(),
        });
      }
      return { files };
    },
  };
}
