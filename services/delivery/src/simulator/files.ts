// File helpers of the store simulator: private modes (the data folder's rules, platform data-dir/modes),
// atomic JSON state (temp + rename) and streaming hashes (a 50 MB master is never read in one piece).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@omni/platform';

export const mkdirPrivate = (dir: string) => fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });

/**
 * Writes `target` complete or not at all: a temporary file in `tempDir` (same filesystem, never in a folder
 * a reader lists) renamed into place.
 */
export async function writeAtomic(target: string, content: string, tempDir: string): Promise<void> {
  await mkdirPrivate(tempDir);
  await mkdirPrivate(path.dirname(target));
  const temp = path.join(tempDir, `${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  await fs.writeFile(temp, content, { mode: PRIVATE_FILE_MODE, flush: true });
  await fs.rename(temp, target);
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

/** Hex digest of a file, streamed. */
export async function hashFile(file: string, algorithm: HashAlgorithm): Promise<string> {
  const hash = createHash(algorithm);
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
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
