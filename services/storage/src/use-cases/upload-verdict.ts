// The steps completing and describing an upload share: finding the caller's own record, knowing what the
// bytes are (inspected once per object version), and judging them for the role asked for.
import { invalidArgument, notFoundError, signInRequired } from '@omni/platform';
import { type BucketName, bucketWords, describeSize } from '../domain/buckets';
import { emptyInspection, type Inspection, inspectObject } from '../domain/inspect';
import {
  effectiveRole,
  isRequestedRole,
  judge,
  type RequestedRole,
  type Role,
  roleFitsBucket,
} from '../domain/rules';
import type { ObjectInfo } from '../providers/objects/port';
import { type UploadDoc, uploadId } from '../store/uploads';
import type { StorageContext } from './context';

export interface Verdict {
  role: Role;
  problems: string[];
  warnings: string[];
}

/** The caller's record of this key; someone else's (or no) record is "not found", never "forbidden". */
export async function ownUpload(
  ctx: StorageContext,
  ownerId: string,
  bucket: string,
  key: string,
): Promise<UploadDoc> {
  if (!ownerId) throw signInRequired();
  const doc = key ? await ctx.uploads.findById(uploadId(bucket, key)) : null;
  if (!doc || doc.ownerId !== ownerId) throw notFoundError('No such file.');
  return doc;
}

/** The role a caller names, checked against what the bucket holds. */
export function requestedRole(bucket: BucketName, role: string): RequestedRole {
  if (!isRequestedRole(role)) throw invalidArgument('role must be audio or artwork.');
  if (!roleFitsBucket(bucket, role))
    throw invalidArgument(`${bucketWords(bucket).doesNotHold} ${role} files.`);
  return role;
}

/**
 * What the bytes are. Inspected once per object version: the record keeps the inspection with the ETag
 * it was made from, so a later call (catalog's, at release time) reuses it, and an object replaced since
 * (possible with S3's presigned PUT) is inspected again rather than trusted.
 */
export async function inspectionOf(
  ctx: StorageContext,
  doc: UploadDoc,
  info: ObjectInfo,
): Promise<{ inspection: Inspection; fresh: boolean }> {
  if (doc.inspection && doc.inspectedEtag === info.etag) return { inspection: doc.inspection, fresh: false };
  if (info.size > doc.maxSize)
    return { inspection: { ...emptyInspection(info.size), unreadable: 'too large' }, fresh: true };
  const inspection = await inspectObject(
    ctx.objects,
    { bucket: doc.bucket, key: doc.key, size: info.size, fileName: doc.fileName },
    ctx.log,
  );
  return { inspection, fresh: true };
}

/** The rules for the role asked for (or what the bucket and bytes imply): problems refuse, warnings inform. */
export function verdictOn(
  doc: UploadDoc,
  info: ObjectInfo,
  inspection: Inspection,
  requested: RequestedRole,
): Verdict {
  const role = effectiveRole(doc.bucket, requested, inspection);
  if (info.size > doc.maxSize) {
    const tooLarge = `This file is ${describeSize(info.size)}; the upload was signed for at most ${describeSize(doc.maxSize)}.`;
    return { role, problems: [tooLarge], warnings: [] };
  }
  return { role, ...judge(doc.bucket, role, inspection) };
}
