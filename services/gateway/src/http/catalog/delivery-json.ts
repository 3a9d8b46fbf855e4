// Delivery's gRPC answers → the delivery JSON of the API contract (proto/api/delivery.ts): store names from
// the platform list, empty strings as null, and `moving` (delivery's word, or delivery not caught up yet),
// which says whether the release page should keep listening.
import type { delivery } from '@omni/proto';
import {
  type DeadLetterJson,
  type DeliveryJobJson,
  type FingerprintEvidence,
  PLATFORMS,
  RELEASE_STATUSES,
  type ReleaseDeliveryJson,
  type ReleaseStatus,
  type ReviewJson,
  type ReviewQueueItem,
} from '@omni/proto/api';
import { artistFinding } from './artist-findings';

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

const DECISIONS = ['hold', 'look-at', 'same-owner-duplicate'] as const;

/** The rights check's evidence, as the REST contract has it (an unknown decision reads as a look-at). */
const fingerprintEvidenceJson = (m: delivery.FingerprintEvidence): FingerprintEvidence => ({
  releaseId: m.releaseId,
  track: m.track,
  title: m.title,
  score: m.score,
  offsetSeconds: m.offsetSeconds,
  speed: m.speed,
  decision: (DECISIONS as readonly string[]).includes(m.decision)
    ? (m.decision as FingerprintEvidence['decision'])
    : 'look-at',
  uploadTrack: m.uploadTrack,
});

export const reviewJson = (r: delivery.Review): ReviewJson => ({
  status: r.status as ReviewJson['status'],
  findings: r.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity === 'error' ? 'error' : 'warning',
    stores: f.stores,
    message: f.message,
    ...(f.match ? { match: fingerprintEvidenceJson(f.match) } : {}),
  })),
  reason: r.reason || null,
  submittedAt: r.submittedAt,
  decidedAt: r.decidedAt || null,
  proofs: r.proofs.map((p) => ({
    id: p.id,
    note: p.note,
    fileName: p.fileName,
    contentType: p.contentType as ReviewJson['proofs'][number]['contentType'],
    size: p.size,
    submittedAt: p.submittedAt,
    // The owner's route; the admin's page uses /api/admin/releases/… (http/delivery/rights-proofs.ts).
    downloadUrl: `/api/releases/${r.releaseId}/rights-proofs/${p.id}/file`,
  })),
});

/** What catalog says of a release that delivery may not have caught up with yet. */
export interface ReleaseFacts {
  /** Its chosen stores: one job each once delivery wrote them. */
  expectedJobs: number;
}

export function releaseDeliveryJson(
  releaseId: string,
  res: delivery.ListJobsResponse,
  facts: ReleaseFacts,
): ReleaseDeliveryJson {
  const jobs = res.jobs.map(jobJson);
  const found = res.review ? reviewJson(res.review) : null;
  // The artist's page (and its stream): another artist's release is never named to them.
  const review = found && { ...found, findings: found.findings.map(artistFinding) };
  const releaseStatus = asReleaseStatus(res.summary?.releaseStatus);
  return {
    releaseId,
    releaseStatus,
    review,
    jobs,
    // Delivery says whether its side still moves; until it has written the release's jobs (it learns of a
    // new release from catalog's event, a moment after catalog answered), the page keeps listening too.
    moving: res.moving || jobs.length < facts.expectedJobs,
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
