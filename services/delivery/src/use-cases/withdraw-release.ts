// A release its owner deletes before any store saw it (DELETE /api/releases/:id, asked by the gateway before
// catalog deletes the release): its review and held jobs go, in one transaction, only while no message was
// ever made for it and no admin approved it. A late release.created or release.resubmitted for it is then
// ignored (submitForReview checks the mark), so an event on its way cannot bring a deleted release back.
//
// The mark is written FIRST, before anything of the release is read for removal, and a submission looks for
// it again once its jobs, version and review are written, and after announcing them (submitForReview). Where transactions are serialized
// (SQLite) that order changes nothing. Where they are journaled (FerretDB in cluster mode: others see each
// write as it is made) a withdrawal and a submission of the same release run interleaved: a withdrawal that
// checked the review and jobs first and marked last found nothing yet to remove while the submission, having
// found no mark, went on to write its review, and the deleted release stayed in the admin's queue. With the
// mark first and the second look last, one of the two always sees the other: either the submission finds the
// mark and takes back what it wrote, or the mark came after that look, hence after all those writes, and the
// withdrawal's removals (after its mark) take them. Under a replica set's snapshot isolation each could still
// miss the other (neither writes what the other reads), so the queue and the admin's decisions also ask for
// the mark (grpc/review-handlers.ts, approve and reject): a withdrawn release is never shown nor decided.
import { fail, type TransactionScope, unauthenticated } from '@omni/platform';
import { RELEASE_MESSAGES } from '@omni/proto/api';
import type { ReviewDeps } from './review-release';

export async function withdrawRelease(
  deps: Pick<ReviewDeps, 'store' | 'jobs' | 'reviews' | 'versions'>,
  releaseId: string,
  callerId: string,
): Promise<void> {
  if (!callerId.trim()) throw unauthenticated('Please sign in first.');
  if (!releaseId) throw fail('release_not_found', 'No such release.');
  await deps.store.transaction(async (scope) => {
    const review = await deps.reviews.inScope(scope, releaseId);
    // Someone else's release answers exactly like a missing one.
    if (review && review.ownerId !== callerId) throw fail('release_not_found', 'No such release.');
    if (review?.status === 'approved') throw fail('release_delivered', RELEASE_MESSAGES.deleteDelivered);
    await deps.reviews.markWithdrawn(scope, releaseId, callerId, new Date().toISOString());
    // A message was made for a job: the throw takes the mark back with the rest.
    if (!(await forgetRelease(scope, deps, releaseId)))
      throw fail('release_delivered', RELEASE_MESSAGES.deleteDelivered);
  });
}

/**
 * Removes what delivery holds of a release no store was sent: its held jobs and their counts, its review,
 * its versions. False (and nothing changed) when a message was made for one of its jobs.
 */
export async function forgetRelease(
  scope: TransactionScope,
  deps: Pick<ReviewDeps, 'jobs' | 'reviews' | 'versions'>,
  releaseId: string,
): Promise<boolean> {
  if (!(await deps.jobs.deleteNeverSent(scope, releaseId))) return false;
  await deps.reviews.remove(scope, releaseId);
  await deps.versions.removeAll(scope, releaseId);
  return true;
}
