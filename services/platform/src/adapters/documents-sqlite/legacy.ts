// A data folder written by the hand-written store SQLite replaced (<dataDir>/documents/: snapshot.jsonl,
// then wal-<generation>.jsonl files of committed writes) is imported once, at the first start on SQLite, in
// one SQLite transaction, and the old folder is renamed to documents.migrated-to-sqlite (kept until the
// operator deletes it; an import interrupted by a crash leaves nothing behind and runs again).
//
// The old format, for the record: the snapshot's first line is {"v":1,"baseGen":N}, then {"c":collection,
// "d":doc} and {"s":sequence,"v":value} lines and a footer {"end":true}; WAL files from generation N on
// hold one {"w":[op...]} record a line, op being ["p",collection,doc], ["d",collection,id] or
// ["s",sequence,value]. The last WAL's last line may be torn by a crash; it was never acknowledged.
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { open, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import type { Doc } from '../../ports/documents';

export const LEGACY_FOLDER = 'documents';
export const MIGRATED_FOLDER = 'documents.migrated-to-sqlite';
const WAL = /^wal-(\d{10})\.jsonl$/;

export interface ImportTarget {
  put(collection: string, doc: Doc): void;
  remove(collection: string, id: string): void;
  sequence(name: string, value: number): void;
}

export function hasLegacyFolder(dataDir: string): boolean {
  const dir = join(dataDir, LEGACY_FOLDER);
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) => name === 'snapshot.jsonl' || WAL.test(name));
}

async function endsWithNewline(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

async function* lines(path: string): AsyncGenerator<string> {
  const reader = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of reader) if (line.length > 0) yield line;
}

function fail(file: string, line: number, why: string): Error {
  return new Error(
    `the old document store's ${file} is unreadable at line ${line} (${why}); move the folder away to start empty, or restore it from a backup`,
  );
}

/** Replays the old folder into `target`; returns how many documents and sequences it held. */
export async function importLegacy(
  dataDir: string,
  target: ImportTarget,
  logger: Logger,
): Promise<{ records: number }> {
  const dir = join(dataDir, LEGACY_FOLDER);
  let records = 0;
  const progress = () => {
    if (++records % 50_000 === 0) logger.warn({ records }, 'migrating the old document store: still reading');
  };
  let baseGen = 1;
  const snapshot = join(dir, 'snapshot.jsonl');
  if (existsSync(snapshot)) {
    let n = 0;
    let ended = false;
    for await (const text of lines(snapshot)) {
      n++;
      const entry = JSON.parse(text) as Record<string, unknown>;
      if (n === 1) {
        if (entry.v !== 1 || typeof entry.baseGen !== 'number') throw fail('snapshot.jsonl', n, 'bad header');
        baseGen = entry.baseGen;
      } else if (typeof entry.c === 'string') target.put(entry.c, entry.d as Doc);
      else if (typeof entry.s === 'string') target.sequence(entry.s, entry.v as number);
      else if (entry.end === true) ended = true;
      else throw fail('snapshot.jsonl', n, 'unknown entry');
      progress();
    }
    if (!ended) throw fail('snapshot.jsonl', n, 'no footer: the snapshot is incomplete');
  }
  const wals = (await readdir(dir))
    .map((name) => ({ name, gen: Number(WAL.exec(name)?.[1] ?? Number.NaN) }))
    .filter((w) => w.gen >= baseGen)
    .sort((a, b) => a.gen - b.gen);
  for (const [i, wal] of wals.entries()) {
    const path = join(dir, wal.name);
    const last = i === wals.length - 1;
    // A last line without its newline is a torn append (never acknowledged): left out, as the old store did.
    const whole = await endsWithNewline(path);
    const all: string[] = [];
    for await (const text of lines(path)) all.push(text);
    for (const [n, text] of all.entries()) {
      let record: { w?: unknown };
      try {
        record = JSON.parse(text) as { w?: unknown };
      } catch {
        if (last && n === all.length - 1) break;
        throw fail(wal.name, n + 1, 'not JSON');
      }
      if (last && n === all.length - 1 && !whole) break;
      if (!Array.isArray(record.w)) throw fail(wal.name, n + 1, 'not a record');
      for (const op of record.w as Array<[string, string, unknown]>) {
        if (op[0] === 'p') target.put(op[1], op[2] as Doc);
        else if (op[0] === 'd') target.remove(op[1], op[2] as string);
        else if (op[0] === 's') target.sequence(op[1], op[2] as number);
        else throw fail(wal.name, n + 1, `unknown operation ${JSON.stringify(op[0])}`);
        progress();
      }
    }
  }
  return { records };
}

/** Moves the imported folder aside, so the next start does not import it again. */
export async function retireLegacyFolder(dataDir: string): Promise<string> {
  const to = join(dataDir, MIGRATED_FOLDER);
  await rename(join(dataDir, LEGACY_FOLDER), to);
  return to;
}
