// One partition of one topic: an append-only file of JSON lines, one record per line, offset = line
// number. Appends are group-committed (one write + fdatasync per batch) and become visible to
// consumers only once durable, like Kafka's high watermark: a consumer never acts on an event that a
// crash could still take back.
//
// Recovery: a process killed mid-write can leave a torn last line. On open every line is parsed and
// checked (offset must equal its line number); the file is cut at the first line that fails, which
// is only ever the unacknowledged tail, since a publish resolves after its bytes are synced.
//
// Records stay in memory after open (fine for the embedded mode's volumes). Retention / compaction
// and reading old segments from disk on demand are a follow-up.
import fs from 'node:fs';
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
}

export class PartitionLog {
  private readonly records: LogRecord[];
  private pending: PendingRecord[] = [];
  private nextOffset: number;
  private failure: Error | undefined;
  private closed = false;
  private readonly flusher = new Coalescer(() => this.flush());
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly file: string,
    private readonly fd: number,
    records: LogRecord[],
    private readonly options: PartitionLogOptions,
  ) {
    this.records = records;
    this.nextOffset = records.length;
  }

  /** Opens (creating if missing) and recovers the file. Synchronous: runs once per partition at first use. */
  static open(file: string, options: PartitionLogOptions): PartitionLog {
    const records = recover(file, options.logger);
    const fd = fs.openSync(file, 'a');
    return new PartitionLog(file, fd, records, options);
  }

  /** Offset one past the last durable record (what consumers may read up to). */
  get end(): number {
    return this.records.length;
  }

  get healthy(): boolean {
    return !this.failure && !this.closed;
  }

  read(offset: number): LogRecord | undefined {
    return this.records[offset];
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
    for (const { record } of batch) this.records.push(record);
    for (const listener of this.listeners) listener();
  }

  /** Waits for queued appends to land, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flusher.request().catch(() => undefined);
    this.closed = true;
    this.listeners.clear();
    fs.closeSync(this.fd);
  }
}

function recover(file: string, logger: Logger): LogRecord[] {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: LogRecord[] = [];
  let start = 0;
  while (start < data.length) {
    const newline = data.indexOf(0x0a, start);
    if (newline === -1) break; // torn tail: bytes without their newline
    const record = parseLine(data.subarray(start, newline).toString('utf8'), records.length);
    if (!record) break;
    records.push(record);
    start = newline + 1;
  }
  if (start < data.length) {
    logger.warn(
      { file, keptRecords: records.length, droppedBytes: data.length - start },
      'event log had an incomplete tail (process stopped mid-write); truncating it',
    );
    fs.truncateSync(file, start);
  }
  return records;
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
