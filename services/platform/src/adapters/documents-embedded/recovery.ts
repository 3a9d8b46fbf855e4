// Rebuilds the in-memory state on open: the snapshot, then every WAL generation from its baseGen on.
// A torn tail of the newest WAL (a crash mid-append; never acknowledged) is cut off. Anything unreadable
// elsewhere is corruption, and opening fails rather than silently losing acknowledged writes.
import { existsSync } from 'node:fs';
import { readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Doc } from '../../ports/documents';
import { type Line, readLines, SNAPSHOT_FILE, type WalOp, type WalRecord, walGeneration } from './files';

export interface RecoveryTarget {
  loadDoc(collection: string, id: string, doc: Doc | null): void;
  loadCounter(name: string, value: number): void;
}

export interface Recovered {
  /** The WAL generation to append to. */
  gen: number;
  /** Its size after any torn tail was cut. */
  walBytes: number;
  records: number;
}

function corrupt(file: string, line: Line, why: string): Error {
  return new Error(
    `document store file ${file} is corrupt at byte ${line.end - line.text.length - 1}: ${why}`,
  );
}

async function loadSnapshot(dir: string, target: RecoveryTarget): Promise<number> {
  const path = join(dir, SNAPSHOT_FILE);
  if (!existsSync(path)) return 1;
  let baseGen: number | undefined;
  let ended = false;
  for await (const line of readLines(path)) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line.text) as Record<string, unknown>;
    } catch {
      throw corrupt(SNAPSHOT_FILE, line, 'unparseable line');
    }
    if (ended) throw corrupt(SNAPSHOT_FILE, line, 'data after the footer');
    if (baseGen === undefined) {
      if (entry.v !== 1 || typeof entry.baseGen !== 'number')
        throw corrupt(SNAPSHOT_FILE, line, 'bad header');
      baseGen = entry.baseGen;
    } else if (typeof entry.c === 'string') {
      const doc = entry.d as Doc;
      target.loadDoc(entry.c, doc._id, doc);
    } else if (typeof entry.s === 'string' && typeof entry.v === 'number') {
      target.loadCounter(entry.s, entry.v);
    } else if (entry.end === true) {
      ended = true;
    } else {
      throw corrupt(SNAPSHOT_FILE, line, 'unknown entry');
    }
  }
  if (baseGen === undefined || !ended) {
    throw new Error(`document store snapshot ${path} is incomplete (no footer); refusing to open`);
  }
  return baseGen;
}

function applyRecord(record: WalRecord, target: RecoveryTarget): void {
  for (const op of record.w as WalOp[]) {
    if (op[0] === 'p') target.loadDoc(op[1], op[2]._id, op[2]);
    else if (op[0] === 'd') target.loadDoc(op[1], op[2], null);
    else if (op[0] === 's') target.loadCounter(op[1], op[2]);
    else throw new Error(`unknown WAL op ${JSON.stringify(op)}`);
  }
}

function parseRecord(text: string): WalRecord | undefined {
  try {
    const record = JSON.parse(text) as WalRecord;
    return Array.isArray(record?.w) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Replays one WAL; for the newest one a bad tail is cut. Returns the file's valid length and record count. */
async function replayWal(
  path: string,
  isLast: boolean,
  target: RecoveryTarget,
  logger: Logger,
): Promise<{ bytes: number; records: number }> {
  let validEnd = 0;
  let records = 0;
  let badAt: Line | undefined;
  let afterBad = 0;
  for await (const line of readLines(path)) {
    const record = line.terminated ? parseRecord(line.text) : undefined;
    if (badAt) {
      if (record) afterBad++;
      continue;
    }
    if (!record) {
      badAt = line;
      continue;
    }
    applyRecord(record, target);
    records++;
    validEnd = line.end;
  }
  if (badAt) {
    const file = path.split('/').pop()!;
    // Valid records after a bad one mean the damage is not a torn append: those records may have been
    // acknowledged, so stop rather than guess.
    if (!isLast || afterBad > 0) throw corrupt(file, badAt, 'unreadable record before the end of the log');
    const size = (await stat(path)).size;
    logger.warn(
      { file, cutBytes: size - validEnd },
      'documents WAL had a torn last record (crash mid-write); cut it',
    );
    await truncate(path, validEnd);
  }
  return { bytes: validEnd, records };
}

export async function recover(dir: string, target: RecoveryTarget, logger: Logger): Promise<Recovered> {
  const names = await readdir(dir);
  for (const name of names) if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
  const baseGen = await loadSnapshot(dir, target);
  const gens = names
    .map(walGeneration)
    .filter((g): g is number => g !== undefined)
    .sort((a, b) => a - b);
  // WALs older than the snapshot were folded into it; a crash after the snapshot's rename left them behind.
  for (const g of gens.filter((g) => g < baseGen)) {
    await rm(join(dir, names.find((n) => walGeneration(n) === g)!), { force: true });
  }
  const live = gens.filter((g) => g >= baseGen);
  let walBytes = 0;
  let records = 0;
  for (const [i, g] of live.entries()) {
    const name = names.find((n) => walGeneration(n) === g)!;
    const result = await replayWal(join(dir, name), i === live.length - 1, target, logger);
    walBytes = result.bytes;
    records += result.records;
  }
  return { gen: live.length > 0 ? live[live.length - 1]! : baseGen, walBytes, records };
}
