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
  /** The worker or the store will move it on by itself (unless it is dead-lettered). */
  moving?: boolean;
}

export const JOB_STATES: Readonly<Record<JobStatus, JobState>> = {
  // Waiting: held for the review, or due for the worker. A takedown of a job that never left ends here.
  queued: { next: ['packaging', 'queued', 'taken_down', 'purged'], claimable: true, reheld: true },
  packaging: { next: ['sent', 'failed'], claimable: true, inFlight: true, moving: true },
  sent: {
    next: ['acknowledged', 'rejected', 'failed', 'taken_down', 'purged'],
    inFlight: true,
    moving: true,
  },
  // Ingested; live once the release date comes (the worker claims it then), or queued for a removal.
  acknowledged: { next: ['live', 'queued'], claimable: true, settled: true, reheld: true },
  live: { next: ['queued'], settled: true, reheld: true },
  // Retried at its back-off (claimable when due), or dead-lettered until an admin replays it.
  failed: {
    next: ['packaging', 'queued', 'failed'],
    claimable: true,
    settled: true,
    reheld: true,
    moving: true,
  },
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

/** What `stillMoving` reads of a job. */
interface MovingJob {
  status: JobStatus;
  jobKind: string;
  held: boolean;
  deadLettered: boolean;
  liveAt?: string;
}

/**
 * Whether something about the release will change without anyone acting: a review waiting for an admin
 * (the artist's page shows the approval at once), a job the worker or a store is moving, a job queued
 * after approval, or an acknowledged release whose date has come (the worker marks it live). A
 * dead-lettered job waits for an admin's replay and a job acknowledged before its release date waits for
 * the calendar: neither keeps the page listening.
 */
export function stillMoving(review: string | null, jobs: readonly MovingJob[], now: string): boolean {
  if (review === 'in_review') return true;
  return jobs.some((j) => {
    if (j.deadLettered) return false;
    if (JOB_STATES[j.status].moving) return true;
    if (j.status === 'acknowledged' && j.jobKind === 'ingest') return !j.liveAt || j.liveAt <= now;
    return j.status === 'queued' && !j.held;
  });
}
