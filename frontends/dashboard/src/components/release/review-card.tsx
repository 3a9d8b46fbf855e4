import { DELIVERY_MESSAGES, PLATFORMS, type ReleaseStatus, type ReviewJson } from '@omni/proto/api';
import { Badge, Card, CardContent, CardHeader, CardTitle } from '@omni/ui';
import type { ReactNode } from 'react';

const STORE_NAMES = new Map(PLATFORMS.map((p) => [p.key, p.name]));

/** The automatic store checks' findings: what is wrong, how to fix it, and which stores it concerns. */
export function Findings({ review }: { review: ReviewJson }) {
  if (review.findings.length === 0) return null;
  return (
    <ul className="space-y-2" data-testid="review-findings">
      {review.findings.map((f) => (
        <li key={`${f.rule}:${f.message}`} className="flex items-start gap-2 text-sm">
          <Badge variant={f.severity === 'error' ? 'destructive' : 'secondary'} className="shrink-0">
            {f.severity === 'error' ? 'Refused' : 'Warning'}
          </Badge>
          <span>
            {f.message}
            <span className="block text-xs text-muted-foreground">
              {f.stores.length === 0
                ? 'Every store'
                : f.stores.map((key) => STORE_NAMES.get(key) ?? key).join(', ')}
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

interface ReviewCardProps {
  releaseStatus: ReleaseStatus;
  review: ReviewJson | null;
  /** The 'Fix and resubmit' action, shown when the release was rejected. */
  resubmit: ReactNode;
  /** Stores whose last word was a rejection (the rest may be live): the artist may fix and resubmit. */
  storeRejections?: number;
}

/** What the review says: waiting for a person, or why the release was rejected and how to fix it. */
export function ReviewCard({ releaseStatus, review, resubmit, storeRejections = 0 }: ReviewCardProps) {
  if (releaseStatus === 'in_review') {
    return (
      <Card data-testid="review-card">
        <CardHeader>
          <CardTitle>In review</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          <p className="text-sm text-muted-foreground">{DELIVERY_MESSAGES.reviewWait}</p>
          {review ? <Findings review={review} /> : null}
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
        {review ? <Findings review={review} /> : null}
      </CardContent>
    </Card>
  );
}
