// What catalog asks before a file goes into a release: whether it is still there, whose it is, and how the
// stores' rules judge it for the role it will play. A read: a file judged here is never removed.
import { emptyInspection, type Inspection } from '../domain/inspect';
import type { StorageContext } from './context';
import { inspectionOf, ownUpload, requestedRole, verdictOn } from './upload-verdict';

export interface ObjectFacts {
  exists: boolean;
  inspection: Inspection;
  problems: string[];
  warnings: string[];
  publicUrl: string;
  ownerId: string;
}

export async function objectInfo(
  ctx: StorageContext,
  req: { ownerId: string; bucket: string; fileKey: string; role: string },
): Promise<ObjectFacts> {
  const { objects, uploads } = ctx;
  const doc = await ownUpload(ctx, req.ownerId, req.bucket, req.fileKey);
  // Catalog asks with a role when the file goes into a release: from then on a release may use it, so its
  // owner can no longer discard it as the leftover of a failed try (discardUpload).
  if (req.role && !doc.claimedAt)
    await uploads.updateOne(
      { _id: doc._id, signedAt: doc.signedAt },
      { $set: { claimedAt: ctx.now().toISOString() } },
    );
  // Catalog names the role the file plays in a release; otherwise it is judged as it was completed.
  const completedAs = doc.role === 'audio' || doc.role === 'artwork' ? doc.role : '';
  const requested = requestedRole(doc.bucket, req.role || completedAs);
  const info =
    doc.status === 'rejected' || doc.status === 'deleted'
      ? null
      : await objects.statObject(doc.bucket, doc.key);
  if (!info) {
    const inspection = doc.inspection ?? emptyInspection(0);
    return {
      exists: false,
      inspection,
      problems: doc.problems ?? [],
      warnings: [],
      publicUrl: '',
      ownerId: doc.ownerId,
    };
  }
  // Uploaded but never completed (or replaced since): judged now, without removing it (this is a read).
  const { inspection, fresh } = await inspectionOf(ctx, doc, info);
  if (fresh) await uploads.updateOne({ _id: doc._id }, { $set: { inspection, inspectedEtag: info.etag } });
  const verdict = verdictOn(doc, info, inspection, requested);
  return {
    exists: true,
    inspection,
    problems: verdict.problems,
    warnings: verdict.warnings,
    publicUrl: objects.publicUrl(doc.bucket, doc.key),
    ownerId: doc.ownerId,
  };
}
