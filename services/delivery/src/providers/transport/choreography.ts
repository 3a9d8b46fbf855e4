// The DDEX batch choreography (shared/design/delivery.md), once for every adapter: every file of the batch
// first, then BatchComplete_<batchId>.xml, the recipient's trigger. Each file lands complete or not at all
// (the adapter's `put`), so a crash leaves at worst a temporary file that the next run replaces, and a
// re-run skips every file already complete with the right size (and hash, where the store can tell it).
import type { Readable } from 'node:stream';
import { checkBatch, manifestPath } from './layout';
import {
  type Acknowledgement,
  type Batch,
  type BatchFile,
  type DeliveryReport,
  TransportError,
} from './port';
import { verifiedSource } from './verified-source';

export interface StoredFile {
  size: number;
  /** Only when the store can tell it without reading the file back (S3 metadata, local disk). */
  sha256?: string;
}

/** What an adapter provides: a store of files by relative path. */
export interface FileStore {
  stat(path: string, wantSha256: boolean): Promise<StoredFile | null>;
  /**
   * Makes `path` appear with exactly the opened body's bytes, or not at all (temp + rename, or one S3
   * PUT). `open` is called only when the client is ready to consume it: a body opened earlier could fail
   * before anyone listens, and the client would then wait for it for ever.
   */
  put(path: string, open: () => Readable, file: { size: number; sha256?: string }): Promise<void>;
  listAcknowledgements(): Promise<Acknowledgement[]>;
  getAcknowledgement(name: string): Promise<Buffer>;
  /** Maps an adapter's error (socket, SFTP status, S3 code) to a TransportError. */
  classify(err: unknown): TransportError;
}

export async function deliverBatch(store: FileStore, batch: Batch): Promise<DeliveryReport> {
  checkBatch(batch);
  const report: DeliveryReport = { batchId: batch.batchId, sent: [], skipped: [] };
  const manifest: BatchFile = { ...batch.manifest, path: manifestPath(batch) };
  try {
    // BatchComplete already there means the recipient may have ingested the batch: never touch it again.
    const done = await store.stat(manifest.path, manifest.sha256 !== undefined);
    if (done) {
      if (!sameFile(done, manifest)) {
        throw new TransportError(
          'conflict',
          `${manifest.path} is already on the store with different content: this batch id was delivered before`,
        );
      }
      report.skipped.push(...batch.files.map((f) => f.path), manifest.path);
      return report;
    }
    // One file at a time: a store sees a batch grow in order, and memory holds one stream at most.
    for (const file of [...batch.files, manifest]) {
      const existing = await store.stat(file.path, file.sha256 !== undefined);
      if (existing && sameFile(existing, file)) {
        report.skipped.push(file.path);
        continue;
      }
      await putVerified(store, file);
      report.sent.push(file.path);
    }
    return report;
  } catch (err) {
    throw err instanceof TransportError ? err : store.classify(err);
  }
}

async function putVerified(store: FileStore, file: BatchFile): Promise<void> {
  // Clients wrap a body's error in their own: remember it, so a short or corrupt source is reported as
  // itself and not as whatever the client made of it.
  let bodyError: unknown;
  const open = () => {
    const body = verifiedSource(file.source(), file.path, file.size, file.sha256);
    body.on('error', (err) => {
      bodyError = err;
    });
    return body;
  };
  try {
    await store.put(file.path, open, file);
  } catch (err) {
    if (bodyError instanceof TransportError) throw bodyError;
    if (bodyError) {
      throw new TransportError('source', `reading ${file.path} failed: ${(bodyError as Error).message}`, {
        cause: bodyError,
      });
    }
    throw err;
  }
}

function sameFile(stored: StoredFile, wanted: { size: number; sha256?: string }): boolean {
  if (stored.size !== wanted.size) return false;
  if (wanted.sha256 && stored.sha256) return stored.sha256 === wanted.sha256.toLowerCase();
  return true;
}
