// The spec's omni_finder_jobs: one document per scan (id, user_id, created_at, status, result) with its
// progress. "One scan at a time per account" is held by the store, not by a check-then-insert: a running
// job carries `running_for` = its account under a unique sparse index, so of two parallel starts exactly one
// insert wins; the field is removed when the job completes or fails.
import { randomUUID } from 'node:crypto';
import { type Doc, type DocumentStore, DuplicateKeyError, type TransactionScope } from '@omni/platform';
import type { FinderResult } from '@omni/proto/api';

export const JOBS = 'omni_finder_jobs';
const ONE_RUNNING_INDEX = 'one_running_scan_per_account';

export type JobStatus = 'running' | 'completed' | 'failed';

export interface JobDoc extends Doc {
  user_id: string;
  created_at: string;
  status: JobStatus;
  scan_scope: 'global' | 'isrcs';
  isrcs: string[];
  progress: { done: number; total: number };
  result: FinderResult | null;
  error: string;
  completed_at: string;
  /** Set (to user_id) only while running: the unique index allows one running job per account. */
  running_for?: string;
}

export class JobsRepository {
  private readonly jobs;

  constructor(store: DocumentStore) {
    this.jobs = store.collection<JobDoc>(JOBS, {
      indexes: [
        { fields: { running_for: 1 }, unique: true, sparse: true, name: ONE_RUNNING_INDEX },
        { fields: { user_id: 1, created_at: -1 } },
        // The start-up sweep of jobs a crash left running (failInterrupted), without reading every scan.
        { fields: { status: 1 } },
      ],
    });
  }

  /** Starts a job for the account, or gives the one already running (`created` false). */
  async startOrRunning(
    userId: string,
    scope: Pick<JobDoc, 'scan_scope' | 'isrcs'>,
  ): Promise<{ job: JobDoc; created: boolean }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const running = await this.jobs.findOne({ running_for: userId });
      if (running) return { job: running, created: false };
      try {
        const job = await this.jobs.insertOne({
          _id: randomUUID(),
          user_id: userId,
          created_at: new Date().toISOString(),
          status: 'running',
          ...scope,
          progress: { done: 0, total: 0 },
          result: null,
          error: '',
          completed_at: '',
          running_for: userId,
        });
        return { job, created: true };
      } catch (err) {
        // Another start won the race: loop and return its job (unless it already finished).
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    throw new Error('could not start or find a running scan');
  }

  latest(userId: string): Promise<JobDoc | null> {
    return this.jobs.findOne({ user_id: userId }, { sort: { created_at: -1, _id: -1 } });
  }

  /** The account's job by id; someone else's job is not found. */
  async owned(userId: string, id: string): Promise<JobDoc | null> {
    const job = await this.jobs.findById(id);
    return job && job.user_id === userId ? job : null;
  }

  byId(id: string): Promise<JobDoc | null> {
    return this.jobs.findById(id);
  }

  async progress(id: string, done: number, total: number): Promise<void> {
    await this.jobs.updateOne({ _id: id, status: 'running' }, { $set: { progress: { done, total } } });
  }

  /** Inside the transaction that also writes scan.completed to the outbox. */
  async complete(scope: TransactionScope, id: string, result: FinderResult, done: number): Promise<void> {
    await scope.collection<JobDoc>(JOBS).updateOne(
      { _id: id, status: 'running' },
      {
        $set: {
          status: 'completed',
          result,
          progress: { done, total: done },
          completed_at: new Date().toISOString(),
        },
        $unset: { running_for: true },
      },
    );
  }

  async fail(id: string, error: string): Promise<void> {
    await this.jobs.updateOne(
      { _id: id, status: 'running' },
      {
        $set: { status: 'failed', error, completed_at: new Date().toISOString() },
        $unset: { running_for: true },
      },
    );
  }

  /** At start-up: jobs a crash left running can never finish; say so and free their accounts. */
  async failInterrupted(error: string): Promise<number> {
    const res = await this.jobs.updateMany(
      { status: 'running' },
      {
        $set: { status: 'failed', error, completed_at: new Date().toISOString() },
        $unset: { running_for: true },
      },
    );
    return res.modified;
  }
}
