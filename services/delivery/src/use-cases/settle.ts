// After an ingest settles (acknowledged, live, rejected, dead-lettered), a takedown or purge that was asked
// while it was in flight starts: one job per (release, store), so the later message never overtakes the
// earlier one at the store (stores ingest batches in batch-id order).
import type { JobDoc } from '../domain/job';
import { statusesWhere } from '../domain/job-states';
import type { PipelineContext } from './pipeline-context';
import { moveJob } from './transition';

const SETTLED = statusesWhere('settled');

export async function startPendingKind(ctx: PipelineContext, job: JobDoc | null): Promise<JobDoc | null> {
  if (!job?.pendingKind) return job;
  if (job.status === 'failed' && !job.deadLettered && job.jobKind === job.pendingKind) return job;
  return moveJob(ctx, job, {
    from: SETTLED,
    to: 'queued',
    where: { pendingKind: job.pendingKind },
    set: {
      jobKind: job.pendingKind,
      dueAt: ctx.now().toISOString(),
      attempts: 0,
      deadLettered: false,
    },
    unset: ['pendingKind', 'reason', 'nextAttemptAt', 'lease'],
  });
}
