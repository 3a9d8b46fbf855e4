// Completing an upload: the bytes decide. Inspected and judged for the role asked for; refused bytes do not
// stay behind (the object goes, the record keeps why), accepted ones are recorded with their warnings.
import { GrpcError, GrpcStatus, invalidArgument } from '@omni/platform';
import type { Inspection } from '../domain/inspect';
import { expectedKindProblems } from '../domain/rules';
import type { StorageContext } from './context';
import { inspectionOf, ownUpload, requestedRole, verdictOn } from './upload-verdict';

export interface CompletedUpload {
  inspection: Inspection;
  warnings: string[];
  publicUrl: string;
}

export async function completeUpload(
  ctx: StorageContext,
  req: { ownerId: string; bucket: string; fileKey: string; role: string; expectKind?: string },
): Promise<CompletedUpload> {
  const { objects, uploads, log } = ctx;
  const doc = await ownUpload(ctx, req.ownerId, req.bucket, req.fileKey);
  const requested = requestedRole(doc.bucket, req.role);
  if (doc.status === 'rejected') throw invalidArgument(doc.problems?.join(' ') || 'This file was refused.');
  const info = await objects.statObject(doc.bucket, doc.key);
  if (!info) throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'The file has not been uploaded yet.');
  const { inspection } = await inspectionOf(ctx, doc, info);
  const verdict = verdictOn(doc, info, inspection, requested);
  // A caller that knows what the file is meant to be (cms: music must be audio) refuses anything else.
  if (verdict.problems.length === 0 && req.expectKind)
    verdict.problems.push(...expectedKindProblems(req.expectKind, inspection));
  if (verdict.problems.length > 0) {
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
          completedAt: ctx.now().toISOString(),
        },
      },
    );
    log.info({ bucket: doc.bucket, key: doc.key, problems: verdict.problems }, 'upload refused and removed');
    throw invalidArgument(verdict.problems.join(' '));
  }
  // Only the signing that was inspected: if the same sender signed the path again meanwhile (an upsert),
  // these are not the bytes that will be there, so nothing is accepted.
  const { matched } = await uploads.updateOne(
    { _id: doc._id, signedAt: doc.signedAt, status: doc.status },
    {
      $set: {
        status: 'complete',
        role: verdict.role,
        inspection,
        inspectedEtag: info.etag,
        problems: [],
        warnings: verdict.warnings,
        completedAt: ctx.now().toISOString(),
      },
    },
  );
  if (matched === 0)
    throw new GrpcError(
      GrpcStatus.FAILED_PRECONDITION,
      'This file was sent again while it was being checked. Please submit it again.',
    );
  return { inspection, warnings: verdict.warnings, publicUrl: objects.publicUrl(doc.bucket, doc.key) };
}
