// Nothing a contributor link let someone upload stays in storage unreferenced. A file goes:
//  - at once, when its submission loses the link's last use or is refused for good (link revoked, expired,
//    used up) after the bytes were sent — and once more after its signed URL lapsed, since until then the
//    holder of that URL could put the bytes back;
//  - when it was never submitted, an hour after its signed URL lapsed (an upload under way at the URL's
//    end and a slow submission still fit in that hour).
// Never a file an asset points to, nor one signed again since (the contributor page upserts: the same
// sender at the same path replaces a file not yet submitted).
import { GrpcStatus, isServiceError } from '@omni/platform';
import type { LinkUploadDoc } from '../store/link-uploads';
import type { CmsContext } from './context';

/** After its signed URL lapsed, how long a never-submitted file is kept for a late submission. */
export const UNSUBMITTED_GRACE_MS = 60 * 60_000;

/** How often the cleanup looks for files that are due, and how many it handles per pass. */
export const SWEEP_EVERY_MS = 5 * 60_000;
const SWEEP_BATCH = 200;

/** Deletes the file unless an asset or a newer signing of the same path holds it. */
async function deleteIfUnreferenced(ctx: CmsContext, upload: LinkUploadDoc) {
  if (await ctx.assets.references(upload.bucket, upload.fileKey)) return;
  if (await ctx.linkUploads.openSince(upload.bucket, upload.fileKey, upload.signedAt)) return;
  try {
    await ctx.storage.deleteObject({
      ownerId: upload.ownerId,
      bucket: upload.bucket,
      fileKey: upload.fileKey,
    });
  } catch (err) {
    // Storage has no such file of this owner: nothing to delete (DeleteObject is idempotent otherwise).
    if (!(isServiceError(err) && err.code === GrpcStatus.NOT_FOUND)) throw err;
  }
}

/**
 * A submission that will never be accepted (lost the claim, refused after upload): its file is deleted
 * now and the link's room for signings given back. Best effort: a failure here leaves the records pending,
 * and the sweep deletes the file later.
 */
export async function discardSubmission(
  ctx: CmsContext,
  linkId: string,
  ownerId: string,
  bucket: string,
  fileKey: string,
) {
  // Only the sender's own signings: naming someone else's path discards nothing of theirs.
  const signings = await ctx.linkUploads.pendingFor(linkId, ownerId, bucket, fileKey);
  if (signings.length === 0) return;
  // The newest signing: older ones of the same path are this file too, not a newer upload to spare.
  const newest = signings.reduce((a, b) => (b.signedAt > a.signedAt ? b : a));
  await deleteIfUnreferenced(ctx, newest);
  const settled = await ctx.linkUploads.settle(
    signings.map((s) => s._id),
    'removed',
  );
  await ctx.links.release(linkId, settled);
}

/** One pass over the files that are due (all links, or one link's before it signs again). */
export async function sweepLinkUploads(ctx: CmsContext, linkId?: string): Promise<number> {
  const due = await ctx.linkUploads.due(ctx.now(), SWEEP_BATCH, linkId);
  let swept = 0;
  for (const upload of due) {
    await deleteIfUnreferenced(ctx, upload);
    if (!(await ctx.linkUploads.close(upload._id, upload.state))) continue;
    swept++;
    // A pending signing that lapsed unsubmitted held a place under the link's cap.
    if (upload.state === 'pending') await ctx.links.release(upload.linkId, 1);
  }
  return swept;
}

/** Runs the sweep every SWEEP_EVERY_MS until stopped; a failed pass is logged and the next one retries. */
export function startLinkUploadSweeper(ctx: CmsContext, onError: (err: unknown) => void) {
  const timer = setInterval(() => void sweepLinkUploads(ctx).catch(onError), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
