// Reading a store's acknowledgements: the folder is listed once per store per poll, and each
// `ACK_<batchId>_<messageId>.xml` in it finds its job by message id (an index lookup), never by paging
// through the sent jobs: the work per poll follows the answers that came, not the backlog still waiting.
// FileOK + SuccessfullyIngested → acknowledged (taken_down / purged for those kinds); ProcessingError with
// ManualCheckRequired → rejected with the store's words; anything else → failed and resent as a new batch
// after backoff. Every move is conditional on the job still being `sent` with that batch id, so an ack seen
// twice changes nothing. Once its move is committed, the ack is moved to the folder's `processed/`
// (transport.archiveAcknowledgement): the folder listed every poll then holds only unanswered batches'
// acks, not every ack ever written. An ack no waiting job takes (a late answer to a batch already given up
// on, or a crash between a job's move and the archive) is archived once its batch is older than the ack
// timeout. A sent job's dueAt is its acknowledgement deadline: expireUnanswered reads only those past it.
import type { StoreAcknowledgement } from '../domain/ack/model';
import type { JobDoc } from '../domain/job';
import type { StoreProfile } from '../domain/stores/profile';
import { failJob } from './fail';
import { batchTime } from './package';
import type { PipelineContext } from './pipeline-context';
import { startPendingKind } from './settle';
import { moveJob } from './transition';

const DONE_BY_KIND = { ingest: 'acknowledged', takedown: 'taken_down', purge: 'purged' } as const;

export async function readAcknowledgements(ctx: PipelineContext, profile: StoreProfile): Promise<void> {
  const transport = ctx.transportFor(profile);
  let names: string[];
  try {
    names = (await transport.listAcknowledgements()).map((a) => a.name);
  } catch (err) {
    ctx.logger.warn({ store: profile.key, err: (err as Error).message }, 'reading acknowledgements failed');
    return;
  }
  for (const name of names) {
    const parts = ACK_NAME.exec(name);
    if (!parts) continue;
    const [, batchId, messageId] = parts as unknown as [string, string, string];
    // By message id alone: its index finds the one job (with status and store in the filter the planner
    // may prefer the status+store index and walk the store's sent jobs); the rest is checked here.
    const found = await ctx.jobs.byMessageId(messageId);
    const job =
      found?.status === 'sent' && found.target === profile.key && found.batchId === batchId ? found : null;
    if (!job) {
      // A late answer to a batch already given up on, or a crash between a job's move and the archive:
      // kept until no job can be waiting for it any more.
      if (ctx.now().getTime() - Date.parse(batchTime(batchId)) > ctx.ackTimeoutMs)
        await archive(ctx, profile, name);
      continue;
    }
    try {
      const ack = ctx.parseAcknowledgement((await transport.getAcknowledgement(name)).toString('utf8'));
      await applyAcknowledgement(ctx, job, ack);
    } catch (err) {
      // Left in the folder: the job waits (and times out if the store never writes a readable answer).
      ctx.logger.warn({ job: job._id, ack: name, err: (err as Error).message }, 'acknowledgement unreadable');
      continue;
    }
    await archive(ctx, profile, name);
  }
}

/**
 * Sent jobs whose acknowledgement deadline (their dueAt, set when sent) has passed: each becomes a failed
 * attempt. A job sent by an older version carries a near dueAt instead: it gets its real deadline.
 */
export async function expireUnanswered(ctx: PipelineContext, limit: number): Promise<void> {
  const overdue = await ctx.jobs.overdueSent(ctx.now().toISOString(), limit);
  for (const job of overdue) {
    const profile = ctx.profileOf(job.target);
    if (profile && (await timedOut(ctx, profile, job))) continue;
    await ctx.jobs.setAckDeadline(job, ackDeadline(ctx, sentAt(job) ?? ctx.now().toISOString()));
  }
}

/** When a batch sent at `sentAt` counts as unanswered. */
export const ackDeadline = (ctx: PipelineContext, sentAt: string) =>
  new Date(Date.parse(sentAt) + ctx.ackTimeoutMs).toISOString();

const sentAt = (job: JobDoc) => [...job.steps].reverse().find((s) => s.status === 'sent')?.at;

/** `ACK_<batchId>_<messageId>.xml` (ackFileName): the batch id is 17 digits. */
const ACK_NAME = /^ACK_(\d{17})_(.+)\.xml$/;

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
  const at = sentAt(job);
  if (!at || ctx.now().getTime() - Date.parse(at) < ctx.ackTimeoutMs) return false;
  const hours = ctx.ackTimeoutMs / 3_600_000;
  const wait = hours >= 1 ? `${+hours.toFixed(1)} h` : `${+(ctx.ackTimeoutMs / 1000).toFixed(1)} s`;
  const fresh = await stillSent(ctx, job);
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
  const fresh = await stillSent(ctx, job);
  if (fresh) await startPendingKind(ctx, await failJob(ctx, fresh, 'sent', words, true));
}

/** The job as it is now if it still waits for the answer to the same batch. */
async function stillSent(ctx: PipelineContext, job: JobDoc): Promise<JobDoc | null> {
  const fresh = await ctx.jobs.get(job._id);
  return fresh?.status === 'sent' && (fresh.batchId ?? '') === (job.batchId ?? '') ? fresh : null;
}
