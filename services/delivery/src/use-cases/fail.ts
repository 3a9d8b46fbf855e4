// A failed attempt: back off (full jitter) and try again with a new batch, or, when the attempts are spent
// or the failure needs a person (a refused login, a message that does not validate), dead-letter the job.
// A failure of our own (a worker restarting, a peer service down) is never the artist's to fix and never
// spends the job: it is retried at the policy's back-off for as long as it lasts.
import type { JobDoc, JobStatus } from '../domain/job';
import { nextRetry } from '../domain/retry';
import type { PipelineContext } from './pipeline-context';
import { moveJob } from './transition';

export async function failJob(
  ctx: PipelineContext,
  job: JobDoc,
  from: JobStatus,
  reason: string,
  retryable: boolean | 'ours',
): Promise<JobDoc | null> {
  const attempts = retryable === 'ours' ? Math.min(job.attempts, ctx.retry.maxAttempts - 1) : job.attempts;
  const decision = nextRetry(ctx.retry, Math.max(1, attempts), retryable !== false);
  if (decision.kind === 'dead-letter') {
    ctx.logger.warn({ job: job._id, attempts: job.attempts, reason }, 'delivery job dead-lettered');
    return moveJob(ctx, job, {
      from,
      to: 'failed',
      set: { reason, deadLettered: true },
      unset: ['dueAt', 'nextAttemptAt', 'lease'],
    });
  }
  const at = new Date(ctx.now().getTime() + decision.delayMs).toISOString();
  ctx.logger.info(
    { job: job._id, attempts: job.attempts, retryInMs: decision.delayMs, reason },
    'delivery job failed, will retry',
  );
  return moveJob(ctx, job, {
    from,
    to: 'failed',
    set: { reason, deadLettered: false, dueAt: at, nextAttemptAt: at },
    unset: ['lease'],
  });
}
