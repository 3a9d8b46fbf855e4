// A delivery job: one per release and store (spec §3 delivery_jobs), `_id = <releaseId>:<store>`. Created
// `queued` and held from `release.created` until the release's review approves it; the worker then moves
// it queued → packaging → sent → acknowledged → live (or failed / rejected), and a takedown or purge
// re-queues the same document with another `jobKind`. Statuses are the API contract's.
import type { Doc } from '@omni/platform';
import type { delivery } from '@omni/proto';
import type { JobKind, ReleaseStatus, StoreStatus } from '@omni/proto/api';
import { countsByStatus, type JobCounts } from './release-status';

export type JobStatus = StoreStatus;
export type { JobKind };

export interface JobStep {
  status: JobStatus;
  at: string;
}

export interface JobDoc extends Doc {
  releaseId: string;
  ownerId: string;
  /** Platform key. */
  target: string;
  /** Index in the release's store list, so jobs list in the order the stores were given. */
  position: number;
  status: JobStatus;
  jobKind: JobKind;
  /** Waiting for the review's approval: the worker never picks a held job. */
  held: boolean;
  /** When the worker may pick the job (absent = not due: held, or waiting for an acknowledgement). */
  dueAt?: string;
  /** A worker's claim: its id and until when (a crashed worker's claim expires). */
  lease?: { owner: string; until: string };
  /** Sends tried for the current kind (reset by a new kind or a replay). */
  attempts: number;
  nextAttemptAt?: string;
  deadLettered: boolean;
  /** The store's reason for a rejection, or the last failure's. */
  reason?: string;
  /** The last message made for this store, persisted before anything is written to the store. */
  batchId?: string;
  messageId?: string;
  /** When the store may show the release (the release date's start, UTC); set at packaging. */
  liveAt?: string;
  /** The approved version packaging reads (store/versions.ts); absent: catalog is asked (older jobs). */
  versionId?: string;
  /** A takedown or purge asked while this job's ingest was in flight: it starts once the ingest settles. */
  pendingKind?: JobKind;
  /** Every status reached, oldest first. */
  steps: JobStep[];
  /** The event that created the job (for tracing a job back to its cause). */
  eventId: string;
  createdAt: string;
  updatedAt: string;
}

/** One job per (release, store): the id says so, and a unique index enforces it. */
export const jobId = (releaseId: string, target: string) => `${releaseId}:${target}`;

export function jobToProto(j: JobDoc): delivery.DeliveryJob {
  return {
    releaseId: j.releaseId,
    target: j.target,
    status: j.status,
    jobKind: j.jobKind,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
    reason: j.reason ?? '',
    attempts: j.attempts ?? 0,
    nextAttemptAt: j.nextAttemptAt ?? '',
    deadLettered: j.deadLettered ?? false,
    steps: (j.steps ?? [{ status: j.status, at: j.createdAt }]).map((s) => ({ status: s.status, at: s.at })),
    messageId: j.messageId ?? '',
    batchId: j.batchId ?? '',
  };
}

/** A release's summary from its job counts (domain/release-status.ts): how many jobs, by status. */
export function summarize(
  releaseId: string,
  counts: JobCounts,
  releaseStatus: ReleaseStatus,
): delivery.DeliverySummary {
  return { releaseId, ...countsByStatus(counts), releaseStatus };
}
