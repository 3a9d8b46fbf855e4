// Reading a store's acknowledgements for its sent jobs: the folder is listed ONCE per store per tick, then
// each job whose `ACK_<batchId>_<messageId>.xml` is there moves on. FileOK + SuccessfullyIngested →
// acknowledged (taken_down / purged for those kinds); ProcessingError with ManualCheckRequired → rejected
// with the store's words; anything else → failed and resent as a new batch after backoff. Every move is
// conditional on the job still being `sent` with that batch id, so an ack seen twice changes nothing.
// Once its move is committed, the ack is moved to the folder's `processed/` (transport.archiveAcknowledgement):
// the folder listed every tick then holds only unanswered batches' acks, not every ack ever written, so a
// tick's listing does not grow with the number of releases delivered. An ack no waiting job takes (a late
// answer to a batch already given up on, or a crash between a job's move and the archive) is archived once
// its batch is older than the ack timeout, when no job can be waiting for it any more.
import { ackFileName, type StoreAcknowledgement } from '../domain/ack/model';
import type { JobDoc } from '../domain/job';
import type { StoreProfile } from '../domain/stores/profile';
import { JOBS } from '../store/jobs';
import { failJob } from './fail';
import { batchTime } from './package';
import type { PipelineContext } from './pipeline-context';
import { startPendingKind } from './settle';
import { moveJob } from './transition';

const DONE_BY_KIND = { ingest: 'acknowledged', takedown: 'taken_down', purge: 'purged' } as const;

export async function readAcknowledgements(
  ctx: PipelineContext,
  profile: StoreProfile,
  sent: readonly JobDoc[],
  options: { rotate: boolean } = { rotate: true },
): Promise<void> {
  const transport = ctx.transportFor(profile);
  let names: Set<string>;
  try {
    names = new Set((await transport.listAcknowledgements()).map((a) => a.name));
  } catch (err) {
    ctx.logger.warn({ store: profile.key, err: (err as Error).message }, 'reading acknowledgements failed');
    names = new Set();
  }
  const waiting: string[] = [];
  const taken = new Set<string>();
  for (const job of sent) {
    const name = job.batchId && job.messageId ? ackFileName(job.batchId, job.messageId) : null;
    if (!name || !names.has(name)) {
      if (await timedOut(ctx, profile, job)) continue;
      waiting.push(job._id);
      continue;
    }
    taken.add(name);
    try {
      const ack = ctx.parseAcknowledgement((await transport.getAcknowledgement(name)).toString('utf8'));
      await applyAcknowledgement(ctx, job, ack);
    } catch (err) {
      ctx.logger.warn({ job: job._id, ack: name, err: (err as Error).message }, 'acknowledgement unreadable');
      waiting.push(job._id);
      continue;
    }
    await archive(ctx, profile, name);
  }
  for (const name of names) {
    const batchId = ACK_BATCH.exec(name)?.[1];
    if (taken.has(name) || !batchId) continue;
    if (ctx.now().getTime() - Date.parse(batchTime(batchId)) > ctx.ackTimeoutMs)
      await archive(ctx, profile, name);
  }
  if (options.rotate && waiting.length > 0) {
    // The worker's page was full: the waiting jobs go behind the others; one write for the store's.
    await ctx.store
      .collection<JobDoc>(JOBS)
      .updateMany(
        { _id: { $in: waiting }, status: 'sent' },
        { $set: { dueAt: new Date(ctx.now().getTime() + ctx.pollMs).toISOString() } },
      );
  }
}

const ACK_BATCH = /^ACK_(\d{17})_/;

async function archive(ctx: PipelineContext, profile: StoreProfile, name: string): Promise<void> {
  try {
    await ctx.transportFor(profile).archiveAcknowledgement(name);
  } catch (err) {
    // Harmless: the ack stays listed one more tick (a job it moved ignores it) and is archived later.
    ctx.logger.warn(
      { store: profile.key, ack: name, err: (err as Error).message },
      'archiving an ack failed',
    );
  }
}

/**
 * A batch the store never answers (lost, or ignored) must not leave the job `sent` for ever: after
 * ackTimeoutMs it is a failed attempt, resent as a new batch after backoff; an acknowledgement of the old
 * batch arriving later changes nothing (every move is conditional on the job's batch id).
 */
async function timedOut(ctx: PipelineContext, profile: StoreProfile, job: JobDoc): Promise<boolean> {
  const sentAt = [...job.steps].reverse().find((s) => s.status === 'sent')?.at;
  if (!sentAt || ctx.now().getTime() - Date.parse(sentAt) < ctx.ackTimeoutMs) return false;
  const hours = ctx.ackTimeoutMs / 3_600_000;
  const wait = hours >= 1 ? `${+hours.toFixed(1)} h` : `${+(ctx.ackTimeoutMs / 1000).toFixed(1)} s`;
  const fresh = await ctx.store
    .collection<JobDoc>(JOBS)
    .findOne({ _id: job._id, status: 'sent', batchId: job.batchId ?? '' });
  if (fresh)
    await startPendingKind(
      ctx,
      await failJob(
        ctx,
        fresh,
        'sent',
        `${profile.name} did not acknowledge batch ${job.batchId} within ${wait}.`,
        true,
      ),
    );
  return true;
}

export async function applyAcknowledgement(
  ctx: PipelineContext,
  job: JobDoc,
  ack: StoreAcknowledgement,
): Promise<void> {
  const where = { batchId: job.batchId ?? '' };
  const ok = ack.fileStatus === 'FileOK' && ack.releaseStatus === 'SuccessfullyIngestedByReleaseDistributor';
  if (ok) {
    const to = DONE_BY_KIND[job.jobKind];
    const now = ctx.now().toISOString();
    const liveDue = to === 'acknowledged' ? { dueAt: job.liveAt && job.liveAt > now ? job.liveAt : now } : {};
    const moved = await moveJob(ctx, job, {
      from: 'sent',
      to,
      where,
      set: { ...liveDue, attempts: job.attempts },
      unset: ['reason', 'nextAttemptAt', ...(to === 'acknowledged' ? [] : ['dueAt'])],
    });
    // A takedown asked meanwhile waits for the live promotion only if the release is not yet due.
    if (to !== 'acknowledged') await startPendingKind(ctx, moved);
    else if (moved?.pendingKind) await startPendingKind(ctx, moved);
    return;
  }
  const words = ack.errorText || `the store answered ${ack.fileStatus} / ${ack.releaseStatus}`;
  if (ack.releaseStatus === 'ProcessingErrorAtReleaseDistributor' && ack.manualCheckRequired) {
    const moved = await moveJob(ctx, job, {
      from: 'sent',
      to: 'rejected',
      where,
      set: { reason: words },
      unset: ['dueAt'],
    });
    await startPendingKind(ctx, moved);
    return;
  }
  const fresh = await ctx.store.collection<JobDoc>(JOBS).findOne({ _id: job._id, status: 'sent', ...where });
  if (fresh) await startPendingKind(ctx, await failJob(ctx, fresh, 'sent', words, true));
}
