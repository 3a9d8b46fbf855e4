// Every status change of a job is one transaction: the job's conditional update (it must still be in the
// status it moves from, and still ours when we hold its lease), the release's job counts, and the
// `delivery.updated` event with the release's status rolled up from those counts. A change that lost a
// race updates nothing and announces nothing. The transaction reads two job documents (the job before and
// after), never the release's other jobs.
import type { Filter, Update } from '@omni/platform';
import type { JobDoc, JobStatus } from '../domain/job';
import { rollUpReleaseStatus } from '../domain/release-status';
import { publishDeliveryUpdate } from '../store/delivery-updates';
import { JOBS } from '../store/jobs';
import { ReleaseCounts } from '../store/release-counts';
import { reviewStatusOf } from '../store/review-status';
import type { PipelineContext } from './pipeline-context';

export interface Move {
  /** The status the job must be in for the change to apply. */
  from: JobStatus | readonly JobStatus[];
  /** The new status; also appended to `steps` (unless it is the status the job is already in). */
  to: JobStatus;
  set?: Record<string, unknown>;
  unset?: string[];
  /** Require this worker's lease (a job we claimed). */
  leased?: boolean;
  /** Extra conditions. */
  where?: Filter;
}

export async function moveJob(ctx: PipelineContext, job: JobDoc, move: Move): Promise<JobDoc | null> {
  const at = ctx.now().toISOString();
  const from = Array.isArray(move.from) ? [...move.from] : [move.from as JobStatus];
  const steps = move.to === job.status ? [] : [{ status: move.to, at }];
  const filter: Filter = {
    _id: job._id,
    status: { $in: from },
    ...(move.leased ? { 'lease.owner': ctx.workerId } : {}),
    ...(move.where ?? {}),
  };
  const update: Update = {
    $set: { status: move.to, updatedAt: at, steps: [...job.steps, ...steps], ...(move.set ?? {}) },
    ...(move.unset?.length ? { $unset: Object.fromEntries(move.unset.map((f) => [f, ''])) } : {}),
  };
  const moved = await ctx.store.transaction(async (scope) => {
    // Opened before the change: a release that predates the counts gets them built from its jobs as they
    // were (store/release-counts.ts).
    const counts = await ReleaseCounts.open(scope, job.releaseId);
    const jobs = scope.collection<JobDoc>(JOBS);
    const before = await jobs.findOneAndUpdate(filter, update, { returnDocument: 'before' });
    if (!before) return null;
    const next = await jobs.findById(before._id);
    if (!next) throw new Error(`job ${before._id} vanished inside its own transaction`);
    const tally = await counts.record([before], [next]);
    const review = await reviewStatusOf(scope, job.releaseId, tally);
    await publishDeliveryUpdate(scope, ctx.outbox, {
      releaseId: next.releaseId,
      ownerId: next.ownerId,
      target: next.target,
      jobKind: next.jobKind,
      status: next.status,
      reason: next.reason ?? null,
      releaseStatus: rollUpReleaseStatus({ review, counts: tally }),
      at,
    });
    return next;
  });
  if (moved) ctx.relay();
  return moved;
}
