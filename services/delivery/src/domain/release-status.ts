// The release's status, rolled up from its review and its store jobs (shared/design/delivery.md,
// "Statuses artists see"): draft → in_review → delivering → live, or rejected; taken_down when every
// store has taken it down (or purged it). One pure function, so the event, the page and catalog agree.
import type { ReleaseStatus, ReviewStatus, StoreStatus } from '@omni/proto/api';

export interface RollupInput {
  /** null before delivery has reviewed anything (the release was only just created). */
  review: ReviewStatus | null;
  jobs: ReadonlyArray<{ status: StoreStatus; jobKind: string; held: boolean }>;
}

const GONE: ReadonlySet<StoreStatus> = new Set(['taken_down', 'purged']);

export function rollUpReleaseStatus({ review, jobs }: RollupInput): ReleaseStatus {
  if (review === null) return 'draft';
  if (review === 'in_review') return 'in_review';
  // A rejected review keeps the release rejected until it is resubmitted (jobs stay held meanwhile).
  if (review === 'rejected') return 'rejected';
  if (jobs.length > 0 && jobs.every((j) => GONE.has(j.status))) return 'taken_down';
  const active = jobs.filter((j) => !GONE.has(j.status));
  if (active.length > 0 && active.every((j) => j.status === 'live' && j.jobKind === 'ingest')) return 'live';
  // Every store that answered refused it: the artist must act.
  if (active.length > 0 && active.every((j) => j.status === 'rejected')) return 'rejected';
  return 'delivering';
}
