// Delivery jobs. Queuing a release's jobs is one insertMany inside the consumer's transaction (not one
// write per store): 142 stores cost one commit.
import type { Collection, DocumentStore, TransactionScope } from '@omni/platform';
import { type JobDoc, jobId } from '../domain/job';

export const JOBS = 'delivery_jobs';

export class JobsRepository {
  private readonly jobs: Collection<JobDoc>;

  constructor(store: DocumentStore) {
    this.jobs = store.collection<JobDoc>(JOBS, {
      indexes: [
        // A redelivered or repeated release.created can never make a second job for the same store.
        { fields: { releaseId: 1, target: 1 }, unique: true, name: 'release_target_unique' },
        { fields: { releaseId: 1, position: 1 } },
      ],
    });
  }

  /** Queues one ingest job per store not yet queued for the release; returns how many were created. */
  async queue(
    scope: TransactionScope,
    input: { releaseId: string; ownerId: string; stores: readonly string[]; eventId: string },
  ): Promise<number> {
    const jobs = scope.collection<JobDoc>(JOBS);
    const existing = new Set((await jobs.find({ releaseId: input.releaseId })).map((j) => j.target));
    const now = new Date().toISOString();
    const fresh = [...new Set(input.stores)]
      .map((target, position) => ({ target, position }))
      .filter(({ target }) => !existing.has(target))
      .map(({ target, position }) => ({
        _id: jobId(input.releaseId, target),
        releaseId: input.releaseId,
        ownerId: input.ownerId,
        target,
        position,
        status: 'queued' as const,
        jobKind: 'ingest' as const,
        eventId: input.eventId,
        createdAt: now,
        updatedAt: now,
      }));
    if (fresh.length > 0) await jobs.insertMany(fresh);
    return fresh.length;
  }

  forRelease(releaseId: string): Promise<JobDoc[]> {
    return this.jobs.find({ releaseId }, { sort: { position: 1 } });
  }

  forReleases(releaseIds: readonly string[]): Promise<JobDoc[]> {
    return this.jobs.find({ releaseId: { $in: [...releaseIds] } });
  }
}
