// The review's status as the pipeline needs it for the release's roll-up. The `delivery_reviews`
// collection is the review's (use-cases/review*); the pipeline only reads one field of it.
import type { Doc, TransactionScope } from '@omni/platform';
import type { ReviewStatus } from '@omni/proto/api';

const REVIEWS = 'delivery_reviews';

/**
 * The release's review status. A release with no review document predates the review: its unheld jobs
 * were released by hand or by an older version, so it counts as approved; held jobs mean it waits.
 */
export async function reviewStatusOf(
  scope: TransactionScope,
  releaseId: string,
  anyHeld: boolean,
): Promise<ReviewStatus | null> {
  const review = await scope.collection<Doc & { status: ReviewStatus }>(REVIEWS).findById(releaseId);
  if (review) return review.status;
  return anyHeld ? null : 'approved';
}
