// One process per data directory: two stores appending to the same WAL would corrupt it. The lock file
// holds the owner's pid; a lock left by a dead process (kill -9) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';
import { LOCK_FILE } from './files';

const openInThisProcess = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireLock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  if (openInThisProcess.has(path))
    throw new Error(`document store at ${dir} is already open in this process`);
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const owner = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
      throw new Error(`document store at ${dir} is locked by running process ${owner}`);
    }
    writeFileSync(path, String(process.pid), { mode: PRIVATE_FILE_MODE });
  }
  openInThisProcess.add(path);
  return () => {
    openInThisProcess.delete(path);
    rmSync(path, { force: true });
  };
}
