// Where a statement file waits while it is imported: the service's own folder (DATA_DIR/royalties/spool,
// owner-only), so an import can be read twice (a Basic Audio Profile file needs two passes), resumed after
// a crash from the file itself, and the upload answered before the import ends. Helm gives the service a
// volume for it (charts: royalties.dataSize).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline as pipelineCb, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class Spool {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'royalties', 'spool');
  }

  async ready() {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Where the file is (the import's reader opens it in a worker of its own). */
  path(id: string) {
    return join(this.dir, `${id}.statement`);
  }

  /**
   * Writes the file as it arrives, hashing it on the way; refuses (TooLarge) past `limit` bytes. Written
   * under a temporary name and renamed, so a half-received file is never taken for a whole one.
   */
  async write(id: string, body: Readable, limit: number): Promise<{ sha256: string; bytes: number }> {
    const hash = createHash('sha256');
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        if (bytes > limit) return done(new TooLarge(limit));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const partial = `${this.path(id)}.part`;
    try {
      await pipeline(body, meter, createWriteStream(partial, { mode: 0o600 }));
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    await rename(partial, this.path(id));
    return { sha256: hash.digest('hex'), bytes };
  }

  /** Reads the file from its start; `onBytes` is told how many bytes each read brought. */
  open(id: string, onBytes?: (n: number) => void): Readable {
    return openCounted(this.path(id), onBytes);
  }

  async exists(id: string) {
    return stat(this.path(id)).then(
      () => true,
      () => false,
    );
  }

  remove(id: string) {
    return Promise.all([rm(this.path(id), { force: true }), rm(`${this.path(id)}.part`, { force: true })]);
  }
}

export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The file is larger than ${Math.round(limit / 1024 ** 3)} GB, the most one import takes.`);
    this.name = 'TooLarge';
  }
}

/** A file read from its start; `onBytes` is told how many bytes each read brought. */
export function openCounted(path: string, onBytes?: (n: number) => void): Readable {
  const stream = createReadStream(path, { highWaterMark: 1 << 18 });
  if (!onBytes) return stream;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  pipelineCb(stream, counter, (err) => {
    if (err) counter.destroy(err);
  });
  return counter;
}
