// Appends WAL records with group commit: records queued while an fsync is in flight are written together
// and covered by the next single fsync, so many concurrent writers share one disk flush. A write is
// acknowledged (its promise resolves) only after the fsync covering it. Records carry the WAL generation
// they belong to; when compaction starts a new generation the writer finishes the old file and moves on.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';
import { fsyncDir, walFileName } from './files';

interface Pending {
  gen: number;
  seq: number;
  data: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class WalWriter {
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private lastSeq = 0;
  private flushedSeq = 0;
  private waiters: Waiter[] = [];
  /** Once a write or fsync fails the log's tail is unknown, so the store stops accepting writes. */
  failure: Error | undefined;

  constructor(
    private readonly dir: string,
    private handle: FileHandle,
    private gen: number,
    private readonly fsync: boolean,
    private readonly logger: Logger,
  ) {}

  /** Queues a record for generation `gen`; resolves once it is durable. Returns the record's sequence too. */
  append(line: string, gen: number): { seq: number; durable: Promise<void> } {
    if (this.failure) return { seq: this.lastSeq, durable: Promise.reject(this.failure) };
    const seq = ++this.lastSeq;
    const durable = new Promise<void>((resolve, reject) => {
      this.queue.push({ gen, seq, data: `${line}\n`, resolve, reject });
    });
    if (!this.flushing) this.flushing = this.flushLoop();
    return { seq, durable };
  }

  /** Resolves when every record appended so far is durable. */
  barrier(): Promise<void> {
    const seq = this.lastSeq;
    if (this.failure) return Promise.reject(this.failure);
    if (this.flushedSeq >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  async close(): Promise<void> {
    await this.barrier().catch(() => undefined);
    await this.handle.close();
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.failure) {
        const batch = this.queue;
        this.queue = [];
        await this.writeBatch(batch);
      }
    } finally {
      this.flushing = undefined;
      // A record may have been queued while the loop was finishing its last await.
      if (this.queue.length > 0 && !this.failure) this.flushing = this.flushLoop();
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    let start = 0;
    try {
      while (start < batch.length) {
        const gen = batch[start]!.gen;
        let end = start;
        while (end < batch.length && batch[end]!.gen === gen) end++;
        if (gen !== this.gen) await this.switchTo(gen);
        const data = batch
          .slice(start, end)
          .map((p) => p.data)
          .join('');
        await this.handle.write(data);
        if (this.fsync) await this.handle.datasync();
        for (let i = start; i < end; i++) batch[i]!.resolve();
        this.flushedSeq = batch[end - 1]!.seq;
        start = end;
      }
      this.wakeWaiters();
    } catch (err) {
      this.fail(err as Error, batch.slice(start));
    }
  }

  /** Finishes the current file and opens the next generation's (the old one was fsynced by its last batch). */
  private async switchTo(gen: number): Promise<void> {
    const next = await open(join(this.dir, walFileName(gen)), 'a', PRIVATE_FILE_MODE);
    if (this.fsync) await fsyncDir(this.dir);
    const old = this.handle;
    this.handle = next;
    this.gen = gen;
    await old.close();
  }

  private wakeWaiters(): void {
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.seq <= this.flushedSeq) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  private fail(err: Error, unwritten: Pending[]): void {
    this.failure = new Error(`document store write-ahead log failed; restart to recover: ${err.message}`);
    this.logger.fatal({ err }, 'documents WAL write failed; refusing further writes');
    for (const p of [...unwritten, ...this.queue]) p.reject(this.failure);
    this.queue = [];
    for (const w of this.waiters) w.reject(this.failure);
    this.waiters = [];
  }
}
