// File helpers of the store simulator: private modes (the data folder's rules, platform data-dir/modes),
// atomic JSON state (temp + rename) and streaming hashes (a 50 MB master is never read in one piece).
import { createHash, randomUUID } from 'node:crypto';
import { type BigIntStats, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@omni/platform';

export const mkdirPrivate = (dir: string) => fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });

/** The write in progress (and those queued behind it) per target, so writes of one file run in call order. */
const writing = new Map<string, Promise<void>>();

/**
 * Writes `target` complete or not at all: a temporary file in `tempDir` (same filesystem, never in a folder
 * a reader lists) renamed into place. The temporary name is random: a pid and millisecond name let two
 * writes in one millisecond share a temp file, and the second rename failed (ENOENT). Writes of one target
 * are queued in call order, so the file ends with the last call's content and no write is lost to a race.
 */
export function writeAtomic(target: string, content: string, tempDir: string): Promise<void> {
  const key = path.resolve(target);
  const previous = writing.get(key) ?? Promise.resolve();
  // A failed write fails its own caller only; the next one still runs.
  const mine = previous.catch(() => undefined).then(() => writeNow(target, content, tempDir));
  writing.set(key, mine);
  void mine
    .catch(() => undefined)
    .then(() => {
      if (writing.get(key) === mine) writing.delete(key);
    });
  return mine;
}

async function writeNow(target: string, content: string, tempDir: string): Promise<void> {
  await mkdirPrivate(tempDir);
  await mkdirPrivate(path.dirname(target));
  const temp = path.join(tempDir, `${path.basename(target)}.${randomUUID()}.tmp`);
  try {
    await fs.writeFile(temp, content, { mode: PRIVATE_FILE_MODE, flush: true });
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

export async function readJson<T>(file: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
}

export type HashAlgorithm = 'md5' | 'sha256';

/**
 * Digests of files already read, by inode and content time: a delivery hard-links one staged master into
 * every store's folder (providers/transport/local), so 142 stores' copies are one inode, and hashing it
 * 142 times is the simulator burning the platform's CPU (12 × 50 MB to 142 stores is 87 GB of SHA-256,
 * about four minutes on one core), not a store's work on its own machine. A write to the file changes its
 * mtime (nanoseconds) or size, which misses the cache; the newest entries are kept.
 */
const digests = new Map<string, string>();
const MAX_DIGESTS = 4096;

const identity = (algorithm: HashAlgorithm, s: BigIntStats) =>
  `${algorithm}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;

/** Hex digest of a file, streamed (once per inode and content time: see `digests`). */
export async function hashFile(file: string, algorithm: HashAlgorithm): Promise<string> {
  const before = await fs.stat(file, { bigint: true });
  const key = identity(algorithm, before);
  const known = digests.get(key);
  if (known) return known;
  const hash = createHash(algorithm);
  await pipeline(createReadStream(file), hash);
  const digest = hash.digest('hex');
  // Kept only when nothing wrote to the file while it was read.
  if (identity(algorithm, await fs.stat(file, { bigint: true })) === key) {
    digests.set(key, digest);
    if (digests.size > MAX_DIGESTS) digests.delete(digests.keys().next().value!);
  }
  return digest;
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** `child` resolved against `base`, or undefined when it would leave `base` (a `..` or absolute URI). */
export function inside(base: string, child: string): string | undefined {
  const full = path.resolve(base, child);
  return full.startsWith(`${path.resolve(base)}${path.sep}`) ? full : undefined;
}

/** Appends one line, flushed to disk before it resolves (the file is created private). */
export async function appendLine(file: string, line: string): Promise<void> {
  await mkdirPrivate(path.dirname(file));
  await fs.appendFile(file, `${line}\n`, { mode: PRIVATE_FILE_MODE, flush: true });
}

/**
 * The ingested batches by folder: the older whole-file record (`legacy`, if any), then the log's lines in
 * order (a later line for a folder wins). A last line cut short by a crash is skipped: its batch is
 * ingested again, and its acks already written are read back rather than rewritten.
 */
export async function readIngested<T extends object>(
  legacy: string,
  log: string,
): Promise<Record<string, T>> {
  const ingested = await readJson<Record<string, T>>(legacy, {});
  let text = '';
  try {
    text = await fs.readFile(log, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const { folder, ...batch } = JSON.parse(line) as { folder: string } & T;
      ingested[folder] = batch as unknown as T;
    } catch {
      // a torn last line
    }
  }
  return ingested;
}
