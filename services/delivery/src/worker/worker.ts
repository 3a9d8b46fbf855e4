// The delivery worker: every DELIVERY_POLL_MS (or at once when woken, e.g. by an approval) it
// 1. at most once per poll interval however often it is woken, lists the acknowledgement folder of each
//    store that has sent jobs (found by walking the status+target index, one lookup per such store) and
//    moves the jobs answered; then fails the sent jobs past their acknowledgement deadline (a bounded page);
// 2. claims due jobs one by one with a lease (a conditional update: not held, due, no live lease), at most
//    `concurrency` at once, and runs each (use-cases/send.ts). A crashed process's leases expire, so its
//    jobs become due again; leases are renewed while a job runs.
// It never loads every job: each tick reads the answered jobs, one bounded page of overdue ones, and claims
// single documents.
import type { JobDoc } from '../domain/job';
import { expireUnanswered, readAcknowledgements } from '../use-cases/acknowledge';
import type { PipelineContext } from '../use-cases/pipeline-context';
import { runJob } from '../use-cases/send';

/** Overdue sent jobs failed per tick (across stores). */
const OVERDUE_PAGE = 500;

export interface WorkerOptions {
  concurrency: number;
}

export class DeliveryWorker {
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private renewer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  /** When the acknowledgement folders were last listed (a wake storm must not relist 142 stores). */
  private acksReadAt = 0;

  constructor(
    private readonly ctx: PipelineContext,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.renewer = setInterval(() => void this.renewLeases(), Math.max(1000, this.ctx.leaseMs / 3));
    this.renewer.unref();
    this.wake();
  }

  /** Runs a tick now (approval, a takedown, a replay): no waiting for the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.ticking = this.tick()
      .catch((err) => this.ctx.logger.error({ err }, 'delivery worker tick failed'))
      .finally(() => {
        this.ticking = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), this.ctx.pollMs);
        this.timer.unref();
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.renewer) clearInterval(this.renewer);
    await this.ticking;
    await Promise.allSettled([...this.running.values()]);
  }

  private async tick(): Promise<void> {
    await this.readAcks();
    while (!this.stopped && this.running.size < this.options.concurrency) {
      const job = await this.claim();
      if (!job) break;
      const work = runJob(this.ctx, job)
        .catch((err) => this.ctx.logger.error({ err, job: job._id }, 'delivery job crashed'))
        .finally(async () => {
          this.running.delete(job._id);
          // Whatever happened, the lease is ours no more (moves clear it; this covers early returns).
          await this.ctx.jobs.dropLease(job._id, this.ctx.workerId).catch(() => undefined);
          this.wake();
        });
      this.running.set(job._id, work);
    }
  }

  private claim(): Promise<JobDoc | null> {
    const now = this.ctx.now();
    const until = new Date(now.getTime() + this.ctx.leaseMs).toISOString();
    return this.ctx.jobs.claimDue(this.ctx.workerId, now.toISOString(), until);
  }

  private async readAcks(): Promise<void> {
    const now = Date.now();
    if (now - this.acksReadAt < this.ctx.pollMs) return;
    this.acksReadAt = now;
    for (const target of await this.storesWaiting()) {
      const profile = this.ctx.profileOf(target);
      if (profile) await readAcknowledgements(this.ctx, profile);
    }
    await expireUnanswered(this.ctx, OVERDUE_PAGE);
  }

  /** The stores with sent jobs: a skip through the status+target index, one lookup per store found. */
  private async storesWaiting(): Promise<string[]> {
    const stores: string[] = [];
    for (;;) {
      const next = await this.ctx.jobs.nextStoreWaiting(stores.at(-1));
      if (next === null) return stores;
      stores.push(next);
    }
  }

  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    const until = new Date(this.ctx.now().getTime() + this.ctx.leaseMs).toISOString();
    await this.ctx.jobs
      .renewLeases([...this.running.keys()], this.ctx.workerId, until)
      .catch((err) => this.ctx.logger.warn({ err }, 'delivery lease renewal failed'));
  }
}
