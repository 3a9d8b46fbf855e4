// A job's status change as the pipeline asks for it: the jobs repository checks it against the table of a
// job's life and writes it with the release's counts and announcement in one transaction
// (store/jobs.ts move); the outbox is then relayed at once so open pages see it. A change that lost a
// race returns null and announces nothing.
import type { JobDoc } from '../domain/job';
import type { Move } from '../store/jobs';
import type { PipelineContext } from './pipeline-context';

export type { Move };

export async function moveJob(
  ctx: PipelineContext,
  job: JobDoc,
  move: Omit<Move, 'leasedBy'> & { leased?: boolean },
): Promise<JobDoc | null> {
  const { leased, ...rest } = move;
  const moved = await ctx.jobs.move(
    job,
    { ...rest, ...(leased ? { leasedBy: ctx.workerId } : {}) },
    ctx.now().toISOString(),
  );
  if (moved) ctx.relay();
  return moved;
}
