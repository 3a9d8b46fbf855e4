// The embedded ObjectStore: objects are plain files under <dataDir>/objects/<bucket>/<key>, each with a
// JSON sidecar under <dataDir>/objects/_meta/<bucket>/<key>.json (content type, metadata, etag, size).
//
// A put streams into <dataDir>/objects/_tmp (same filesystem, so publishing is atomic), then publishes:
//   no overwrite: link(tmp, final) -> EEXIST means someone else won -> ObjectExistsError
//   overwrite:    rename(tmp, final) replaces atomically
// and only then renames the sidecar into place. The sidecar records the data file's inode: a reader that
// finds a sidecar for another inode is looking at a publish in flight (or a crash between the two steps)
// and waits briefly, then falls back to what the file itself can tell.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from '@omni/platform';
import { createLogger, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@omni/platform';
import {
  BucketNotFoundError,
  ObjectExistsError,
  type ObjectInfo,
  ObjectNotFoundError,
  type ObjectStore,
  type PresignedUpload,
  type PresignPutOptions,
  type PutOptions,
} from '../port';
import { InvalidObjectKeyError, InvalidRangeError } from './errors';
import { KeyLock } from './key-lock';
import { assertBucketName, assertObjectKey, type StoreLayout, storeLayout } from './keys';
import { objectUrl, signedUrl } from './signing';
import { type WriteLimits, writeBodyToFile } from './stream-to-file';

export interface LocalObjectStoreOptions {
  dataDir: string;
  /** Where the router is reachable from a browser, e.g. http://localhost:8080/storage. No trailing path after it. */
  publicBaseUrl: string;
  /** HMAC key for upload and download links. */
  secret: string;
  /** Buckets anyone may read without a signature; publicUrl() for them is unsigned. */
  publicBuckets?: string[];
  logger?: Logger;
}

/** An opened object: its description and a handle on exactly the bytes described. */
export interface OpenedObject {
  info: ObjectInfo;
  cacheControl?: string;
  handle: fs.promises.FileHandle;
}

interface Sidecar {
  v: 1;
  contentType: string;
  metadata: Record<string, string>;
  etag: string;
  size: number;
  lastModified: string;
  cacheControl?: string;
  ino: number;
}

/** Lifetime of publicUrl() links for private buckets: S3's maximum presign lifetime, so both adapters agree. */
export const PRIVATE_PUBLIC_URL_SECONDS = 7 * 24 * 3600;
const DAY_SECONDS = 24 * 3600;
const STALE_TMP_MS = 60 * 60 * 1000;

export class LocalDiskObjectStore implements ObjectStore {
  readonly kind = 'local';
  readonly layout: StoreLayout;
  private readonly lock = new KeyLock();
  private readonly publicBuckets: Set<string>;
  private readonly log: Logger;

  constructor(private readonly options: LocalObjectStoreOptions) {
    if (!options.secret || options.secret.length < 16) {
      throw new Error('the local object store needs a secret of at least 16 characters to sign links');
    }
    this.layout = storeLayout(options.dataDir);
    this.publicBuckets = new Set(options.publicBuckets ?? []);
    this.log = options.logger ?? createLogger('objects-local');
  }

  get secret(): string {
    return this.options.secret;
  }

  isPublicBucket(bucket: string): boolean {
    return this.publicBuckets.has(bucket);
  }

  async ready(): Promise<void> {
    await fs.promises.mkdir(this.layout.tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await this.removeStaleTempFiles();
  }

  async healthy(): Promise<boolean> {
    try {
      await fs.promises.access(this.layout.root, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}

  async ensureBucket(bucket: string): Promise<void> {
    await fs.promises.mkdir(this.layout.bucketDir(bucket), { recursive: true, mode: PRIVATE_DIR_MODE });
    await fs.promises.mkdir(this.layout.metaBucketDir(bucket), { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  async bucketExists(bucket: string): Promise<boolean> {
    return isDirectory(this.layout.bucketDir(bucket));
  }

  putObject(bucket: string, key: string, body: Readable | Buffer, options: PutOptions): Promise<ObjectInfo> {
    return this.put(bucket, key, body, options, {});
  }

  /** putObject with a byte limit, for the upload endpoint. Exceeding it rejects with ObjectTooLargeError. */
  async put(
    bucket: string,
    key: string,
    body: Readable | Buffer,
    options: PutOptions,
    limits: Pick<WriteLimits, 'maxSize'>,
  ): Promise<ObjectInfo> {
    const dataPath = this.layout.dataPath(bucket, key);
    const metaPath = this.layout.metaPath(bucket, key);
    await this.assertBucket(bucket);
    // Cheap early refusal so a doomed upload is not streamed to disk first; the link() below is the real guard.
    if (!options.overwrite && (await isFile(dataPath))) throw new ObjectExistsError(bucket, key);

    await fs.promises.mkdir(this.layout.tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmpData = path.join(this.layout.tmpDir, randomUUID());
    const tmpMeta = `${tmpData}.json`;
    try {
      const written = await writeBodyToFile(body, tmpData, { ...limits, expectedSize: options.size });
      const sidecar: Sidecar = {
        v: 1,
        contentType: options.contentType,
        metadata: normaliseMetadata(options.metadata),
        etag: written.md5,
        size: written.size,
        lastModified: new Date().toISOString(),
        ino: written.ino,
        ...(options.cacheControl ? { cacheControl: options.cacheControl } : {}),
      };
      await fs.promises.writeFile(tmpMeta, JSON.stringify(sidecar), {
        flag: 'wx',
        flush: true,
        mode: PRIVATE_FILE_MODE,
      });
      await this.lock.run(`${bucket}/${key}`, async () => {
        await mkdirParents(dataPath, key);
        if (options.overwrite) {
          await publishReplacing(tmpData, dataPath, key);
        } else {
          await publishIfAbsent(tmpData, dataPath, bucket, key);
        }
        await fs.promises.mkdir(path.dirname(metaPath), { recursive: true, mode: PRIVATE_DIR_MODE });
        await fs.promises.rename(tmpMeta, metaPath);
        await fsyncDir(path.dirname(dataPath));
      });
      return toInfo(bucket, key, sidecar);
    } finally {
      await Promise.all([fs.promises.rm(tmpData, { force: true }), fs.promises.rm(tmpMeta, { force: true })]);
    }
  }

  async statObject(bucket: string, key: string): Promise<ObjectInfo | null> {
    const dataPath = this.layout.dataPath(bucket, key);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(dataPath);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (!stat.isFile()) return null;
    return (await this.describe(bucket, key, stat)).info;
  }

  async getObject(bucket: string, key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const opened = await this.openObject(bucket, key);
    if (!range) return opened.handle.createReadStream();
    const size = opened.info.size;
    const { start } = range;
    const valid = Number.isInteger(start) && start >= 0 && (start < size || (start === 0 && size === 0));
    if (!valid) {
      await opened.handle.close();
      throw new InvalidRangeError(start, size);
    }
    if (size === 0) {
      await opened.handle.close();
      return Readable.from([]);
    }
    // Inclusive end, clamped to the object as S3 does for a range that runs past the end.
    const end = Math.min(range.end ?? size - 1, size - 1);
    if (!Number.isInteger(end) || end < start) {
      await opened.handle.close();
      throw new InvalidRangeError(start, size);
    }
    return opened.handle.createReadStream({ start, end });
  }

  /** Opens the object's file first, then describes that very file: a concurrent overwrite cannot mismatch them. */
  async openObject(bucket: string, key: string): Promise<OpenedObject> {
    const dataPath = this.layout.dataPath(bucket, key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(dataPath, 'r');
    } catch (err) {
      if (isMissing(err) || isDirError(err)) throw await this.notFound(bucket, key);
      throw err;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw await this.notFound(bucket, key);
      const described = await this.describe(bucket, key, stat);
      return { ...described, handle };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async removeObject(bucket: string, key: string): Promise<void> {
    const dataPath = this.layout.dataPath(bucket, key);
    const metaPath = this.layout.metaPath(bucket, key);
    await this.lock.run(`${bucket}/${key}`, async () => {
      try {
        const stat = await fs.promises.lstat(dataPath);
        // A "folder" of other keys is not an object: removing it is a no-op, as in S3.
        if (!stat.isFile()) return;
        await fs.promises.unlink(dataPath);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      await fs.promises.rm(metaPath, { force: true });
    });
    await pruneEmptyDirs(path.dirname(dataPath), this.layout.bucketDir(bucket));
    await pruneEmptyDirs(path.dirname(metaPath), this.layout.metaBucketDir(bucket));
  }

  async listObjects(bucket: string, prefix = ''): Promise<ObjectInfo[]> {
    await this.assertBucket(bucket);
    const bucketDir = this.layout.bucketDir(bucket);
    // Walk only the deepest folder the prefix names, not the whole bucket.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    let start = bucketDir;
    if (folder) {
      try {
        assertObjectKey(folder);
      } catch {
        return [];
      }
      start = path.join(bucketDir, ...folder.split('/'));
    }
    const keys: string[] = [];
    await walkFiles(start, folder, keys);
    const matching = keys.filter((k) => k.startsWith(prefix)).sort(compareBytes);
    const infos: ObjectInfo[] = [];
    // Bounded parallelism: enough to hide sidecar reads, few enough not to exhaust file handles.
    for (let i = 0; i < matching.length; i += 16) {
      const batch = await Promise.all(matching.slice(i, i + 16).map((k) => this.statObject(bucket, k)));
      for (const info of batch) if (info) infos.push(info);
    }
    return infos;
  }

  async presignPut(bucket: string, key: string, options: PresignPutOptions): Promise<PresignedUpload> {
    assertBucketName(bucket);
    assertObjectKey(key);
    if (!Number.isInteger(options.maxSize) || options.maxSize < 0)
      throw new Error('maxSize must be a whole number');
    if (!options.contentType) throw new Error('contentType is required to sign an upload');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a newline would shift the signed fields
    if (!options.owner || /[\u0000-\u001f]/.test(options.owner))
      throw new Error('an upload must be bound to an owner subject (no control characters)');
    const expires = expiryFrom(options.expiresInSeconds);
    const url = signedUrl(this.options.publicBaseUrl, this.options.secret, {
      method: 'PUT',
      bucket,
      key,
      expires,
      maxSize: options.maxSize,
      contentType: options.contentType,
      owner: options.owner,
      overwrite: options.overwrite === true,
    });
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      expiresAt: new Date(expires * 1000),
    };
  }

  async presignGet(bucket: string, key: string, expiresInSeconds: number): Promise<string> {
    assertBucketName(bucket);
    assertObjectKey(key);
    return signedUrl(this.options.publicBaseUrl, this.options.secret, {
      method: 'GET',
      bucket,
      key,
      expires: expiryFrom(expiresInSeconds),
    });
  }

  /**
   * Public buckets: the plain, unsigned URL (the router serves it to anyone). Private buckets: a signed GET
   * valid for at least 7 days, with the expiry rounded up to a whole day so the URL stays the same (and
   * cacheable) for a day instead of changing on every call.
   */
  publicUrl(bucket: string, key: string): string {
    assertBucketName(bucket);
    assertObjectKey(key);
    if (this.publicBuckets.has(bucket)) return objectUrl(this.options.publicBaseUrl, bucket, key);
    const earliest = Math.floor(Date.now() / 1000) + PRIVATE_PUBLIC_URL_SECONDS;
    const expires = Math.ceil(earliest / DAY_SECONDS) * DAY_SECONDS;
    return signedUrl(this.options.publicBaseUrl, this.options.secret, {
      method: 'GET',
      bucket,
      key,
      expires,
    });
  }

  private async assertBucket(bucket: string): Promise<void> {
    if (!(await this.bucketExists(bucket))) throw new BucketNotFoundError(bucket);
  }

  private async notFound(bucket: string, key: string): Promise<Error> {
    return (await this.bucketExists(bucket))
      ? new ObjectNotFoundError(bucket, key)
      : new BucketNotFoundError(bucket);
  }

  private async describe(
    bucket: string,
    key: string,
    stat: fs.Stats,
  ): Promise<{ info: ObjectInfo; cacheControl?: string }> {
    const metaPath = this.layout.metaPath(bucket, key);
    // A mismatched sidecar is almost always a publish a few microseconds from done: give it a moment.
    for (let attempt = 0; attempt < 5; attempt++) {
      const sidecar = await readSidecar(metaPath);
      if (sidecar && sidecar.ino === stat.ino && sidecar.size === stat.size) {
        return { info: toInfo(bucket, key, sidecar), cacheControl: sidecar.cacheControl };
      }
      await new Promise((resolve) => setTimeout(resolve, 5 * (attempt + 1)));
    }
    // A crash between publishing the data and its sidecar: the bytes are there, their description is not.
    this.log.warn(
      { bucket, key },
      'object has no matching metadata sidecar; describing it from the file alone',
    );
    return {
      info: {
        bucket,
        key,
        size: stat.size,
        contentType: 'application/octet-stream',
        etag: `${stat.ino.toString(16)}-${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`,
        lastModified: stat.mtime,
        metadata: {},
      },
    };
  }

  private async removeStaleTempFiles(): Promise<void> {
    const now = Date.now();
    for (const name of await fs.promises.readdir(this.layout.tmpDir)) {
      const file = path.join(this.layout.tmpDir, name);
      try {
        const stat = await fs.promises.stat(file);
        if (now - stat.mtimeMs > STALE_TMP_MS) await fs.promises.rm(file, { force: true });
      } catch {
        // Another put finished with it in the meantime.
      }
    }
  }
}

function expiryFrom(expiresInSeconds: number): number {
  if (!Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new Error('expiresInSeconds must be a positive number');
  }
  return Math.floor(Date.now() / 1000) + Math.ceil(expiresInSeconds);
}

/** S3 lower-cases user metadata keys; doing the same here keeps both adapters interchangeable. */
function normaliseMetadata(metadata: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) out[k.toLowerCase()] = String(v);
  return out;
}

function toInfo(bucket: string, key: string, sidecar: Sidecar): ObjectInfo {
  return {
    bucket,
    key,
    size: sidecar.size,
    contentType: sidecar.contentType,
    etag: sidecar.etag,
    lastModified: new Date(sidecar.lastModified),
    metadata: { ...sidecar.metadata },
  };
}

async function readSidecar(file: string): Promise<Sidecar | null> {
  try {
    const parsed = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Partial<Sidecar>;
    if (parsed.v !== 1 || typeof parsed.etag !== 'string' || typeof parsed.size !== 'number') return null;
    return parsed as Sidecar;
  } catch {
    return null;
  }
}

async function publishIfAbsent(tmp: string, final: string, bucket: string, key: string): Promise<void> {
  try {
    await fs.promises.link(tmp, final);
  } catch (err) {
    if (errCode(err) === 'EEXIST') {
      if (await isDirectory(final)) throw folderConflict(key);
      throw new ObjectExistsError(bucket, key);
    }
    throw err;
  }
}

async function publishReplacing(tmp: string, final: string, key: string): Promise<void> {
  try {
    await fs.promises.rename(tmp, final);
  } catch (err) {
    if (isDirError(err) || errCode(err) === 'ENOTEMPTY' || errCode(err) === 'EEXIST')
      throw folderConflict(key);
    throw err;
  }
}

async function mkdirParents(file: string, key: string): Promise<void> {
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    if (errCode(err) === 'ENOTDIR' || errCode(err) === 'EEXIST') {
      throw new InvalidObjectKeyError(
        key,
        'part of the key is already an object, so it cannot also be a folder',
      );
    }
    throw err;
  }
}

function folderConflict(key: string): InvalidObjectKeyError {
  return new InvalidObjectKeyError(
    key,
    'the key is a folder of other objects, so it cannot also be an object',
  );
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function pruneEmptyDirs(dir: string, stopAt: string): Promise<void> {
  let current = dir;
  while (current.startsWith(stopAt + path.sep)) {
    try {
      await fs.promises.rmdir(current);
    } catch {
      return; // not empty (or already gone): stop climbing
    }
    current = path.dirname(current);
  }
}

async function walkFiles(dir: string, relative: string, out: string[]): Promise<void> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const entry of entries) {
    const rel = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walkFiles(path.join(dir, entry.name), rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

/** S3 lists keys in UTF-8 byte order. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(p)).isDirectory();
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(p)).isFile();
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function isMissing(err: unknown): boolean {
  return errCode(err) === 'ENOENT' || errCode(err) === 'ENOTDIR';
}

function isDirError(err: unknown): boolean {
  return errCode(err) === 'EISDIR';
}
