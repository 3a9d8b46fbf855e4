// Delivery's gRPC answers → the delivery JSON of the API contract (proto/api/delivery.ts): store names from
// the platform list, empty strings as null, and `moving`, which says whether the release page should keep
// listening.
import type { delivery } from '@omni/proto';
import {
  type DeadLetterJson,
  type DeliveryJobJson,
  MOVING_STORE_STATUSES,
  PLATFORMS,
  RELEASE_STATUSES,
  type ReleaseDeliveryJson,
  type ReleaseStatus,
  type ReviewJson,
  type ReviewQueueItem,
  type StoreStatus,
} from '@omni/proto/api';

const STORE_NAMES = new Map(PLATFORMS.map((p) => [p.key, p.name]));
export const storeName = (key: string) => STORE_NAMES.get(key) ?? key;

export const jobJson = (j: delivery.DeliveryJob): DeliveryJobJson => ({
  target: j.target,
  storeName: storeName(j.target),
  status: j.status,
  jobKind: j.jobKind,
  reason: j.reason || null,
  attempts: j.attempts,
  nextAttemptAt: j.nextAttemptAt || null,
  deadLettered: j.deadLettered,
  steps: j.steps.map((s) => ({ status: s.status, at: s.at })),
  hasErn: j.messageId !== '',
  updatedAt: j.updatedAt,
});

const asReleaseStatus = (s: string | undefined): ReleaseStatus =>
  (RELEASE_STATUSES as readonly string[]).includes(s ?? '') ? (s as ReleaseStatus) : 'draft';

export const reviewJson = (r: delivery.Review): ReviewJson => ({
  status: r.status as ReviewJson['status'],
  findings: r.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity === 'error' ? 'error' : 'warning',
    stores: f.stores,
    message: f.message,
  })),
  reason: r.reason || null,
  submittedAt: r.submittedAt,
  decidedAt: r.decidedAt || null,
});

/** What catalog says of a release that decides whether its delivery will still move. */
export interface ReleaseFacts {
  /** Its chosen stores: one job each once delivery wrote them. */
  expectedJobs: number;
  /** YYYY-MM-DD or null: an acknowledged store turns live once it has come. */
  releaseDate: string | null;
}

/**
 * Whether something will change without anyone acting: a job a worker or a store is moving, a job queued
 * for a release its review approved, or a release waiting for an admin's decision (the
 * artist's page keeps listening so approval shows at once), or a store acknowledged the release and its date
 * has come (delivery marks it live). A dead-lettered job waits for an admin's replay and a job acknowledged
 * before its release date waits for the calendar: neither keeps a stream open.
 */
export function isMoving(
  releaseStatus: ReleaseStatus,
  review: ReviewJson | null,
  jobs: DeliveryJobJson[],
  { expectedJobs, releaseDate }: ReleaseFacts,
  today = new Date().toISOString().slice(0, 10),
) {
  // Delivery writes a new release's jobs from catalog's event, just after the release is created.
  if (jobs.length < expectedJobs) return true;
  const dateHasCome = !releaseDate || releaseDate <= today;
  if (releaseStatus === 'in_review') return true;
  return jobs.some((j) => {
    if (j.deadLettered) return false;
    if (MOVING_STORE_STATUSES.includes(j.status as StoreStatus)) return true;
    if (j.status === 'acknowledged' && j.jobKind === 'ingest' && dateHasCome) return true;
    // Queued jobs move once the review approved them (before, they are held).
    return j.status === 'queued' && review?.status === 'approved';
  });
}

export function releaseDeliveryJson(
  releaseId: string,
  res: delivery.ListJobsResponse,
  facts: ReleaseFacts,
): ReleaseDeliveryJson {
  const jobs = res.jobs.map(jobJson);
  const review = res.review ? reviewJson(res.review) : null;
  const releaseStatus = asReleaseStatus(res.summary?.releaseStatus);
  return {
    releaseId,
    releaseStatus,
    review,
    jobs,
    moving: isMoving(releaseStatus, review, jobs, facts),
  };
}

export const reviewQueueItemJson = (r: delivery.Review): ReviewQueueItem => ({
  releaseId: r.releaseId,
  title: r.title,
  artistName: r.artistName,
  releaseType: r.releaseType,
  upc: r.upc,
  ownerId: r.ownerId,
  artworkUrl: r.artworkUrl || null,
  storeCount: r.storeCount,
  submittedAt: r.submittedAt,
  review: reviewJson(r),
  // Catalog's word (the versions): the route adds them.
  version: null,
  changes: [],
});

export const deadLetterJson = (j: delivery.DeliveryJob): DeadLetterJson => ({
  releaseId: j.releaseId,
  target: j.target,
  storeName: storeName(j.target),
  jobKind: j.jobKind,
  attempts: j.attempts,
  reason: j.reason || null,
  failedAt: j.updatedAt,
});
