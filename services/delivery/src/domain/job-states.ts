// Every status a delivery job can be in, what it means to the pipeline, and where it may go next: the one
// table of a job's life. The jobs repository (store/jobs.ts) checks every status change against `next`
// before it writes, and every list of statuses the pipeline needs (what the worker may claim, what a
// takedown waits for, what a resubmission holds again, what counts as gone) is read from the traits here,
// not written out again where it is used.
import type { StoreStatus } from '@omni/proto/api';

export type JobStatus = StoreStatus;

interface JobState {
  /** The statuses a job in this one may move to (itself included where a move keeps the status). */
  next: readonly JobStatus[];
  /** The worker may claim it when due: it has work to do now (a lease-expired packaging is resumed). */
  claimable?: boolean;
  /** A batch for the store is being made or waits for the store's answer: a takedown waits for it. */
  inFlight?: boolean;
  /** The current message is done with (answered, refused or given up): a pending takedown may start. */
  settled?: boolean;
  /** A resubmission holds it again until the next approval (a job in flight finishes first). */
  reheld?: boolean;
  /** The store has, or is getting, nothing more of the release. */
  gone?: boolean;
}

export const JOB_STATES: Readonly<Record<JobStatus, JobState>> = {
  // Waiting: held for the review, or due for the worker. A takedown of a job that never left ends here.
  queued: { next: ['packaging', 'queued', 'taken_down', 'purged'], claimable: true, reheld: true },
  packaging: { next: ['sent', 'failed'], claimable: true, inFlight: true },
  sent: { next: ['acknowledged', 'rejected', 'failed', 'taken_down', 'purged'], inFlight: true },
  // Ingested; live once the release date comes (the worker claims it then), or queued for a removal.
  acknowledged: { next: ['live', 'queued'], claimable: true, settled: true, reheld: true },
  live: { next: ['queued'], settled: true, reheld: true },
  // Retried at its back-off (claimable when due), or dead-lettered until an admin replays it.
  failed: { next: ['packaging', 'queued', 'failed'], claimable: true, settled: true, reheld: true },
  rejected: { next: ['queued'], settled: true, reheld: true },
  // Released again (re-release) or purged (a purge is queued first, as any message to the store).
  taken_down: { next: ['queued'], gone: true },
  purged: { next: [], gone: true },
};

const STATUSES = Object.keys(JOB_STATES) as JobStatus[];

/** The statuses with a trait, e.g. `statusesWhere('claimable')`. */
export const statusesWhere = (trait: Exclude<keyof JobState, 'next'>): JobStatus[] =>
  STATUSES.filter((s) => JOB_STATES[s][trait] === true);

export const isGone = (status: JobStatus) => JOB_STATES[status].gone === true;

/** Whether a job may move from `from` to `to`. */
export const mayMove = (from: JobStatus, to: JobStatus) => JOB_STATES[from].next.includes(to);

/** A change the table does not allow: a bug in the caller, never a user's mistake. */
export class IllegalJobMove extends Error {
  override name = 'IllegalJobMove';
  constructor(from: JobStatus, to: JobStatus) {
    super(`a delivery job cannot move from ${from} to ${to}`);
  }
}
