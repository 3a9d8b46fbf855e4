// Small file-system helpers whose point is durability: a rename is only durable once the directory is
// synced, and a partial write must be continued rather than ignored.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';

const write = promisify(fs.write);
const fdatasync = promisify(fs.fdatasync);
const fsyncAsync = promisify(fs.fsync);
const open = promisify(fs.open);
const close = promisify(fs.close);
const rename = promisify(fs.rename);

/** Writes the whole buffer at the current append position, looping over short writes. */
export async function writeAll(fd: number, buffer: Buffer): Promise<void> {
  let written = 0;
  while (written < buffer.length) {
    const { bytesWritten } = await write(fd, buffer, written, buffer.length - written, null);
    written += bytesWritten;
  }
}

export function datasync(fd: number): Promise<void> {
  return fdatasync(fd);
}

export function fsyncDirSync(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const fd = await open(dir, 'r');
  try {
    await fsyncAsync(fd);
  } finally {
    await close(fd);
  }
}

/** Write-temp, fsync, rename, fsync dir: readers see the old or the new content, never half of one. */
export async function writeFileAtomic(file: string, content: string, sync: boolean): Promise<void> {
  const temp = `${file}.tmp`;
  const fd = await open(temp, 'w', PRIVATE_FILE_MODE);
  try {
    await writeAll(fd, Buffer.from(content));
    if (sync) await fsyncAsync(fd);
  } finally {
    await close(fd);
  }
  await rename(temp, file);
  if (sync) await fsyncDir(path.dirname(file));
}

export function writeFileAtomicSync(file: string, content: string, sync: boolean): void {
  const temp = `${file}.tmp`;
  const fd = fs.openSync(temp, 'w', PRIVATE_FILE_MODE);
  try {
    fs.writeFileSync(fd, content);
    if (sync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  if (sync) fsyncDirSync(path.dirname(file));
}
