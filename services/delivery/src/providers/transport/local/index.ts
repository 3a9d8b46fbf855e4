// The batch layout under a folder on this machine: the embedded store simulator's inbox, and a store
// reached through a mounted share. Each file is written to a temporary sibling, flushed, then renamed into
// place (rename is atomic on one filesystem), so a reader never sees a final name half-written.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { deliverBatch, type FileStore, type StoredFile } from '../choreography';
import { checkAckName, PROCESSED_ACK_FOLDER, tempPath } from '../layout';
import {
  type Acknowledgement,
  type Batch,
  type DeliveryReport,
  type Transport,
  TransportError,
} from '../port';

export interface LocalTransportOptions {
  /** The store's root folder; batches are written under it. */
  root: string;
  /** Relative to root. Default `acknowledgements`. */
  ackFolder?: string;
}

export function createLocalTransport(options: LocalTransportOptions): Transport {
  return new LocalTransport(options);
}

class LocalTransport implements Transport, FileStore {
  readonly kind = 'local';
  private readonly root: string;
  private readonly ackDir: string;

  constructor(options: LocalTransportOptions) {
    this.root = path.resolve(options.root);
    this.ackDir = path.join(this.root, options.ackFolder ?? 'acknowledgements');
  }

  deliver(batch: Batch): Promise<DeliveryReport> {
    return deliverBatch(this, batch);
  }

  async stat(rel: string, wantSha256: boolean): Promise<StoredFile | null> {
    const full = path.join(this.root, rel);
    const stat = await fs.stat(full).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!stat?.isFile()) return null;
    if (!wantSha256) return { size: stat.size };
    const hash = createHash('sha256');
    await pipeline(createReadStream(full), hash);
    return { size: stat.size, sha256: hash.digest('hex') };
  }

  async put(rel: string, open: () => Readable, file?: { size: number; localPath?: string }): Promise<void> {
    const full = path.join(this.root, rel);
    const temp = path.join(this.root, tempPath(rel));
    await fs.mkdir(path.dirname(full), { recursive: true });
    if (file?.localPath && (await this.link(file.localPath, file.size, temp))) {
      await fs.rename(temp, full);
      return;
    }
    // flags 'w' truncates a temp file a crashed run left behind.
    await pipeline(open(), createWriteStream(temp, { flags: 'w', flush: true }));
    await fs.rename(temp, full);
  }

  /**
   * A staged master is immutable (named by its hash): a hard link gives the store the same bytes without a
   * copy. Falls back to copying (false) across filesystems, or when the file is not the size expected.
   */
  private async link(source: string, size: number, temp: string): Promise<boolean> {
    const stat = await fs.stat(source).catch(() => null);
    if (stat?.size !== size) return false;
    await fs.rm(temp, { force: true });
    return fs.link(source, temp).then(
      () => true,
      () => false,
    );
  }

  async listAcknowledgements(): Promise<Acknowledgement[]> {
    const names = await fs.readdir(this.ackDir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw this.classify(err);
    });
    const acks: Acknowledgement[] = [];
    for (const name of names.sort()) {
      const stat = await fs.stat(path.join(this.ackDir, name));
      if (stat.isFile()) acks.push({ name, size: stat.size, modifiedAt: stat.mtime });
    }
    return acks;
  }

  async getAcknowledgement(name: string): Promise<Buffer> {
    checkAckName(name);
    return fs.readFile(path.join(this.ackDir, name)).catch((err) => {
      throw this.classify(err);
    });
  }

  async archiveAcknowledgement(name: string): Promise<void> {
    checkAckName(name);
    const processed = path.join(this.ackDir, PROCESSED_ACK_FOLDER);
    try {
      await fs.mkdir(processed, { recursive: true });
      await fs.rename(path.join(this.ackDir, name), path.join(processed, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw this.classify(err);
    }
  }

  async close(): Promise<void> {}

  classify(err: unknown): TransportError {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const message = err instanceof Error ? err.message : String(err);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return new TransportError('permission', message, { cause: err });
    if (code === 'ENOENT') return new TransportError('not-found', message, { cause: err });
    // A full disk or a lost mount may clear up.
    return new TransportError('server', message, { cause: err });
  }
}
