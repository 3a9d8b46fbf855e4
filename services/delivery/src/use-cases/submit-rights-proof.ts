// The owner's answer to a rights hold (issue 27): a note and a file (already in storage, checked by the
// gateway) kept with the review, so the admin who decides reads them beside the evidence. Only while the
// release waits in review held by a `fingerprint-match` finding: after a decision, or without a hold, there
// is nothing to answer. Every answer is kept, newest first.
import { fail, invalidArgument, unauthenticated } from '@omni/platform';
import type { delivery } from '@omni/proto';
import { FINGERPRINT_RULE } from '../domain/checks/fingerprint';
import type { ReviewDoc } from '../store/reviews';
import type { ReviewDeps } from './review-release';

export const NOT_HELD =
  'This release is not held by the rights check, so there is nothing to answer: proof of rights can only be sent while a release is held.';

export const isHeld = (review: ReviewDoc): boolean =>
  review.status === 'in_review' &&
  review.findings.some((f) => f.rule === FINGERPRINT_RULE && f.match?.decision === 'hold');

export async function submitRightsProof(
  deps: Pick<ReviewDeps, 'store' | 'reviews'>,
  releaseId: string,
  callerId: string,
  proof: delivery.RightsProof,
): Promise<ReviewDoc> {
  if (!callerId.trim()) throw unauthenticated('Please sign in first.');
  if (!proof.note.trim() || !proof.fileKey || !proof.bucket)
    throw invalidArgument('A note and a file are required.');
  return deps.store.transaction(async (scope) => {
    const review = await deps.reviews.inScope(scope, releaseId);
    // Someone else's release answers exactly like a missing one.
    if (!review || review.ownerId !== callerId) throw fail('release_not_found', 'No such release.');
    if (!isHeld(review)) throw fail('release_not_in_review', NOT_HELD);
    const saved = { ...proof, submittedBy: callerId };
    await deps.reviews.addProof(scope, review, saved);
    return { ...review, proofs: [saved, ...(review.proofs ?? [])] };
  });
}
