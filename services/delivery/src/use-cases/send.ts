// One claimed job, moved as far as it can go now: queued/failed → packaging (a new attempt) → the batch
// made and persisted → transport.deliver (files first, BatchComplete last) → sent, waiting for the
// store's acknowledgement. An acknowledged ingest whose release date has come goes live.
import type { JobDoc } from '../domain/job';
import { PackageError } from '../domain/package/release-input';
import { TransportError } from '../providers/transport/port';
import { ackDeadline } from './acknowledge';
import { failJob } from './fail';
import { LostLease, packageJob } from './package';
import type { PipelineContext } from './pipeline-context';
import { startPendingKind } from './settle';
import { moveJob } from './transition';

export async function runJob(ctx: PipelineContext, claimed: JobDoc): Promise<void> {
  if (claimed.status === 'acknowledged') return promoteLive(ctx, claimed);
  let job: JobDoc | null = claimed;
  if (claimed.status === 'queued' || claimed.status === 'failed') {
    job = await moveJob(ctx, claimed, {
      from: claimed.status,
      to: 'packaging',
      leased: true,
      set: { attempts: (claimed.attempts ?? 0) + 1 },
      unset: ['batchId', 'messageId', 'nextAttemptAt'],
    });
    if (!job) return;
  }
  if (job.status !== 'packaging') return;
  const profile = ctx.profileOf(job.target);
  if (!profile) {
    await failJob(ctx, job, 'packaging', `store "${job.target}" is not in the store registry`, false);
    return;
  }
  try {
    const batch = await packageJob(ctx, job, profile);
    const report = await ctx.transportFor(profile).deliver(batch);
    ctx.logger.debug({ job: job._id, batchId: batch.batchId, sent: report.sent.length }, 'batch delivered');
    await moveJob(ctx, job, {
      from: 'packaging',
      to: 'sent',
      leased: true,
      set: { dueAt: ackDeadline(ctx, ctx.now().toISOString()) },
      unset: ['lease', 'reason'],
    });
  } catch (err) {
    if (err instanceof LostLease) return;
    const ours = !(err instanceof TransportError || err instanceof PackageError);
    const retryable = err instanceof TransportError ? err.retryable : ours ? 'ours' : false;
    // Our own fault (a worker restarting, a peer down) is logged with its cause for us, and told to the
    // artist in words: the store job page is theirs, "validator exited (code 1)" is not.
    if (ours) ctx.logger.error({ err, job: job._id }, 'delivery job failed for an internal reason');
    const reason = ours
      ? `We could not prepare your release for ${profile.name}; we are retrying.`
      : err instanceof Error
        ? err.message
        : String(err);
    const fresh = (await ctx.jobs.get(job._id)) ?? job;
    if (fresh.lease?.owner !== ctx.workerId || fresh.status !== 'packaging') return;
    await startPendingKind(ctx, await failJob(ctx, fresh, 'packaging', reason, retryable));
  }
}

async function promoteLive(ctx: PipelineContext, job: JobDoc): Promise<void> {
  const now = ctx.now();
  if (job.jobKind !== 'ingest') return;
  if (job.liveAt && new Date(job.liveAt) > now) {
    // Not yet: come back on the release date.
    await ctx.jobs.postponeLive(job, ctx.workerId, job.liveAt);
    return;
  }
  await startPendingKind(
    ctx,
    await moveJob(ctx, job, { from: 'acknowledged', to: 'live', leased: true, unset: ['lease', 'dueAt'] }),
  );
}
