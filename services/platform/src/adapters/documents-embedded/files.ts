// File layout under <dataDir>/documents/: snapshot.jsonl (the state as of the start of WAL generation
// `baseGen`), wal-<gen>.jsonl (committed writes, one JSON record a line) and LOCK. Temp files end in .tmp.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Doc } from '../../ports/documents';

export const SNAPSHOT_FILE = 'snapshot.jsonl';
export const LOCK_FILE = 'LOCK';
const WAL_PATTERN = /^wal-(\d{10})\.jsonl$/;

export function walFileName(gen: number): string {
  return `wal-${String(gen).padStart(10, '0')}.jsonl`;
}

export function walGeneration(fileName: string): number | undefined {
  const m = WAL_PATTERN.exec(fileName);
  return m ? Number(m[1]) : undefined;
}

/** One write inside a WAL record: put a whole document, delete one, or set a counter. */
export type WalOp = ['p', string, Doc] | ['d', string, string] | ['s', string, number];

/** One committed unit: a single write or a whole transaction. */
export interface WalRecord {
  w: WalOp[];
}

/** Makes a directory's entries (created, renamed, removed files) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface Line {
  text: string;
  /** Byte offset just past this line's newline (or past the text when unterminated). */
  end: number;
  /** False for a last line with no newline: a write torn by a crash. */
  terminated: boolean;
}

/** Streams a file's lines with byte offsets, without holding the whole file in memory. */
export async function* readLines(path: string): AsyncGenerator<Line> {
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0;
  for await (const chunk of createReadStream(path)) {
    pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
    let start = 0;
    for (let nl = pending.indexOf(0x0a, start); nl !== -1; nl = pending.indexOf(0x0a, start)) {
      offset += nl - start + 1;
      yield { text: pending.subarray(start, nl).toString('utf8'), end: offset, terminated: true };
      start = nl + 1;
    }
    pending = pending.subarray(start);
  }
  if (pending.length > 0) {
    offset += pending.length;
    yield { text: pending.toString('utf8'), end: offset, terminated: false };
  }
}
