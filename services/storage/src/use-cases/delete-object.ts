// Removing a file another service no longer keeps a reference to (cms: a contributor's file whose
// submission lost the link's last use, was refused after upload, or was never submitted). Only the owner
// recorded at signing may have it removed (anyone else: "not found", as for every other call). Idempotent:
// the object store's remove is, and the record keeps why the bytes went. The object is removed whatever the
// record says, so a PUT that landed again on a still-valid signed URL after a first delete goes too.
import { failedPrecondition, notFoundError } from '@omni/platform';
import { isBucketName } from '../domain/buckets';
import type { StorageContext } from './context';
import { ownUpload } from './upload-verdict';

export async function deleteObject(
  ctx: StorageContext,
  req: { ownerId: string; bucket: string; fileKey: string },
): Promise<boolean> {
  if (!isBucketName(req.bucket)) throw notFoundError('No such file.');
  const doc = await ownUpload(ctx, req.ownerId, req.bucket, req.fileKey);
  const existed = (await ctx.objects.statObject(doc.bucket, doc.key)) !== null;
  await ctx.objects.removeObject(doc.bucket, doc.key);
  if (doc.status !== 'deleted')
    await ctx.uploads.updateOne(
      { _id: doc._id, signedAt: doc.signedAt },
      { $set: { status: 'deleted', deletedAt: ctx.now().toISOString() } },
    );
  if (existed)
    ctx.log.info({ bucket: doc.bucket, key: doc.key }, 'object deleted at its owner service’s request');
  return existed;
}

/**
 * The owner discarding the upload of a try that failed before its release was made (an artwork uploaded,
 * then the master refused): otherwise it would stay in storage for ever. Never a file catalog was asked
 * about for a release (`claimedAt`): a release may use it (catalog removes the files of a release it refused).
 */
export async function discardUpload(
  ctx: StorageContext,
  req: { ownerId: string; bucket: string; fileKey: string },
): Promise<boolean> {
  if (!isBucketName(req.bucket)) throw notFoundError('No such file.');
  const doc = await ownUpload(ctx, req.ownerId, req.bucket, req.fileKey);
  if (doc.claimedAt) throw failedPrecondition('This file was submitted with a release, so it stays.');
  return deleteObject(ctx, req);
}
