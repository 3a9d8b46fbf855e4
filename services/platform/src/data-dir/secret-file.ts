// Secrets the platform makes for itself on one machine (the object-URL signing key when OBJECT_URL_SECRET
// is unset): random on first start, kept under DATA_DIR/secrets readable by the owner only, reused after.
// A secret written in the source would let anyone who reaches the platform sign their own links.
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './modes';

const MIN_LENGTH = 32;

/**
 * The secret stored as `name` under dataDir/secrets, created on first use. Written whole to a temp file,
 * synced, then published with link(), which fails if the name exists: processes sharing the data folder
 * and starting together all end up with the one that was published first, and a crash never leaves an
 * empty or half-written secret under the real name.
 */
export async function dataDirSecret(dataDir: string, name: string): Promise<string> {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  const existing = await readSecret(file);
  if (existing) return existing;

  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const secret = randomBytes(32).toString('base64url');
  const tmp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(`${secret}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(tmp, { force: true });
  }
  const stored = await readSecret(file);
  if (!stored) throw new Error(`${file} holds no usable secret; delete it to have a new one made`);
  return stored;
}

async function readSecret(file: string): Promise<string | undefined> {
  try {
    const value = (await readFile(file, 'utf8')).trim();
    return value.length >= MIN_LENGTH ? value : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
