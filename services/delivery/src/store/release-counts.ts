// Per-release counts of jobs by (status, kind, held): one document per release (`_id` = the release id),
// changed in the SAME transaction as every job change that moves a count (creation, a status move, a
// re-hold, a release, a takedown or purge, a dropped store) and its `delivery.updated`. The roll-up
// (domain/release-status.ts) reads these instead of every job of the release: a release to 142 stores used
// to read 143 job documents per transition, about 100,000 over its life.
//
// A release that predates the counts has no document: the first transaction that changes one of its jobs
// builds it from the jobs, once, before changing anything (lazily rather than at start: a start-up pass
// would read every job ever made before the service is ready, and every replica would race to do it; built
// inside the transaction, a crash or a concurrent change cannot leave it wrong — the build and the change
// commit together or the transaction re-runs).
//
// The same document keeps what delivery last announced of the release (domain/release-facts.ts) and the
// `delivery.updated` version: an announcement is one more field set on a document the transaction writes
// anyway, and happens only when the facts changed.
import type { Doc, TransactionScope } from '@omni/platform';
import type { ReleaseFacts } from '../domain/release-facts';
import { countJobs, countsDelta, type JobCounts, type JobShape } from '../domain/release-status';
import { RELEASE_COUNTS } from './collections';
import { VERSIONS } from './versions';

export interface CountsDoc extends Doc {
  jobs: Record<string, number>;
  /** What the last `delivery.updated` said (absent: nothing announced since the facts were kept). */
  facts?: ReleaseFacts;
  /** The last `delivery.updated` version (the consumers keep the highest). */
  version?: number;
}

/** The release's counts as this transaction sees them; open it BEFORE changing any of its jobs. */
export class ReleaseCounts {
  private constructor(
    private readonly scope: TransactionScope,
    readonly releaseId: string,
    private counts: JobCounts,
    private announced: Pick<CountsDoc, 'facts' | 'version'>,
  ) {}

  /** `jobsOf` reads the release's jobs (the jobs repository's, the one reader of them). */
  static async open(
    scope: TransactionScope,
    releaseId: string,
    jobsOf: () => Promise<JobShape[]>,
  ): Promise<ReleaseCounts> {
    const docs = scope.collection<CountsDoc>(RELEASE_COUNTS);
    const found = await docs.findById(releaseId);
    if (found) return new ReleaseCounts(scope, releaseId, found.jobs ?? {}, found);
    // Built from the jobs as they are before this transaction's change (see the top of the file).
    const jobs = countJobs(await jobsOf());
    await docs.updateOne({ _id: releaseId }, { $setOnInsert: { jobs } }, { upsert: true });
    return new ReleaseCounts(scope, releaseId, jobs, {});
  }

  get current(): JobCounts {
    return this.counts;
  }

  /** What was last announced (undefined: nothing yet). */
  get facts(): ReleaseFacts | undefined {
    return this.announced.facts;
  }

  /** Keeps `facts` as announced and returns the event's version. */
  async announce(facts: ReleaseFacts): Promise<number> {
    let version = this.announced.version;
    if (version === undefined) {
      // The counter used to be a document of its own in the versions collection: carried over once.
      const legacy = this.scope.collection<Doc & { version?: number }>(VERSIONS);
      version = (await legacy.findById(this.releaseId))?.version ?? 0;
      if (version > 0) await legacy.deleteOne({ _id: this.releaseId });
    }
    version += 1;
    await this.scope
      .collection<CountsDoc>(RELEASE_COUNTS)
      .updateOne({ _id: this.releaseId }, { $set: { facts, version } });
    this.announced = { facts, version };
    return version;
  }

  /** Records that jobs of this release went from `before` to `after` (created: no before; deleted: no after). */
  async record(before: readonly JobShape[], after: readonly JobShape[]): Promise<JobCounts> {
    return this.add(countsDelta(before, after));
  }

  /** Moves everything counted under each `from` key to its `to` key (a bulk change of one field). */
  async transfer(moves: ReadonlyArray<readonly [from: string, to: string]>): Promise<JobCounts> {
    const delta: Record<string, number> = {};
    for (const [from, to] of moves) {
      const n = this.counts[from] ?? 0;
      if (n === 0 || from === to) continue;
      delta[from] = (delta[from] ?? 0) - n;
      delta[to] = (delta[to] ?? 0) + n;
    }
    return this.add(delta);
  }

  private async add(delta: Record<string, number>): Promise<JobCounts> {
    if (Object.keys(delta).length === 0) return this.counts;
    const inc = Object.fromEntries(Object.entries(delta).map(([key, n]) => [`jobs.${key}`, n]));
    const next = await this.scope
      .collection<CountsDoc>(RELEASE_COUNTS)
      .findOneAndUpdate({ _id: this.releaseId }, { $inc: inc }, { returnDocument: 'after' });
    if (!next) throw new Error(`release counts of ${this.releaseId} vanished inside their transaction`);
    this.counts = next.jobs;
    return this.counts;
  }
}
