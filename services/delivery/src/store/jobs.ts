// Delivery jobs, and the one module that reads or writes them (tests/architecture checks that no other file
// opens the collection). A job changes status only through `move`, which checks the change against the
// table of a job's life (domain/job-states.ts), updates the release's counts once, and in the same
// transaction announces what changed: `delivery.updated` when a fact of the release changed
// (domain/release-facts.ts), else `delivery.progress` for the pages that follow it. The bulk changes of a
// review (queue held jobs, hold them again, let them go) are methods here too and announce the same way.
// Everything else written here is bookkeeping that moves no status: leases, the message made, deadlines.
//
// Queuing a release's jobs is one insertMany inside the caller's transaction (not one write per store): 142
// stores cost one commit. Jobs are created held; the review's approval releases them.
import type { Collection, DocumentStore, Filter, Outbox, TransactionScope, Update } from '@omni/platform';
import { type JobDoc, type JobKind, jobId } from '../domain/job';
import { IllegalJobMove, isGone, type JobStatus, mayMove, statusesWhere } from '../domain/job-states';
import { factsFromCounts, type JobChange, nextFacts, type Refusal, sameFacts } from '../domain/release-facts';
import { countJobs, countKey, type JobCounts } from '../domain/release-status';
import { JOBS, RELEASE_COUNTS } from './collections';
import { type CountsDoc, ReleaseCounts } from './release-counts';
import { reviewOf } from './review-status';

export { JOBS };

/** The ingest statuses a resubmission holds again (a job on its way, packaging or sent, finishes first). */
const REHELD = statusesWhere('reheld');
const CLAIMABLE = statusesWhere('claimable');

export interface Move {
  /** The status the job must be in for the change to apply. */
  from: JobStatus | readonly JobStatus[];
  /** The new status; also appended to `steps` (unless it is the status the job is already in). */
  to: JobStatus;
  set?: Record<string, unknown>;
  unset?: string[];
  /** Require this worker's lease (a job it claimed). */
  leasedBy?: string;
  /** Extra conditions. */
  where?: Filter;
}

/** What caused an announcement: one store's job, or the review (target null). */
interface Cause {
  ownerId: string;
  target: string | null;
  jobKind: JobKind | null;
  status: string;
  reason: string | null;
}

export class JobsRepository {
  private readonly jobs: Collection<JobDoc>;
  private readonly counts: Collection<CountsDoc>;

  constructor(
    private readonly store: DocumentStore,
    private readonly outbox: Outbox,
  ) {
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

  // ---- status changes ------------------------------------------------------------------------------

  /**
   * Moves one job, if it is still in a `from` status (and still leased by `leasedBy` when given), in one
   * transaction with its counts and announcement. Returns the job after the move, or null when it lost a
   * race (nothing written, nothing announced).
   */
  async move(job: JobDoc, move: Move, at: string): Promise<JobDoc | null> {
    const from = Array.isArray(move.from) ? [...move.from] : [move.from as JobStatus];
    for (const status of from) if (!mayMove(status, move.to)) throw new IllegalJobMove(status, move.to);
    const steps = move.to === job.status ? [] : [{ status: move.to, at }];
    const filter: Filter = {
      _id: job._id,
      status: { $in: from },
      ...(move.leasedBy ? { 'lease.owner': move.leasedBy } : {}),
      ...(move.where ?? {}),
    };
    const update: Update = {
      $set: { status: move.to, updatedAt: at, steps: [...job.steps, ...steps], ...(move.set ?? {}) },
      ...(move.unset?.length ? { $unset: Object.fromEntries(move.unset.map((f) => [f, ''])) } : {}),
    };
    return this.store.transaction(async (scope) => {
      // Opened before the change: a release that predates the counts gets them built from its jobs as they
      // were (store/release-counts.ts).
      const counts = await this.openCounts(scope, job.releaseId);
      const jobs = scope.collection<JobDoc>(JOBS);
      const before = await jobs.findOneAndUpdate(filter, update, { returnDocument: 'before' });
      if (!before) return null;
      const next = await jobs.findById(before._id);
      if (!next) throw new Error(`job ${before._id} vanished inside its own transaction`);
      await counts.record([before], [next]);
      await this.announce(scope, counts, {
        cause: {
          ownerId: next.ownerId,
          target: next.target,
          jobKind: next.jobKind,
          status: next.status,
          reason: next.reason ?? null,
        },
        changes: [change(before, next)],
        at,
      });
      return next;
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
    const counts = await this.openCounts(scope, input.releaseId);
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
   * an ingest (a complete NewReleaseMessage, also for stores that had it: DDEX has no update message),
   * announced with the review's approval as one event.
   */
  async releaseHeld(
    scope: TransactionScope,
    input: { releaseId: string; ownerId: string; at: string; versionId?: string },
  ): Promise<JobDoc[]> {
    const { releaseId, at: now, versionId } = input;
    const counts = await this.openCounts(scope, releaseId);
    const jobs = scope.collection<JobDoc>(JOBS);
    const held = (await jobs.find({ releaseId, held: true })).filter((j) => !isGone(j.status));
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
    await this.announce(scope, counts, {
      cause: { ownerId: input.ownerId, target: null, jobKind: null, status: 'approved', reason: null },
      changes: before.map((b, i) => change(b, released[i]!)),
      at: now,
    });
    return released;
  }

  /**
   * Holds the release's ingest jobs again (a resubmission waits for the next approval), the delivered
   * ones too: once approved, every store gets the corrected release (a complete NewReleaseMessage), not
   * only those that refused it. A job on its way (packaging, sent) finishes first; a takedown is kept.
   */
  async holdAll(scope: TransactionScope, releaseId: string, now: string): Promise<void> {
    const counts = await this.openCounts(scope, releaseId);
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
   * A change of the review alone (submitted, rejected): announced with the release's facts as they are
   * now, inside the review's transaction.
   */
  async announceReview(
    scope: TransactionScope,
    input: { releaseId: string; ownerId: string; status: string; reason: string | null; at: string },
  ): Promise<void> {
    const counts = await this.openCounts(scope, input.releaseId);
    await this.announce(scope, counts, {
      cause: {
        ownerId: input.ownerId,
        target: null,
        jobKind: null,
        status: input.status,
        reason: input.reason,
      },
      changes: [],
      at: input.at,
    });
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

  // ---- bookkeeping that moves no status -------------------------------------------------------------

  /** Claims the job due longest (not held, no live lease) for `owner` until `until`. */
  claimDue(owner: string, now: string, until: string): Promise<JobDoc | null> {
    return this.jobs.findOneAndUpdate(
      {
        held: false,
        status: { $in: CLAIMABLE },
        dueAt: { $lte: now },
        $or: [{ lease: { $exists: false } }, { 'lease.until': { $lt: now } }],
      },
      { $set: { lease: { owner, until } } },
      { sort: { dueAt: 1 } },
    );
  }

  async dropLease(id: string, owner: string): Promise<void> {
    await this.jobs.updateOne({ _id: id, 'lease.owner': owner }, { $unset: { lease: '' } });
  }

  async renewLeases(ids: readonly string[], owner: string, until: string): Promise<void> {
    await this.jobs.updateMany(
      { _id: { $in: [...ids] }, 'lease.owner': owner },
      { $set: { 'lease.until': until } },
    );
  }

  /**
   * Keeps the message made for a job being packaged (before anything is written to the store), while the
   * job is still `owner`'s. False: the lease was lost.
   */
  async recordMessage(
    job: JobDoc,
    owner: string,
    message: { batchId: string; messageId: string; liveAt: string; at: string },
  ): Promise<boolean> {
    const saved = await this.jobs.updateOne(
      { _id: job._id, status: 'packaging', 'lease.owner': owner },
      {
        $set: {
          batchId: message.batchId,
          messageId: message.messageId,
          liveAt: message.liveAt,
          updatedAt: message.at,
        },
      },
    );
    return saved.matched > 0;
  }

  /** An acknowledged job whose release date has not come: due again then, lease given back. */
  async postponeLive(job: JobDoc, owner: string, liveAt: string): Promise<void> {
    await this.jobs.updateOne(
      { _id: job._id, 'lease.owner': owner },
      { $set: { dueAt: liveAt }, $unset: { lease: '' } },
    );
  }

  /** A sent job's acknowledgement deadline, moved (an older version set a near one). */
  async setAckDeadline(job: JobDoc, dueAt: string): Promise<void> {
    await this.jobs.updateOne(
      { _id: job._id, status: 'sent', batchId: job.batchId ?? '' },
      { $set: { dueAt } },
    );
  }

  /**
   * A takedown or purge asked while the job's ingest is in flight: kept on the job, started once the ingest
   * settles (use-cases/settle.ts). Null when the job left `status` meanwhile.
   */
  markPending(job: JobDoc, kind: JobKind, now: string): Promise<JobDoc | null> {
    return this.jobs.findOneAndUpdate(
      { _id: job._id, status: job.status },
      { $set: { pendingKind: kind, updatedAt: now } },
    );
  }

  // ---- reads -----------------------------------------------------------------------------------------

  get(id: string): Promise<JobDoc | null> {
    return this.jobs.findById(id);
  }

  ofStore(releaseId: string, target: string): Promise<JobDoc | null> {
    return this.jobs.findById(jobId(releaseId, target));
  }

  /** The job a message id names (an acknowledgement file's), by its index. */
  byMessageId(messageId: string): Promise<JobDoc | null> {
    return this.jobs.findOne({ messageId });
  }

  /** The first store after `after` (in key order) with a sent job: a skip through the status+target index. */
  async nextStoreWaiting(after: string | undefined): Promise<string | null> {
    const next = await this.jobs.findOne(
      { status: 'sent', ...(after === undefined ? {} : { target: { $gt: after } }) },
      { sort: { target: 1 } },
    );
    return next?.target ?? null;
  }

  /** Sent jobs past their acknowledgement deadline, oldest first. */
  overdueSent(now: string, limit: number): Promise<JobDoc[]> {
    return this.jobs.find({ status: 'sent', dueAt: { $lte: now } }, { sort: { dueAt: 1 }, limit });
  }

  deadLetters(limit: number): Promise<JobDoc[]> {
    return this.jobs.find({ deadLettered: true }, { sort: { updatedAt: -1 }, limit });
  }

  forRelease(releaseId: string): Promise<JobDoc[]> {
    return this.jobs.find({ releaseId }, { sort: { position: 1 } });
  }

  forReleases(releaseIds: readonly string[]): Promise<JobDoc[]> {
    return this.jobs.find({ releaseId: { $in: [...releaseIds] } });
  }

  /** The release's job counts inside `scope` (built once from its jobs when the release predates them). */
  async countsIn(scope: TransactionScope, releaseId: string) {
    return (await this.openCounts(scope, releaseId)).current;
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

  // ---- inside ------------------------------------------------------------------------------------------

  private openCounts(scope: TransactionScope, releaseId: string) {
    return ReleaseCounts.open(scope, releaseId, () => scope.collection<JobDoc>(JOBS).find({ releaseId }));
  }

  /**
   * `delivery.updated` when the release's facts changed (kept on its counts document with the version),
   * else `delivery.progress`: an open release page reads the jobs again, nobody else listens.
   */
  private async announce(
    scope: TransactionScope,
    counts: ReleaseCounts,
    input: { cause: Cause; changes: JobChange[]; at: string },
  ): Promise<void> {
    const { releaseId } = counts;
    const review = await reviewOf(scope, releaseId, counts.current);
    const previous = counts.facts ?? factsFromCounts(counts.current, await this.refusalsOf(scope, releaseId));
    const facts = nextFacts(previous, {
      review: review.status,
      counts: counts.current,
      changes: input.changes,
    });
    const { ownerId, ...cause } = input.cause;
    if (sameFacts(counts.facts, facts)) {
      await this.outbox.add(scope, 'delivery.progress', releaseId, {
        releaseId,
        ownerId,
        target: cause.target,
        status: cause.status,
        at: input.at,
      });
      return;
    }
    const version = await counts.announce(facts);
    await this.outbox.add(scope, 'delivery.updated', releaseId, {
      releaseId,
      ownerId,
      ...cause,
      // A review's cause carries the review's own words (a rejection's reason).
      reason: cause.target === null ? (cause.reason ?? review.reason) : cause.reason,
      releaseStatus: facts.releaseStatus,
      reachedStores: facts.reachedStores,
      live: facts.live,
      refusals: facts.refusals,
      canResubmit: facts.canResubmit,
      version,
      at: input.at,
    });
  }

  /** The stores that refused the release, read from its jobs (only for a release announced before facts). */
  private async refusalsOf(scope: TransactionScope, releaseId: string): Promise<Refusal[]> {
    const jobs = await scope.collection<JobDoc>(JOBS).find({ releaseId, status: 'rejected' });
    return jobs
      .filter((j) => j.jobKind === 'ingest')
      .map((j) => ({ store: j.target, reason: j.reason ?? '' }));
  }
}

const change = (before: JobDoc, after: JobDoc): JobChange => ({
  target: after.target,
  jobKind: after.jobKind,
  before: before.status,
  after: after.status,
  reason: after.reason ?? null,
});
