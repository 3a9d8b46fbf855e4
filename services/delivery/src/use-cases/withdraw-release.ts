// A release its owner deletes before any store saw it (DELETE /api/releases/:id, asked by the gateway before
// catalog deletes the release): its review and held jobs go, in one transaction, only while no message was
// ever made for it and no admin approved it. A late release.created or release.resubmitted for it is then
// ignored (submitForReview checks the mark), so an event on its way cannot bring a deleted release back.
import { fail, unauthenticated } from '@omni/platform';
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
    if (!(await deps.jobs.deleteNeverSent(scope, releaseId)))
      throw fail('release_delivered', RELEASE_MESSAGES.deleteDelivered);
    await deps.reviews.withdraw(scope, releaseId, callerId, new Date().toISOString());
    await deps.versions.removeAll(scope, releaseId);
  });
}
