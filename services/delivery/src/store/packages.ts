// Staged files: one record per stored file (bucket + key) with the hashes computed while it was fetched,
// so every store of a release, and a restarted process, reuses the one staged copy instead of fetching
// the master again.
import type { Collection, Doc, DocumentStore } from '@omni/platform';

export const PACKAGES = 'delivery_packages';

export interface StagedFileDoc extends Doc {
  /** The release that first needed it (a file key belongs to one upload, so to one owner). */
  releaseId: string;
  bucket: string;
  fileKey: string;
  sha256: string;
  md5: string;
  size: number;
  stagedAt: string;
}

/** A transcoded copy: one per (source content, format), whichever stores and releases want it. */
export interface TranscodedFileDoc extends Doc {
  releaseId: string;
  /** SHA-256 of the staged master it was made from. */
  source: string;
  format: string;
  sha256: string;
  md5: string;
  size: number;
  stagedAt: string;
}

const idOf = (bucket: string, fileKey: string) => `${bucket}/${fileKey}`;
const transcodeId = (source: string, format: string) => `transcode:${source}:${format}`;

export class PackagesRepository {
  private readonly files: Collection<StagedFileDoc>;
  private readonly transcodes: Collection<TranscodedFileDoc>;

  constructor(store: DocumentStore) {
    this.files = store.collection<StagedFileDoc>(PACKAGES, { indexes: [{ fields: { releaseId: 1 } }] });
    this.transcodes = store.collection<TranscodedFileDoc>(PACKAGES);
  }

  findTranscode(source: string, format: string): Promise<TranscodedFileDoc | null> {
    return this.transcodes.findById(transcodeId(source, format));
  }

  async recordTranscode(file: {
    releaseId: string;
    source: string;
    format: string;
    sha256: string;
    md5: string;
    size: number;
  }): Promise<void> {
    await this.transcodes.updateOne(
      { _id: transcodeId(file.source, file.format) },
      { $set: { ...file, stagedAt: new Date().toISOString() } },
      { upsert: true },
    );
  }

  find(bucket: string, fileKey: string): Promise<StagedFileDoc | null> {
    return this.files.findById(idOf(bucket, fileKey));
  }

  async record(file: {
    releaseId: string;
    bucket: string;
    fileKey: string;
    sha256: string;
    md5: string;
    size: number;
  }): Promise<void> {
    await this.files.updateOne(
      { _id: idOf(file.bucket, file.fileKey) },
      { $set: { ...file, stagedAt: new Date().toISOString() } },
      { upsert: true },
    );
  }
}
