// Older versions created the data folder world-readable (files 0644, folders 0755), so any local user
// could read the token-signing key and mint admin tokens. Every start takes group and other permissions
// off the folder and what Omni keeps in it; an upgrade must not keep a readable folder.
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVICE_NAMES } from '../config/services';
import type { Logger } from '../logging/logger';
import { SHARED_BITS } from './modes';

/**
 * What Omni writes at the top of the data folder (services' document stores, the event log, objects, the
 * dev mailbox, its secrets, the first admin's password). Only these are walked: DATA_DIR set by mistake to
 * a home folder must not have everything in it made private.
 */
export const DATA_DIR_ENTRIES: readonly string[] = [
  ...SERVICE_NAMES,
  'bus',
  'objects',
  'mailbox',
  'secrets',
  'initial-admin.txt',
  // The stores' report folder's default place (storeReportsDir).
  'store-reports',
];

/** Entries looked at together: a folder of thousands of uploads is walked in parallel, not one by one. */
const BATCH = 64;

/** Takes group/other bits off the data folder and Omni's entries in it; returns how many were changed. */
export async function tightenDataDir(dataDir: string, logger: Logger): Promise<number> {
  let changed = 0;
  const refused: string[] = [];
  /** Tightens one entry; returns its children to visit next when it is a folder to descend into. */
  const visit = async ({ path, descend }: Entry): Promise<Entry[]> => {
    let stat: Awaited<ReturnType<typeof lstat>>;
    try {
      stat = await lstat(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    // A link is left alone: chmod would follow it out of the data folder.
    if (stat.isSymbolicLink()) return [];
    if (stat.mode & SHARED_BITS) {
      try {
        await chmod(path, stat.mode & 0o7700);
        changed++;
      } catch (err) {
        // Not ours to change (e.g. a volume's root owned by root): say so rather than refuse to start.
        if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
        refused.push(path);
      }
    }
    if (!descend || !stat.isDirectory()) return [];
    return (await readdir(path)).map((name) => ({ path: join(path, name), descend: true }));
  };

  // Breadth first, a batch at a time: bounded parallelism and one level of paths in memory.
  let level: Entry[] = [
    { path: dataDir, descend: false },
    ...[...DATA_DIR_ENTRIES, ...(await ownedStores(dataDir))].map((name) => ({
      path: join(dataDir, name),
      descend: true,
    })),
  ];
  while (level.length) {
    const next: Entry[] = [];
    for (let i = 0; i < level.length; i += BATCH)
      for (const children of await Promise.all(level.slice(i, i + BATCH).map(visit))) next.push(...children);
    level = next;
  }
  if (changed) logger.warn({ dataDir, changed }, 'made data files readable by their owner only');
  if (refused.length)
    logger.warn(
      { dataDir, paths: refused.slice(0, 10), count: refused.length },
      'cannot make these data files private (not owned by this user); other local users may read them',
    );
  return changed;
}

/** A service's second store (`<service>-<part>`, e.g. billing-sandbox: runtime/ports.ts StoreName). */
async function ownedStores(dataDir: string): Promise<string[]> {
  const names = await readdir(dataDir).catch(() => [] as string[]);
  return names.filter((name) => SERVICE_NAMES.some((service) => name.startsWith(`${service}-`)));
}

interface Entry {
  path: string;
  descend: boolean;
}
