// A delivery job: one per release and store (spec §3 delivery_jobs). Created `queued` with kind
// `ingest` from `release.created`; packaging (DDEX), sending, retries and takedowns move it on later.
import type { Doc } from '@omni/platform';
import type { delivery } from '@omni/proto';

export type JobStatus = 'queued';
export type JobKind = 'ingest';

export interface JobDoc extends Doc {
  releaseId: string;
  ownerId: string;
  /** Platform key. */
  target: string;
  /** Index in the release's store list, so jobs list in the order the stores were given. */
  position: number;
  status: JobStatus;
  jobKind: JobKind;
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
    reason: '',
    attempts: 0,
    nextAttemptAt: '',
    deadLettered: false,
    steps: [{ status: j.status, at: j.createdAt }],
    messageId: '',
    batchId: '',
  };
}

export function summarize(releaseId: string, jobs: readonly JobDoc[]): delivery.DeliverySummary {
  const byStatus: Record<string, number> = {};
  for (const job of jobs) byStatus[job.status] = (byStatus[job.status] ?? 0) + 1;
  return { releaseId, total: jobs.length, byStatus, releaseStatus: 'draft' };
}
