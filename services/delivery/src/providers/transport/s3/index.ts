// The batch layout under a bucket/prefix through the minio client. S3 has no rename, and needs none:
// an object appears only when its PUT (or multipart completion) succeeds, complete, so each file is
// written straight to its final key and BatchComplete is still written last. A temp key + copy + delete
// would double the requests, and a server-side copy of a large master is itself multipart, for no gain
// in what a reader can see. The content's SHA-256 rides along as metadata so a re-run can tell a
// complete file without reading it back.
import type { Readable } from 'node:stream';
import { Client, CopyDestinationOptions, CopySourceOptions } from 'minio';
import { deliverBatch, type FileStore, type StoredFile } from '../choreography';
import { checkAckName, PROCESSED_ACK_FOLDER } from '../layout';
import {
  type Acknowledgement,
  type Batch,
  type DeliveryReport,
  type Transport,
  TransportError,
} from '../port';
import { classifyS3Error, isS3NotFound } from './classify';

export interface S3TransportOptions {
  endPoint: string;
  port?: number;
  useSSL?: boolean;
  accessKey: string;
  secretKey: string;
  region?: string;
  bucket: string;
  /** Key prefix the batches go under, e.g. `omni/`. Default none. */
  prefix?: string;
  /** Relative to prefix. Default `acknowledgements`. */
  ackFolder?: string;
  /** Files up to this size go in one PUT (held in memory once); larger ones go multipart. Default 16 MiB. */
  partSize?: number;
}

const SHA_META = 'omni-sha256';

export function createS3Transport(options: S3TransportOptions): Transport {
  return new S3Transport(options);
}

class S3Transport implements Transport, FileStore {
  readonly kind = 's3';
  private readonly client: Client;
  private readonly prefix: string;
  private readonly ackPrefix: string;

  constructor(private readonly options: S3TransportOptions) {
    this.client = new Client({
      endPoint: options.endPoint,
      port: options.port,
      useSSL: options.useSSL ?? false,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region ?? 'us-east-1',
      partSize: options.partSize ?? 16 * 1024 * 1024,
    });
    this.prefix = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : '';
    this.ackPrefix = `${this.prefix}${options.ackFolder ?? 'acknowledgements'}/`;
  }

  private accessChecked = false;

  async deliver(batch: Batch): Promise<DeliveryReport> {
    await this.checkAccess();
    return deliverBatch(this, batch);
  }

  /**
   * A refused HEAD (the first thing a delivery sends) comes back as a bare 403 with no error code, so a
   * wrong secret would look like a permission problem. One listing first, whose error has a body, tells
   * a refused signature or key apart, once per transport.
   */
  private async checkAccess(): Promise<void> {
    if (this.accessChecked) return;
    try {
      const stream = this.client.listObjectsV2(this.options.bucket, this.prefix, false);
      for await (const _ of stream as AsyncIterable<unknown>) break;
    } catch (err) {
      throw this.classify(err);
    }
    this.accessChecked = true;
  }

  async stat(rel: string): Promise<StoredFile | null> {
    try {
      const stat = await this.client.statObject(this.options.bucket, this.prefix + rel);
      const meta = stat.metaData as Record<string, string | undefined>;
      return { size: stat.size, sha256: meta[SHA_META] };
    } catch (err) {
      if (isS3NotFound(err)) return null;
      throw err;
    }
  }

  async put(rel: string, open: () => Readable, file: { size: number; sha256?: string }): Promise<void> {
    const meta: Record<string, string> = { 'Content-Type': contentType(rel) };
    if (file.sha256) meta[`x-amz-meta-${SHA_META}`] = file.sha256.toLowerCase();
    await this.client.putObject(this.options.bucket, this.prefix + rel, open(), file.size, meta);
  }

  async listAcknowledgements(): Promise<Acknowledgement[]> {
    const acks: Acknowledgement[] = [];
    try {
      const stream = this.client.listObjectsV2(this.options.bucket, this.ackPrefix, false);
      for await (const item of stream as AsyncIterable<{
        name?: string;
        size?: number;
        lastModified?: Date;
      }>) {
        if (!item.name) continue;
        acks.push({
          name: item.name.slice(this.ackPrefix.length),
          size: item.size ?? 0,
          modifiedAt: item.lastModified ?? new Date(0),
        });
      }
    } catch (err) {
      throw this.classify(err);
    }
    return acks.sort((a, b) => a.name.localeCompare(b.name));
  }

  async getAcknowledgement(name: string): Promise<Buffer> {
    checkAckName(name);
    try {
      const stream = await this.client.getObject(this.options.bucket, this.ackPrefix + name);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch (err) {
      throw this.classify(err);
    }
  }

  /** S3 has no move: a server-side copy under `processed/`, then the original removed. */
  async archiveAcknowledgement(name: string): Promise<void> {
    checkAckName(name);
    const from = this.ackPrefix + name;
    try {
      await this.client.copyObject(
        new CopySourceOptions({ Bucket: this.options.bucket, Object: from }),
        new CopyDestinationOptions({
          Bucket: this.options.bucket,
          Object: `${this.ackPrefix}${PROCESSED_ACK_FOLDER}/${name}`,
        }),
      );
      await this.client.removeObject(this.options.bucket, from);
    } catch (err) {
      if (isS3NotFound(err)) return;
      throw this.classify(err);
    }
  }

  classify(err: unknown): TransportError {
    return classifyS3Error(err, this.options.bucket);
  }

  async close(): Promise<void> {}
}

function contentType(rel: string): string {
  if (rel.endsWith('.xml')) return 'application/xml';
  if (rel.endsWith('.flac')) return 'audio/flac';
  if (rel.endsWith('.wav')) return 'audio/wav';
  if (rel.endsWith('.jpg') || rel.endsWith('.jpeg')) return 'image/jpeg';
  if (rel.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}
