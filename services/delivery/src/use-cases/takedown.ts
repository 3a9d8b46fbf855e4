// Takedown (owner or admin) and purge (admin): the same job document gets the new kind, so the store
// receives it after anything already sent for the release. A job whose ingest is in flight (packaging or
// sent) keeps going and the new kind waits in `pendingKind` (use-cases/settle.ts); a store that never got
// anything (queued, no batch yet) is done at once.
import { fail } from '@omni/platform';
import { DELIVERY_MESSAGES, type JobKind } from '@omni/proto/api';
import type { JobDoc, JobStatus } from '../domain/job';
import { statusesWhere } from '../domain/job-states';
import type { PipelineContext } from './pipeline-context';
import { moveJob } from './transition';

const SETTLED = statusesWhere('settled');
const IN_FLIGHT = statusesWhere('inFlight');
const DONE: Record<'takedown' | 'purge', JobStatus> = { takedown: 'taken_down', purge: 'purged' };

function eligible(job: JobDoc, kind: 'takedown' | 'purge'): boolean {
  if (job.held && job.status === 'queued') return false;
  if (job.jobKind === kind || job.pendingKind === kind) return false;
  if (job.status === 'purged') return false;
  if (job.status === 'taken_down') return kind === 'purge';
  if (job.status === 'rejected') return kind === 'purge';
  return true;
}

export async function queueRemoval(
  ctx: PipelineContext,
  input: { releaseId: string; stores: readonly string[]; kind: 'takedown' | 'purge' },
): Promise<JobDoc[]> {
  const jobs = await ctx.jobs.forRelease(input.releaseId);
  const wanted = [...new Set(input.stores)];
  const known = new Set(jobs.map((j) => j.target));
  const stranger = wanted.find((s) => !known.has(s));
  if (stranger) throw fail('store_not_in_release', `${DELIVERY_MESSAGES.storeNotInRelease} (${stranger})`);
  const chosen = jobs.filter(
    (j) => (wanted.length === 0 || wanted.includes(j.target)) && eligible(j, input.kind),
  );
  if (chosen.length === 0) throw fail('nothing_to_take_down', DELIVERY_MESSAGES.nothingToTakeDown);
  const changed: JobDoc[] = [];
  for (const job of chosen) {
    const next = await removeOne(ctx, job, input.kind);
    if (next) changed.push(next);
  }
  return changed;
}

async function removeOne(ctx: PipelineContext, job: JobDoc, kind: JobKind & ('takedown' | 'purge')) {
  // A status can change under us (the worker moves jobs); each branch is conditional, so try the current
  // state a few times.
  let current: JobDoc | null = job;
  for (let tries = 0; tries < 3 && current; tries++) {
    const now = ctx.now().toISOString();
    const leased = current.lease && current.lease.until > now;
    if (IN_FLIGHT.includes(current.status) || (current.status === 'queued' && leased)) {
      const pending = await ctx.jobs.markPending(current, kind, now);
      if (pending) return pending;
    } else if (current.status === 'queued' && !current.batchId) {
      // Nothing was ever written to the store: nothing to remove there.
      const done = await moveJob(ctx, current, {
        from: 'queued',
        to: DONE[kind],
        where: { batchId: { $exists: false } },
        set: { jobKind: kind },
        unset: ['dueAt', 'pendingKind', 'reason'],
      });
      if (done) return done;
    } else {
      const queued = await moveJob(ctx, current, {
        from: [...SETTLED, 'queued', 'taken_down'],
        to: 'queued',
        set: { jobKind: kind, dueAt: now, attempts: 0, deadLettered: false, held: false },
        unset: ['pendingKind', 'reason', 'nextAttemptAt'],
      });
      if (queued) return queued;
    }
    current = await ctx.jobs.get(job._id);
  }
  return null;
}

/**
 * Release again to stores it was taken down from (issue 21 §3.6): the same job document goes back to the
 * queue as an ingest, so the store gets a new NewReleaseMessage in a new batch, after the takedown's. Only
 * taken-down stores qualify (a purged release is gone; a live one has nothing to redo).
 */
export async function queueReRelease(
  ctx: PipelineContext,
  input: { releaseId: string; stores: readonly string[] },
): Promise<JobDoc[]> {
  const jobs = await ctx.jobs.forRelease(input.releaseId);
  const wanted = [...new Set(input.stores)];
  const known = new Set(jobs.map((j) => j.target));
  const stranger = wanted.find((s) => !known.has(s));
  if (stranger) throw fail('store_not_in_release', `${DELIVERY_MESSAGES.storeNotInRelease} (${stranger})`);
  const chosen = jobs.filter(
    (j) => (wanted.length === 0 || wanted.includes(j.target)) && j.status === 'taken_down' && !j.pendingKind,
  );
  if (chosen.length === 0) throw fail('nothing_to_rerelease', DELIVERY_MESSAGES.nothingToReRelease);
  const changed: JobDoc[] = [];
  for (const job of chosen) {
    const queued = await moveJob(ctx, job, {
      from: 'taken_down',
      to: 'queued',
      set: {
        jobKind: 'ingest',
        dueAt: ctx.now().toISOString(),
        attempts: 0,
        deadLettered: false,
        held: false,
      },
      unset: ['pendingKind', 'reason', 'nextAttemptAt'],
    });
    if (queued) changed.push(queued);
  }
  return changed;
}

/** An admin's replay of a dead-lettered job: attempts reset, due now, same kind. */
export async function replayDeadLetter(
  ctx: PipelineContext,
  releaseId: string,
  target: string,
): Promise<JobDoc> {
  const found = await ctx.jobs.ofStore(releaseId, target);
  const job = found?.deadLettered ? found : null;
  if (!job) throw fail('dead_letter_not_found', DELIVERY_MESSAGES.deadLetterNotFound);
  const next = await moveJob(ctx, job, {
    from: 'failed',
    to: 'queued',
    where: { deadLettered: true },
    set: { attempts: 0, deadLettered: false, dueAt: ctx.now().toISOString() },
    unset: ['nextAttemptAt'],
  });
  if (!next) throw fail('dead_letter_not_found', DELIVERY_MESSAGES.deadLetterNotFound);
  return next;
}
