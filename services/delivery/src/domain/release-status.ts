// The release's status, rolled up from its review and its store jobs (shared/design/delivery.md,
// "Statuses artists see"): draft → in_review → delivering → live, or rejected; taken_down when every
// store has taken it down (or purged it). One pure function, so the event, the page and catalog agree.
// It reads the release's jobs COUNTED by (status, kind, held), not the jobs themselves: the pipeline keeps
// those counts per release (store/release-counts.ts), so a transition costs the same for 1 store or 142.
import type { JobKind, ReleaseStatus, ReviewStatus, StoreStatus } from '@omni/proto/api';

/** What the roll-up (and the counts) know of a job. */
export interface JobShape {
  status: StoreStatus;
  jobKind: JobKind;
  held: boolean;
}

/**
 * A release's jobs counted by shape: `"<status>:<kind>:held|free"` → how many (absent or 0: none). A flat
 * key, so a change is one `$inc` of two fields.
 */
export type JobCounts = Readonly<Record<string, number>>;

export const countKey = (job: JobShape): string =>
  `${job.status}:${job.jobKind}:${job.held ? 'held' : 'free'}`;

function shapeOf(key: string): JobShape {
  const [status, jobKind, held] = key.split(':');
  return { status: status as StoreStatus, jobKind: jobKind as JobKind, held: held === 'held' };
}

export function countJobs(jobs: Iterable<JobShape>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const job of jobs) counts[countKey(job)] = (counts[countKey(job)] ?? 0) + 1;
  return counts;
}

/** What `before` → `after` changes in the counts (jobs created have no before, jobs deleted no after). */
export function countsDelta(before: readonly JobShape[], after: readonly JobShape[]): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const job of before) delta[countKey(job)] = (delta[countKey(job)] ?? 0) - 1;
  for (const job of after) delta[countKey(job)] = (delta[countKey(job)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(delta).filter(([, n]) => n !== 0));
}

/** The counted shapes with how many of each (zero entries left out). */
function entries(counts: JobCounts): Array<[JobShape, number]> {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => [shapeOf(key), n]);
}

/** How many jobs the counts hold in each status (kinds and holds together), and in all. */
export function countsByStatus(counts: JobCounts): { byStatus: Record<string, number>; total: number } {
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const [job, n] of entries(counts)) {
    byStatus[job.status] = (byStatus[job.status] ?? 0) + n;
    total += n;
  }
  return { byStatus, total };
}

export function anyHeld(counts: JobCounts): boolean {
  return entries(counts).some(([job]) => job.held);
}

/**
 * The review a release's roll-up goes by, from its review document's status (undefined: none). A release
 * with no review document but jobs, none of them held, predates the review (its jobs were released by an
 * older version or by hand), so it counts as approved; with held jobs or no jobs yet it waits (draft).
 * One rule for the pipeline's events and for the pages that read the jobs, so both say the same.
 */
export function reviewForRollUp(review: ReviewStatus | undefined, counts: JobCounts): ReviewStatus | null {
  if (review) return review;
  return entries(counts).length > 0 && !anyHeld(counts) ? 'approved' : null;
}

const GONE: ReadonlySet<StoreStatus> = new Set(['taken_down', 'purged']);

export interface RollupInput {
  /** null before delivery has reviewed anything (the release was only just created). */
  review: ReviewStatus | null;
  counts: JobCounts;
}

export function rollUpReleaseStatus({ review, counts }: RollupInput): ReleaseStatus {
  if (review === null) return 'draft';
  if (review === 'in_review') return 'in_review';
  // A rejected review keeps the release rejected until it is resubmitted (jobs stay held meanwhile).
  if (review === 'rejected') return 'rejected';
  let total = 0;
  let active = 0;
  let liveIngest = 0;
  let rejected = 0;
  for (const [job, n] of entries(counts)) {
    total += n;
    if (GONE.has(job.status)) continue;
    active += n;
    if (job.status === 'live' && job.jobKind === 'ingest') liveIngest += n;
    if (job.status === 'rejected') rejected += n;
  }
  if (total > 0 && active === 0) return 'taken_down';
  if (active > 0 && liveIngest === active) return 'live';
  // Every store that answered refused it: the artist must act.
  if (active > 0 && rejected === active) return 'rejected';
  return 'delivering';
}
