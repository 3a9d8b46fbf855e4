// The review as the pipeline needs it for the release's roll-up and its announcements. The
// `delivery_reviews` collection is the review's (store/reviews.ts); the jobs repository only reads it.
import type { Doc, TransactionScope } from '@omni/platform';
import type { ReviewStatus } from '@omni/proto/api';
import { type JobCounts, reviewForRollUp } from '../domain/release-status';

const REVIEWS = 'delivery_reviews';

/** The review the release's roll-up goes by (domain/release-status.ts says what no review document means). */
export async function reviewOf(
  scope: TransactionScope,
  releaseId: string,
  counts: JobCounts,
): Promise<{ status: ReviewStatus | null; reason: string | null }> {
  const review = await scope
    .collection<Doc & { status: ReviewStatus; reason?: string | null }>(REVIEWS)
    .findById(releaseId);
  return { status: reviewForRollUp(review?.status, counts), reason: review?.reason ?? null };
}
