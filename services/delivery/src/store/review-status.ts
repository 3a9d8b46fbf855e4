// The review's status as the pipeline needs it for the release's roll-up. The `delivery_reviews`
// collection is the review's (use-cases/review*); the pipeline only reads one field of it.
import type { Doc, TransactionScope } from '@omni/platform';
import type { ReviewStatus } from '@omni/proto/api';
import { type JobCounts, reviewForRollUp } from '../domain/release-status';

const REVIEWS = 'delivery_reviews';

/** The review the release's roll-up goes by (domain/release-status.ts says what no review document means). */
export async function reviewStatusOf(
  scope: TransactionScope,
  releaseId: string,
  counts: JobCounts,
): Promise<ReviewStatus | null> {
  const review = await scope.collection<Doc & { status: ReviewStatus }>(REVIEWS).findById(releaseId);
  return reviewForRollUp(review?.status, counts);
}
