// Delivery jobs. Queuing a release's jobs is one insertMany inside the caller's transaction (not one write
// per store): 142 stores cost one commit. Jobs are created held; the review's approval releases them.
// Every change here that creates, deletes, holds or releases jobs also changes the release's counts
// (release-counts.ts) in the same transaction.
import type { Collection, DocumentStore, TransactionScope } from '@omni/platform';
import { type JobDoc, jobId } from '../domain/job';
import { countJobs, countKey, type JobCounts } from '../domain/release-status';
import { JOBS, RELEASE_COUNTS } from './collections';
import { type CountsDoc, ReleaseCounts } from './release-counts';

export { JOBS };

/** Jobs whose store has, or is getting, nothing more to do with the release. */
const GONE = ['taken_down', 'purged'];
/** The ingest statuses a resubmission holds again (a job on its way, packaging or sent, finishes first). */
const REHELD = ['queued', 'rejected', 'failed', 'acknowledged', 'live'] as const;

export class JobsRepository {
  private readonly jobs: Collection<JobDoc>;
  private readonly counts: Collection<CountsDoc>;

  constructor(store: DocumentStore) {
    this.counts = store.collection<CountsDoc>(RELEASE_COUNTS);
    this.jobs = store.collection<JobDoc>(JOBS, {
      indexes: [
        // A redelivered or repeated release.created can never make a second job for the same store.
        { fields: { releaseId: 1, target: 1 }, unique: true, name: 'release_target_unique' },
        { fields: { releaseId: 1, position: 1 } },
        // The worker's pick: due jobs by time.
        { fields: { dueAt: 1 } },
        // The worker's acknowledgement reading: the stores with sent jobs, the sent jobs past their deadline,
        // and the job an acknowledgement file names.
        { fields: { status: 1, target: 1 } },
        { fields: { status: 1, dueAt: 1 } },
        { fields: { messageId: 1 }, sparse: true },
        { fields: { deadLettered: 1 } },
      ],
    });
  }

  /**
   * Makes the release's held jobs match `stores`: creates a held `queued` ingest job for each store that
   * has none, and removes held jobs of stores no longer chosen (they never left). Returns the store list.
   */
  async queueHeld(
    scope: TransactionScope,
    input: { releaseId: string; ownerId: string; stores: readonly string[]; eventId: string },
  ): Promise<string[]> {
    const counts = await ReleaseCounts.open(scope, input.releaseId);
    const jobs = scope.collection<JobDoc>(JOBS);
    const existing = await jobs.find({ releaseId: input.releaseId });
    const byTarget = new Map(existing.map((j) => [j.target, j]));
    const wanted = [...new Set(input.stores)];
    const now = new Date().toISOString();
    const fresh = wanted
      .map((target, position) => ({ target, position }))
      .filter(({ target }) => !byTarget.has(target))
      .map(
        ({ target, position }): JobDoc => ({
          _id: jobId(input.releaseId, target),
          releaseId: input.releaseId,
          ownerId: input.ownerId,
          target,
          position,
          status: 'queued',
          jobKind: 'ingest',
          held: true,
          attempts: 0,
          deadLettered: false,
          steps: [{ status: 'queued', at: now }],
          eventId: input.eventId,
          createdAt: now,
          updatedAt: now,
        }),
      );
    if (fresh.length > 0) await jobs.insertMany(fresh);
    const dropped: JobDoc[] = [];
    for (const job of existing.filter((j) => !wanted.includes(j.target) && j.held && j.status === 'queued')) {
      if ((await jobs.deleteOne({ _id: job._id, held: true })) > 0) dropped.push(job);
    }
    await counts.record(dropped, fresh);
    return wanted;
  }

  /**
   * The review approved the release: every held job that is not taken down or purged becomes due now as
   * an ingest (a complete NewReleaseMessage, also for stores that had it: DDEX has no update message).
   */
  async releaseHeld(
    scope: TransactionScope,
    releaseId: string,
    now: string,
    versionId?: string,
  ): Promise<JobDoc[]> {
    const counts = await ReleaseCounts.open(scope, releaseId);
    const jobs = scope.collection<JobDoc>(JOBS);
    const held = (await jobs.find({ releaseId, held: true })).filter((j) => !GONE.includes(j.status));
    // Two updates whatever the number of stores (a job that had been sent before gets a new 'queued'
    // step; one still queued keeps its steps): on a store with journaled transactions every write counts.
    const set = {
      held: false,
      status: 'queued',
      jobKind: 'ingest',
      dueAt: now,
      attempts: 0,
      deadLettered: false,
      updatedAt: now,
      ...(versionId ? { versionId } : {}),
    };
    const unset = { reason: '', nextAttemptAt: '' } as const;
    const ids = (wasSent: boolean) =>
      held.filter((j) => (j.status !== 'queued') === wasSent).map((j) => j._id);
    const queued = ids(false);
    const sent = ids(true);
    if (queued.length > 0)
      await jobs.updateMany({ _id: { $in: queued }, held: true }, { $set: set, $unset: unset });
    if (sent.length > 0)
      await jobs.updateMany(
        { _id: { $in: sent }, held: true },
        { $set: set, $unset: unset, $push: { steps: { status: 'queued', at: now } } },
      );
    // What the updates released (a job another transaction released meanwhile is not counted twice).
    const after = await jobs.find({ _id: { $in: held.map((j) => j._id) } });
    const releasedIds = new Set(
      after.filter((j) => !j.held && j.updatedAt === now && j.dueAt === now).map((j) => j._id),
    );
    const before: JobDoc[] = held.filter((j) => releasedIds.has(j._id));
    const released: JobDoc[] = held
      .map((j) => after.find((a) => a._id === j._id))
      .filter((j): j is JobDoc => Boolean(j && releasedIds.has(j._id)));
    await counts.record(before, released);
    return released;
  }

  /**
   * Holds the release's ingest jobs again (a resubmission waits for the next approval), the delivered
   * ones too: once approved, every store gets the corrected release (a complete NewReleaseMessage), not
   * only those that refused it. A job on its way (packaging, sent) finishes first; a takedown is kept.
   */
  async holdAll(scope: TransactionScope, releaseId: string, now: string): Promise<void> {
    const counts = await ReleaseCounts.open(scope, releaseId);
    await scope
      .collection<JobDoc>(JOBS)
      .updateMany(
        { releaseId, held: false, jobKind: 'ingest', status: { $in: [...REHELD] } },
        { $set: { held: true, updatedAt: now }, $unset: { dueAt: '' } },
      );
    // The filter fixes every counted field but `held`, so the counts move without reading the jobs: all
    // unheld ingest jobs of those statuses (this transaction's snapshot, the same the update saw) are held.
    await counts.transfer(
      REHELD.map((status) => [
        countKey({ status, jobKind: 'ingest', held: false }),
        countKey({ status, jobKind: 'ingest', held: true }),
      ]),
    );
  }

  /**
   * Deletes the release's jobs and counts if none ever left: all held and queued, no message made for any.
   * Returns false (and changes nothing) when one did.
   */
  async deleteNeverSent(scope: TransactionScope, releaseId: string): Promise<boolean> {
    const jobs = scope.collection<JobDoc>(JOBS);
    const all = await jobs.find({ releaseId });
    if (all.some((j) => !j.held || j.status !== 'queued' || j.messageId)) return false;
    if (all.length > 0) await jobs.deleteMany({ releaseId, held: true, status: 'queued' });
    await scope.collection<CountsDoc>(RELEASE_COUNTS).deleteOne({ _id: releaseId });
    return true;
  }

  /** The release's job counts inside `scope` (built once from its jobs when the release predates them). */
  async countsIn(scope: TransactionScope, releaseId: string) {
    return (await ReleaseCounts.open(scope, releaseId)).current;
  }

  forRelease(releaseId: string): Promise<JobDoc[]> {
    return this.jobs.find({ releaseId }, { sort: { position: 1 } });
  }

  forReleases(releaseIds: readonly string[]): Promise<JobDoc[]> {
    return this.jobs.find({ releaseId: { $in: [...releaseIds] } });
  }

  /**
   * Each release's job counts: its counts document (one read per release, not one per job: the dashboard
   * asks for up to 200 releases of up to 142 stores), or for a release that predates them a count of its jobs.
   */
  async countsOf(releaseIds: readonly string[]): Promise<Map<string, JobCounts>> {
    const found = await this.counts.find({ _id: { $in: [...releaseIds] } });
    const out = new Map<string, JobCounts>(found.map((doc) => [doc._id, doc.jobs ?? {}]));
    const missing = releaseIds.filter((id) => !out.has(id));
    if (missing.length > 0) {
      const byRelease = new Map<string, JobDoc[]>(missing.map((id) => [id, []]));
      for (const job of await this.forReleases(missing)) byRelease.get(job.releaseId)?.push(job);
      for (const [id, jobs] of byRelease) out.set(id, countJobs(jobs));
    }
    return out;
  }
}
