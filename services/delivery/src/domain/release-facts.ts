// What delivery tells the rest of the platform about a release (`delivery.updated`): its rolled-up status,
// its review, whether a store has it, whether one has it live, which stores refused it and whether the
// artist may resubmit. Worked out here once, from the review, the release's job counts and the job changes
// of one transaction; announced only when they differ from what was last announced (store/release-counts.ts
// keeps that), so consumers see one event per change of the release, not one per store's step.
import type { events } from '@omni/proto';
import type { JobKind, ReleaseStatus, ReviewStatus } from '@omni/proto/api';
import type { JobStatus } from './job-states';
import { type JobCounts, rollUpReleaseStatus } from './release-status';

export type Refusal = events.EventData<'delivery.updated'>['refusals'][number];

export interface ReleaseFacts {
  review: ReviewStatus | null;
  releaseStatus: ReleaseStatus;
  reachedStores: boolean;
  live: boolean;
  /** Sorted by store. */
  refusals: Refusal[];
  canResubmit: boolean;
}

/** One job's change in a transaction (created: no before; deleted: no after). */
export interface JobChange {
  target: string;
  jobKind: JobKind;
  before: JobStatus | null;
  after: JobStatus | null;
  reason: string | null;
}

/** The statuses a job reaches only once the store has been sent a message. */
const AFTER_SENDING: readonly JobStatus[] = ['sent', 'acknowledged', 'live', 'rejected'];

const countedIn = (counts: JobCounts, test: (status: string, kind: string) => boolean) =>
  Object.entries(counts).some(([key, n]) => {
    const [status = '', kind = ''] = key.split(':');
    return n > 0 && test(status, kind);
  });

/**
 * What is known before any announcement (a release whose jobs predate the facts): whether a store got it,
 * from the counts, and its refusals as read from its rejected jobs.
 */
export function factsFromCounts(counts: JobCounts, refusals: Refusal[]): Omit<ReleaseFacts, 'review'> {
  return {
    releaseStatus: 'draft',
    reachedStores: countedIn(counts, (status) => (AFTER_SENDING as string[]).includes(status)),
    live: false,
    refusals: sortRefusals(refusals),
    canResubmit: false,
  };
}

export function nextFacts(
  previous: Omit<ReleaseFacts, 'review'> & { review?: ReviewStatus | null },
  input: { review: ReviewStatus | null; counts: JobCounts; changes: readonly JobChange[] },
): ReleaseFacts {
  const refusals = new Map(previous.refusals.map((r) => [r.store, r]));
  for (const c of input.changes) {
    if (c.after === 'rejected' && c.jobKind === 'ingest')
      refusals.set(c.target, { store: c.target, reason: c.reason ?? '' });
    else if (c.before === 'rejected' || c.after === null) refusals.delete(c.target);
  }
  const releaseStatus = rollUpReleaseStatus({ review: input.review, counts: input.counts });
  const list = sortRefusals([...refusals.values()]);
  return {
    review: input.review,
    releaseStatus,
    reachedStores:
      previous.reachedStores ||
      input.changes.some((c) => c.after !== null && (AFTER_SENDING as string[]).includes(c.after)),
    live: countedIn(input.counts, (status, kind) => status === 'live' && kind === 'ingest'),
    refusals: list,
    canResubmit: releaseStatus === 'rejected' || (input.review !== 'in_review' && list.length > 0),
  };
}

export function sameFacts(a: ReleaseFacts | undefined, b: ReleaseFacts): boolean {
  if (!a) return false;
  return (
    a.review === b.review &&
    a.releaseStatus === b.releaseStatus &&
    a.reachedStores === b.reachedStores &&
    a.live === b.live &&
    a.canResubmit === b.canResubmit &&
    a.refusals.length === b.refusals.length &&
    a.refusals.every((r, i) => r.store === b.refusals[i]?.store && r.reason === b.refusals[i]?.reason)
  );
}

const sortRefusals = (list: Refusal[]) => [...list].sort((x, y) => (x.store < y.store ? -1 : 1));
