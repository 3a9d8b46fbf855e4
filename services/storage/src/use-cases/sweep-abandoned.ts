// Files uploaded for a release that was never made: the artist closed the tab between the upload and the
// submission, or their browser died. Nothing refers to them (catalog never asked about them for a release:
// no claimedAt) and nobody can see them (the console lists only its own buckets), so after a day they are
// removed, as a failed try's files are removed at once (discardUpload). A file catalog asked about is never
// touched here: a release may use it.
import type { UploadDoc } from '../store/uploads';
import type { StorageContext } from './context';

/** At most this many files per sweep, so one sweep never holds the shared event loop for long. */
const SWEEP_BATCH = 200;

export async function sweepAbandonedUploads(ctx: StorageContext, olderThanMs: number): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - olderThanMs).toISOString();
  const abandoned = await ctx.uploads.find(
    {
      purpose: 'artist-upload',
      status: { $in: ['signed', 'complete', 'rejected'] },
      signedAt: { $lt: cutoff },
      claimedAt: { $exists: false },
    },
    { limit: SWEEP_BATCH },
  );
  let removed = 0;
  for (const doc of abandoned as UploadDoc[]) {
    // Marked first, on the record as read: a file catalog claimed meanwhile is left alone; once marked,
    // catalog finds it gone rather than a release pointing at bytes about to go.
    const marked = await ctx.uploads.updateOne(
      { _id: doc._id, signedAt: doc.signedAt, claimedAt: { $exists: false } },
      { $set: { status: 'deleted', deletedAt: ctx.now().toISOString(), deletedWhy: 'abandoned' } },
    );
    if (marked.matched === 0) continue;
    await ctx.objects.removeObject(doc.bucket, doc.key);
    removed += 1;
  }
  if (removed > 0) ctx.log.info({ removed }, 'removed files uploaded for releases never made');
  return removed;
}
