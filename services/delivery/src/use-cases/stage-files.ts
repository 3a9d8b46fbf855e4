// Fetches a release's masters and cover from storage ONCE per content into a content-addressed staging
// folder (DATA_DIR/delivery/staging/<sha256>), hashing (SHA-256 and MD5) while streaming, through a temp
// file renamed into place. 142 stores share the copy; concurrent jobs asking for the same file wait for
// the one fetch in flight; a staged file that vanished from disk is fetched again.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type PromiseClient } from '@omni/platform';
import type { storage } from '@omni/proto';
import type { StagedFile } from '../domain/package/model';
import type { AudioFormat, Transcoder } from '../providers/transcoder/port';
import type { PackagesRepository } from '../store/packages';

const DOWNLOAD_LINK_SECONDS = 10 * 60;

export class StageError extends Error {
  override name = 'StageError';
}

export interface StagerDeps {
  packages: PackagesRepository;
  storage: Pick<PromiseClient<typeof storage.StorageServiceService>, 'signDownload'>;
  /** DATA_DIR/delivery/staging */
  root: string;
  fetch?: typeof fetch;
  /** Makes the copy a store wants when it does not take the master's format. */
  transcoder?: Transcoder;
  /** Maps a signed link to one this process can reach (embedded storage: its own address, not the public one). */
  reachable?: (url: string) => string;
}

export class Stager {
  private readonly inFlight = new Map<string, Promise<StagedFile>>();

  constructor(private readonly deps: StagerDeps) {}

  /** Removes temp files a killed process left half-written (none of this process's are in flight yet). */
  async sweep(): Promise<number> {
    const names = await fs.readdir(this.deps.root).catch(() => [] as string[]);
    const parts = names.filter((n) => n.startsWith('.part-'));
    await Promise.all(parts.map((n) => fs.rm(path.join(this.deps.root, n), { force: true })));
    return parts.length;
  }

  stage(releaseId: string, bucket: string, fileKey: string): Promise<StagedFile> {
    const key = `${bucket}/${fileKey}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const work = this.stageOnce(releaseId, bucket, fileKey).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  /**
   * The staged master in the `to` format: transcoded ONCE per (content, format) beside the other staged
   * files, recorded in delivery_packages, so every store wanting FLAC shares one FLAC; concurrent jobs wait
   * for the transcode in flight; a copy that vanished from disk is made again.
   */
  transcode(releaseId: string, source: StagedFile, from: AudioFormat, to: AudioFormat): Promise<StagedFile> {
    const key = `transcode:${source.sha256}:${to}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const work = this.transcodeOnce(releaseId, source, from, to).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private async transcodeOnce(
    releaseId: string,
    source: StagedFile,
    from: AudioFormat,
    to: AudioFormat,
  ): Promise<StagedFile> {
    const { transcoder } = this.deps;
    if (!transcoder?.supports(from, to)) throw new StageError(`no transcoder turns ${from} into ${to}`);
    const known = await this.deps.packages.findTranscode(source.sha256, to);
    const done = (f: { sha256: string; md5: string; size: number }) => ({
      bucket: source.bucket,
      fileKey: source.fileKey,
      sha256: f.sha256,
      md5: f.md5,
      size: f.size,
      format: to,
      path: path.join(this.deps.root, f.sha256),
    });
    if (known) {
      const stat = await fs.stat(path.join(this.deps.root, known.sha256)).catch(() => null);
      if (stat?.isFile() && stat.size === known.size) return done(known);
    }
    await fs.mkdir(this.deps.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = path.join(this.deps.root, `.part-${randomUUID()}`);
    try {
      await transcoder.transcode(source.path, temp, to);
      // The encoder writes its header last (STREAMINFO), so the hashes come from a second, read-only pass.
      const sha256 = createHash('sha256');
      const md5 = createHash('md5');
      let size = 0;
      for await (const chunk of createReadStream(temp) as AsyncIterable<Buffer>) {
        sha256.update(chunk);
        md5.update(chunk);
        size += chunk.length;
      }
      const facts = { sha256: sha256.digest('hex'), md5: md5.digest('hex'), size };
      await fs.rename(temp, path.join(this.deps.root, facts.sha256));
      await this.deps.packages.recordTranscode({ releaseId, source: source.sha256, format: to, ...facts });
      return done(facts);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  private async stageOnce(releaseId: string, bucket: string, fileKey: string): Promise<StagedFile> {
    const known = await this.deps.packages.find(bucket, fileKey);
    if (known) {
      const file = path.join(this.deps.root, known.sha256);
      const stat = await fs.stat(file).catch(() => null);
      if (stat?.isFile() && stat.size === known.size) return { ...pick(known), path: file };
    }
    const fetched = await this.fetchToStaging(bucket, fileKey);
    await this.deps.packages.record({ releaseId, bucket, fileKey, ...fetched });
    return { bucket, fileKey, ...fetched, path: path.join(this.deps.root, fetched.sha256) };
  }

  private async fetchToStaging(bucket: string, fileKey: string) {
    const { url } = await this.deps.storage.signDownload({
      bucket,
      fileKey,
      expiresInSeconds: DOWNLOAD_LINK_SECONDS,
    });
    const res = await (this.deps.fetch ?? fetch)(this.deps.reachable?.(url) ?? url);
    if (!res.ok || !res.body) throw new StageError(`storage answered ${res.status} for ${bucket}/${fileKey}`);
    await fs.mkdir(this.deps.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = path.join(this.deps.root, `.part-${randomUUID()}`);
    const sha256 = createHash('sha256');
    const md5 = createHash('md5');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sha256.update(chunk);
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
        tap,
        createWriteStream(temp, { mode: PRIVATE_FILE_MODE, flush: true }),
      );
      const digest = sha256.digest('hex');
      // Same content, same name: renaming over an identical copy another process staged is harmless.
      await fs.rename(temp, path.join(this.deps.root, digest));
      return { sha256: digest, md5: md5.digest('hex'), size };
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }
}

const pick = (d: { bucket: string; fileKey: string; sha256: string; md5: string; size: number }) => ({
  bucket: d.bucket,
  fileKey: d.fileKey,
  sha256: d.sha256,
  md5: d.md5,
  size: d.size,
});
