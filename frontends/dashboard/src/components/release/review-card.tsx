import { DELIVERY_MESSAGES, type ReleaseStatus, type ReviewJson } from '@omni/proto/api';
import { Card, CardContent, CardHeader, CardTitle, ReviewFindings } from '@omni/ui';
import type { ReactNode } from 'react';
import { withoutOthersEvidence } from '../../lib/artist-findings';
import { RightsProofCard } from './rights-proof-card';

interface ReviewCardProps {
  releaseId: string;
  releaseStatus: ReleaseStatus;
  review: ReviewJson | null;
  /** The 'Fix and resubmit' action, shown when the release was rejected. */
  resubmit: ReactNode;
  /** Stores whose last word was a rejection (the rest may be live): the artist may fix and resubmit. */
  storeRejections?: number;
}

/** What the review says: waiting for a person, or why the release was rejected and how to fix it. */
export function ReviewCard({
  releaseId,
  releaseStatus,
  review,
  resubmit,
  storeRejections = 0,
}: ReviewCardProps) {
  if (releaseStatus === 'in_review') {
    // A rights hold is answered with proof below, in its own words: the shared list would repeat it.
    const holds = review?.findings.filter((f) => f.match?.decision === 'hold') ?? [];
    return (
      <Card data-testid="review-card">
        <CardHeader>
          <CardTitle>In review</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          <p className="text-sm text-muted-foreground">{DELIVERY_MESSAGES.reviewWait}</p>
          {review ? (
            <ReviewFindings
              findings={review.findings.filter((f) => !holds.includes(f)).map(withoutOthersEvidence)}
            />
          ) : null}
          {review && holds.length > 0 ? (
            <RightsProofCard releaseId={releaseId} holds={holds} proofs={review.proofs} />
          ) : null}
        </CardContent>
      </Card>
    );
  }
  if (releaseStatus !== 'rejected' && storeRejections > 0 && releaseStatus !== 'taken_down') {
    return (
      <Card className="border-destructive/60" data-testid="review-card">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 space-y-0">
          <CardTitle>
            {storeRejections === 1
              ? 'A store refused this release'
              : `${storeRejections} stores refused this release`}
          </CardTitle>
          {resubmit}
        </CardHeader>
        <CardContent>
          <p className="text-sm" data-testid="rejection-reason">
            Their reasons are listed under Delivery below. Fix what they name and resubmit: after review,
            every store gets the corrected release.
          </p>
        </CardContent>
      </Card>
    );
  }
  if (releaseStatus !== 'rejected') return null;
  return (
    <Card className="border-destructive/60" data-testid="review-card">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 space-y-0">
        <CardTitle>Rejected</CardTitle>
        {resubmit}
      </CardHeader>
      <CardContent className="space-y-3">
        {review?.status === 'rejected' && review.reason ? (
          <p className="whitespace-pre-wrap text-sm" data-testid="rejection-reason">
            {review.reason}
          </p>
        ) : (
          <p className="text-sm" data-testid="rejection-reason">
            The stores refused this release. Their reasons are listed under Delivery below.
          </p>
        )}
        {review ? <ReviewFindings findings={review.findings.map(withoutOthersEvidence)} /> : null}
      </CardContent>
    </Card>
  );
}
