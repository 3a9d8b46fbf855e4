// One partition of one topic: an append-only file of JSON lines, one record per line, offset = line
// number. Appends are group-committed (one write + fdatasync per batch) and become visible to
// consumers only once durable, like Kafka's high watermark: a consumer never acts on an event that a
// crash could still take back.
//
// Recovery: a process killed mid-write can leave a torn last line. On open every line is parsed and
// checked (offset must equal its line number); the file is cut at the first line that fails, which
// is only ever the unacknowledged tail, since a publish resolves after its bytes are synced.
//
// Memory stays bounded as the log grows: only each line's byte position is kept for every record, plus
// the most recent records (consumers keeping up read those). Older records are read back from the file
// on demand, a block of lines at a time, so a consumer catching up or a replay from the beginning reads
// sequentially without holding the whole history. Retention (deleting old records) is not done: the
// embedded mode keeps every event, which is also what lets a new consumer group start from the first.
import fs from 'node:fs';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';
import type { Logger } from '../../logging/logger';
import type { OutgoingMessage } from '../../ports/events';
import { Coalescer } from './coalescer';
import { datasync, writeAll } from './fs-durable';

export interface LogRecord {
  offset: number;
  timestamp: number;
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** On-disk shape: short field names keep lines small; `o` lets recovery detect a misplaced line. */
interface StoredRecord {
  o: number;
  t: number;
  k: string;
  v: string;
  h: Record<string, string>;
}

interface PendingRecord {
  record: LogRecord;
  line: string;
}

export interface PartitionLogOptions {
  fsync: boolean;
  logger: Logger;
  /** How many of the latest records stay in memory (default 4096). */
  recentRecords?: number;
}

const DEFAULT_RECENT_RECORDS = 4096;
/** Older records are read back this many bytes at a time (then served from that block). */
const READ_BLOCK_BYTES = 256 * 1024;

export class PartitionLog {
  /** Byte position of each durable record's line; one past the last line is `size`. */
  private readonly positions: number[];
  /** Bytes of durable records in the file. */
  private size: number;
  /** The latest records, at index offset % recent.length. */
  private readonly recent: (LogRecord | undefined)[];
  /** The last block read back from the file: records [blockStart, blockStart + block.length). */
  private block: LogRecord[] = [];
  private blockStart = 0;
  private readFd: number | undefined;
  private pending: PendingRecord[] = [];
  private nextOffset: number;
  private failure: Error | undefined;
  /** Set when a record read back from the file is not what was written (the file changed under us). */
  private damage: Error | undefined;
  private closed = false;
  private readonly flusher = new Coalescer(() => this.flush());
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly file: string,
    private readonly fd: number,
    recovered: Recovered,
    private readonly options: PartitionLogOptions,
  ) {
    this.positions = recovered.positions;
    this.size = recovered.size;
    this.recent = recovered.latest;
    this.nextOffset = this.positions.length;
  }

  /** Opens (creating if missing) and recovers the file. Synchronous: runs once per partition at first use. */
  static open(file: string, options: PartitionLogOptions): PartitionLog {
    const keep = Math.max(1, Math.floor(options.recentRecords ?? DEFAULT_RECENT_RECORDS));
    const recovered = recover(file, options.logger, keep);
    const fd = fs.openSync(file, 'a', PRIVATE_FILE_MODE);
    return new PartitionLog(file, fd, recovered, options);
  }

  /** Offset one past the last durable record (what consumers may read up to). */
  get end(): number {
    return this.positions.length;
  }

  get healthy(): boolean {
    return !this.failure && !this.damage && !this.closed;
  }

  read(offset: number): LogRecord | undefined {
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.end) return undefined;
    if (offset >= this.end - this.recent.length) return this.recent[offset % this.recent.length];
    if (offset < this.blockStart || offset >= this.blockStart + this.block.length) this.readBlock(offset);
    return this.block[offset - this.blockStart];
  }

  /**
   * Reads the records from `offset` on, as many whole lines as fit in one block (at least one), from
   * the file. Synchronous like the rest of a consumer's read; the lines are durable, so nothing is
   * being written where this reads.
   */
  private readBlock(offset: number): void {
    this.readFd ??= fs.openSync(this.file, 'r');
    const from = this.positions[offset]!;
    let last = offset;
    while (last + 1 < this.end && this.lineEnd(last + 1) - from <= READ_BLOCK_BYTES) last++;
    const buffer = Buffer.alloc(this.lineEnd(last) - from);
    let read = 0;
    while (read < buffer.length) {
      const n = fs.readSync(this.readFd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    const records: LogRecord[] = [];
    let start = 0;
    for (let o = offset; o <= last; o++) {
      const end = this.lineEnd(o) - from;
      const record = parseLine(buffer.subarray(start, end - 1).toString('utf8'), o);
      // The file was checked at open and only grows by synced appends: a bad line here means it was
      // changed under us. Fail loudly rather than hand a consumer the wrong event.
      if (!record) {
        this.damage = new Error(`event log ${this.file} is damaged at offset ${o}; restore it from a backup`);
        throw this.damage;
      }
      records.push(record);
      start = end;
    }
    this.block = records;
    this.blockStart = offset;
  }

  /** Byte position one past the newline of the record at `offset`. */
  private lineEnd(offset: number): number {
    return offset + 1 < this.positions.length ? this.positions[offset + 1]! : this.size;
  }

  /** Called whenever new records become durable; returns an unsubscribe function. */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the offsets once the records are on disk (fdatasync, unless fsync is off). */
  append(messages: OutgoingMessage[], timestamp: number): Promise<number[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error(`partition log ${this.file} is closed`));
    const offsets: number[] = [];
    for (const message of messages) {
      const record: LogRecord = {
        offset: this.nextOffset++,
        timestamp,
        key: message.key,
        value: message.value,
        headers: { ...(message.headers ?? {}) },
      };
      const stored: StoredRecord = {
        o: record.offset,
        t: timestamp,
        k: record.key,
        v: record.value,
        h: record.headers,
      };
      this.pending.push({ record, line: `${JSON.stringify(stored)}\n` });
      offsets.push(record.offset);
    }
    return this.flusher.request().then(() => offsets);
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      await writeAll(this.fd, Buffer.from(batch.map((p) => p.line).join('')));
      if (this.options.fsync) await datasync(this.fd);
    } catch (error) {
      // After a failed write the file's tail is unknown and later offsets were already handed out, so
      // this partition refuses further appends; a restart recovers it by cutting the torn tail.
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.options.logger.error({ file: this.file, err: this.failure.message }, 'event log write failed');
      throw this.failure;
    }
    for (const { record, line } of batch) {
      this.positions.push(this.size);
      this.size += Buffer.byteLength(line);
      this.recent[record.offset % this.recent.length] = record;
    }
    for (const listener of this.listeners) listener();
  }

  /** Waits for queued appends to land, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flusher.request().catch(() => undefined);
    this.closed = true;
    this.listeners.clear();
    fs.closeSync(this.fd);
    if (this.readFd !== undefined) fs.closeSync(this.readFd);
    this.block = [];
  }
}

interface Recovered {
  positions: number[];
  size: number;
  /** The last records, up to the number kept in memory, at index offset % that number. */
  latest: (LogRecord | undefined)[];
}

/** Bytes scanned per read while recovering: the file is never held in memory whole. */
const RECOVER_CHUNK_BYTES = 1024 * 1024;

function recover(file: string, logger: Logger, keepLatest: number): Recovered {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { positions: [], size: 0, latest: new Array(keepLatest) };
    }
    throw error;
  }
  const positions: number[] = [];
  const latest = new Array<LogRecord | undefined>(keepLatest);
  let size = 0; // bytes of good lines so far
  let fileSize = 0;
  try {
    fileSize = fs.fstatSync(fd).size;
    let carry = Buffer.alloc(0); // the start of a line whose newline is in a later chunk
    let readAt = 0;
    let damaged = false;
    while (readAt < fileSize && !damaged) {
      const chunk = Buffer.alloc(Math.min(RECOVER_CHUNK_BYTES, fileSize - readAt));
      const n = fs.readSync(fd, chunk, 0, chunk.length, readAt);
      if (n === 0) break;
      readAt += n;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      while (start < data.length) {
        const newline = data.indexOf(0x0a, start);
        if (newline === -1) break; // the line continues in the next chunk, or is the torn tail
        const record = parseLine(data.subarray(start, newline).toString('utf8'), positions.length);
        if (!record) {
          damaged = true;
          break;
        }
        positions.push(size);
        size += newline + 1 - start;
        latest[record.offset % keepLatest] = record;
        start = newline + 1;
      }
      carry = damaged ? Buffer.alloc(0) : Buffer.from(data.subarray(start));
    }
  } finally {
    fs.closeSync(fd);
  }
  if (size < fileSize) {
    logger.warn(
      { file, keptRecords: positions.length, droppedBytes: fileSize - size },
      'event log had an incomplete tail (process stopped mid-write); truncating it',
    );
    fs.truncateSync(file, size);
  }
  return { positions, size, latest };
}

function parseLine(line: string, expectedOffset: number): LogRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isStoredRecord(parsed) || parsed.o !== expectedOffset) return undefined;
  return { offset: parsed.o, timestamp: parsed.t, key: parsed.k, value: parsed.v, headers: parsed.h };
}

function isStoredRecord(value: unknown): value is StoredRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.o === 'number' &&
    typeof r.t === 'number' &&
    typeof r.k === 'string' &&
    typeof r.v === 'string' &&
    typeof r.h === 'object' &&
    r.h !== null &&
    Object.values(r.h).every((h) => typeof h === 'string')
  );
}
