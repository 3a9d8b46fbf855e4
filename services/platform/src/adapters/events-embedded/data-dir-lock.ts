// Two processes appending to the same log files would interleave lines and corrupt offsets, so the
// events directory is owned by one bus at a time: a LOCK file holding the owner's pid (a lock left by a
// killed process is taken over once that pid is gone), plus an in-process registry for the same pid.
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';

const openInThisProcess = new Set<string>();

export function acquireDataDirLock(root: string): () => void {
  const resolved = path.resolve(root);
  if (openInThisProcess.has(resolved)) {
    throw new Error(`event log ${resolved} is already open in this process; close the other bus first`);
  }
  const lockFile = path.join(resolved, 'LOCK');
  const holder = readHolder(lockFile);
  if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
    throw new Error(`event log ${resolved} is in use by process ${holder}`);
  }
  fs.writeFileSync(lockFile, String(process.pid), { mode: PRIVATE_FILE_MODE });
  openInThisProcess.add(resolved);
  return () => {
    openInThisProcess.delete(resolved);
    if (readHolder(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
  };
}

function readHolder(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
