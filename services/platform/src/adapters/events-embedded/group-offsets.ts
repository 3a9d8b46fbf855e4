// A consumer group's committed offsets, kept as a small append-only commit log per group:
//   <root>/groups/<base64url(groupId)>.offsets   one JSON line per commit: {"t":topic,"p":partition,"o":next}
// The last line for a (topic, partition) wins. Why a log and not a JSON file rewritten by temp+rename:
// the handler loop waits for its commit to be durable before the next message, and on this kind of disk
// an append + fdatasync costs ~1 ms where write-temp + fsync + rename + directory fsync costs ~10 ms.
// (Kafka itself keeps offsets in a log, __consumer_offsets, for the same reason.) Commits from all
// partitions of the group share one append via the coalescer. When the log grows past a bound it is
// compacted: a snapshot (one line per partition) is written to a temp file and renamed over it, so a
// crash at any point leaves either the old log or the snapshot. A torn last line is ignored and cut.
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../data-dir/modes';
import type { Logger } from '../../logging/logger';
import { Coalescer } from './coalescer';
import { datasync, writeAll, writeFileAtomic } from './fs-durable';

/** Compact once the log holds this many lines (a snapshot is one line per partition). */
const DEFAULT_COMPACT_AFTER_LINES = 10_000;

export interface GroupOffsetsOptions {
  fsync: boolean;
  logger: Logger;
  compactAfterLines?: number;
}

interface CommitLine {
  t: string;
  p: number;
  o: number;
}

export class GroupOffsets {
  /** topic → partition → next offset to consume. */
  private readonly offsets: Map<string, Map<number, number>>;
  /** Commits not yet written, keyed like `offsets`. */
  private dirty = new Map<string, Map<number, number>>();
  private readonly flusher = new Coalescer(() => this.write());
  private lines: number;
  private fd: number | undefined;

  private constructor(
    readonly groupId: string,
    private readonly file: string,
    offsets: Map<string, Map<number, number>>,
    lines: number,
    private readonly fsync: boolean,
    private readonly compactAfterLines: number,
  ) {
    this.offsets = offsets;
    this.lines = lines;
  }

  static load(root: string, groupId: string, options: GroupOffsetsOptions): GroupOffsets {
    const dir = path.join(root, 'groups');
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // base64url keeps any group id a safe, reversible file name.
    const file = path.join(dir, `${Buffer.from(groupId).toString('base64url')}.offsets`);
    const offsets = new Map<string, Map<number, number>>();
    let lines = 0;
    let data: Buffer | undefined;
    try {
      data = fs.readFileSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (data) {
      let start = 0;
      while (start < data.length) {
        const newline = data.indexOf(0x0a, start);
        if (newline === -1) break;
        const line = parseCommit(data.subarray(start, newline).toString('utf8'));
        if (!line) break;
        setOffset(offsets, line.t, line.p, line.o);
        lines++;
        start = newline + 1;
      }
      if (start < data.length) {
        options.logger.warn(
          { groupId, droppedBytes: data.length - start },
          'consumer offsets had an incomplete tail (process stopped mid-commit); truncating it',
        );
        fs.truncateSync(file, start);
      }
    }
    return new GroupOffsets(
      groupId,
      file,
      offsets,
      lines,
      options.fsync,
      options.compactAfterLines ?? DEFAULT_COMPACT_AFTER_LINES,
    );
  }

  get(topic: string, partition: number): number | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  /** Records `next` as the next offset to consume and resolves once that is on disk. */
  commit(topic: string, partition: number, next: number): Promise<void> {
    setOffset(this.offsets, topic, partition, next);
    setOffset(this.dirty, topic, partition, next);
    return this.flusher.request();
  }

  flush(): Promise<void> {
    return this.flusher.request();
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private async write(): Promise<void> {
    const dirty = this.dirty;
    this.dirty = new Map();
    const lines: string[] = [];
    for (const [t, partitions] of dirty) {
      for (const [p, o] of partitions) lines.push(`${JSON.stringify({ t, p, o } satisfies CommitLine)}\n`);
    }
    if (lines.length === 0) return;
    try {
      if (this.lines + lines.length > this.compactAfterLines) {
        await this.compact();
        return;
      }
      this.fd ??= fs.openSync(this.file, 'a', PRIVATE_FILE_MODE);
      await writeAll(this.fd, Buffer.from(lines.join('')));
      if (this.fsync) await datasync(this.fd);
      this.lines += lines.length;
    } catch (error) {
      // Not written: keep these commits dirty so the next flush retries them (newer values win).
      for (const [t, partitions] of dirty) {
        for (const [p, o] of partitions)
          if (this.dirty.get(t)?.get(p) === undefined) setOffset(this.dirty, t, p, o);
      }
      throw error;
    }
  }

  /** Replaces the log with a snapshot of every partition's latest offset. */
  private async compact(): Promise<void> {
    const snapshot: string[] = [];
    for (const [t, partitions] of this.offsets) {
      for (const [p, o] of partitions) snapshot.push(`${JSON.stringify({ t, p, o } satisfies CommitLine)}\n`);
    }
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    await writeFileAtomic(this.file, snapshot.join(''), this.fsync);
    this.lines = snapshot.length;
  }
}

function setOffset(
  map: Map<string, Map<number, number>>,
  topic: string,
  partition: number,
  offset: number,
): void {
  let partitions = map.get(topic);
  if (!partitions) {
    partitions = new Map();
    map.set(topic, partitions);
  }
  partitions.set(partition, offset);
}

function parseCommit(text: string): CommitLine | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { t, p, o } = value as Record<string, unknown>;
    if (typeof t !== 'string' || !Number.isInteger(p) || !Number.isInteger(o) || (o as number) < 0)
      return undefined;
    return { t, p: p as number, o: o as number };
  } catch {
    return undefined;
  }
}
