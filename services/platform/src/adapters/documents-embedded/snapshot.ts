// Snapshots: the whole state written to a temp file, fsynced, then renamed over snapshot.jsonl and the
// directory fsynced. A crash before the rename leaves the old snapshot and every WAL it needs; a crash after
// it leaves the new one plus WAL files it no longer needs, which recovery deletes.
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../data-dir/modes';
import type { Doc } from '../../ports/documents';
import { fsyncDir, SNAPSHOT_FILE } from './files';

export interface SnapshotHeader {
  v: 1;
  /** The first WAL generation NOT included in this snapshot: recovery replays it and later ones. */
  baseGen: number;
}

/** The state captured at a WAL rotation. Documents are immutable, so holding references is enough. */
export interface SnapshotImage {
  baseGen: number;
  collections: Array<[string, Doc[]]>;
  counters: Array<[string, number]>;
}

const CHUNK_BYTES = 1 << 20;

export async function writeSnapshot(dir: string, image: SnapshotImage, fsync: boolean): Promise<void> {
  const tmp = join(dir, `${SNAPSHOT_FILE}.tmp`);
  const handle = await open(tmp, 'w', PRIVATE_FILE_MODE);
  let docs = 0;
  try {
    let buffer = `${JSON.stringify({ v: 1, baseGen: image.baseGen } satisfies SnapshotHeader)}\n`;
    const flush = async (force: boolean) => {
      if (buffer.length >= CHUNK_BYTES || (force && buffer.length > 0)) {
        await handle.write(buffer);
        buffer = '';
      }
    };
    for (const [name, list] of image.collections) {
      for (const doc of list) {
        buffer += `${JSON.stringify({ c: name, d: doc })}\n`;
        docs++;
        await flush(false);
      }
    }
    for (const [name, value] of image.counters) buffer += `${JSON.stringify({ s: name, v: value })}\n`;
    // The footer proves the file is whole; a snapshot without it is corrupt, never silently partial.
    buffer += `${JSON.stringify({ end: true, docs, counters: image.counters.length })}\n`;
    await flush(true);
    if (fsync) await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, join(dir, SNAPSHOT_FILE));
  if (fsync) await fsyncDir(dir);
}
