// ObjectStore on any S3 endpoint (MinIO in production) through the minio client.
//
// No overwrite: a HEAD first refuses early and cheaply; the write itself then carries If-None-Match: *
// (on the PUT, or on CompleteMultipartUpload for large bodies) so S3 and MinIO refuse atomically when two
// writers race. A server that ignores If-None-Match (older MinIO, s3rver) leaves only the HEAD, which is
// racy: two concurrent first writes to one key can both succeed there, the last one winning.
import type { Readable } from 'node:stream';
import type { Logger } from '@omni/platform';
import { createLogger } from '@omni/platform';
import { Client } from 'minio';
import {
  ObjectExistsError,
  type ObjectInfo,
  type ObjectStore,
  type PresignedUpload,
  type PresignPutOptions,
  type PutOptions,
} from '../port';
import { isNotFound, mapS3Error, s3Code } from './errors';
import { presignPutUrl } from './presign-put';
import { streamingPut } from './streaming-put';
import { takeBytes } from './take-bytes';

export interface MinioObjectStoreOptions {
  /** Host name, or a URL (http://host:port) whose scheme and port then win over useSSL and port. */
  endPoint: string;
  port?: number;
  useSSL?: boolean;
  accessKey: string;
  secretKey: string;
  region?: string;
  /**
   * Where browsers reach the store (its own ingress, or a CDN in front of it), an origin: the base of
   * publicUrl() and the host presigned URLs are signed for. Defaults to the endpoint itself.
   */
  publicBaseUrl?: string;
  /** Bytes per multipart part, and so the memory one streaming put holds. Default 8 MiB, at least 5 MiB. */
  partSize?: number;
  logger?: Logger;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const MIN_PART_SIZE = 5 * 1024 * 1024;
const STAT_CONCURRENCY = 8;
// Headers S3 returns that the minio client reports beside user metadata; anything else is the user's.
const SYSTEM_HEADERS = new Set([
  'content-type',
  'cache-control',
  'content-encoding',
  'content-disposition',
  'content-language',
  'if-none-match',
  'if-match',
]);

export class MinioObjectStore implements ObjectStore {
  readonly kind = 'minio';
  readonly client: Client;
  /**
   * Signs the URLs handed to browsers. SigV4 signs the Host header, so a URL signed for the endpoint the
   * services use (an in-cluster name such as omni-s3-s3:8333) cannot simply be rewritten to the public
   * host: it is signed for the public host instead. Signing is offline (the region is configured), so this
   * client never connects anywhere.
   */
  private readonly signer: Client;
  /** What presigned PUTs are signed with (minio-js cannot sign their Content-Type and Content-Length). */
  private readonly putSigning: { origin: string; accessKey: string; secretKey: string };
  private readonly baseUrl: string;
  private readonly partSize: number;
  private readonly region: string;
  private readonly log: Logger;

  constructor(options: MinioObjectStoreOptions) {
    const target = resolveEndpoint(options);
    this.partSize = Math.max(MIN_PART_SIZE, options.partSize ?? DEFAULT_PART_SIZE);
    this.region = options.region ?? 'us-east-1';
    this.client = new Client({
      endPoint: target.host,
      port: target.port,
      useSSL: target.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: this.region,
      partSize: this.partSize,
    });
    this.baseUrl = (options.publicBaseUrl ?? target.url).replace(/\/+$/, '');
    const visible = options.publicBaseUrl ? resolveEndpoint({ endPoint: options.publicBaseUrl }) : target;
    this.signer =
      visible === target
        ? this.client
        : new Client({
            endPoint: visible.host,
            port: visible.port,
            useSSL: visible.useSSL,
            accessKey: options.accessKey,
            secretKey: options.secretKey,
            region: this.region,
          });
    this.putSigning = { origin: visible.url, accessKey: options.accessKey, secretKey: options.secretKey };
    this.log = options.logger ?? createLogger('objects-minio');
  }

  async ready(): Promise<void> {
    // HEAD on a bucket nobody creates: 404 proves the endpoint answers and the credentials sign correctly,
    // and it needs no ListAllMyBuckets permission.
    await this.client.bucketExists('omni-readiness-probe');
  }

  async healthy(): Promise<boolean> {
    try {
      await this.ready();
      return true;
    } catch (err) {
      this.log.warn({ err }, 'object store health check failed');
      return false;
    }
  }

  async close(): Promise<void> {}

  async ensureBucket(bucket: string): Promise<void> {
    if (await this.client.bucketExists(bucket)) return;
    try {
      await this.client.makeBucket(bucket, this.region);
    } catch (err) {
      // Another instance created it between our check and our create: that is what we wanted.
      const code = s3Code(err);
      if (code === 'BucketAlreadyOwnedByYou') return;
      if (code === 'BucketAlreadyExists' && (await this.client.bucketExists(bucket))) return;
      throw err;
    }
  }

  async bucketExists(bucket: string): Promise<boolean> {
    return this.client.bucketExists(bucket);
  }

  async putObject(
    bucket: string,
    key: string,
    body: Readable | Buffer,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    if (!options.overwrite && (await this.statObject(bucket, key))) throw new ObjectExistsError(bucket, key);
    const metadata = normaliseMetadata(options.metadata);
    const headers: Record<string, string> = { 'Content-Type': options.contentType };
    if (options.cacheControl) headers['Cache-Control'] = options.cacheControl;
    for (const [k, v] of Object.entries(metadata)) headers[`x-amz-meta-${k}`] = v;
    try {
      const result = await streamingPut(this.client, {
        bucket,
        key,
        body,
        headers,
        ifAbsent: !options.overwrite,
        expectedSize: options.size,
        partSize: this.partSize,
      });
      return {
        bucket,
        key,
        size: result.size,
        contentType: options.contentType,
        etag: result.etag,
        lastModified: new Date(),
        metadata,
      };
    } catch (err) {
      throw mapS3Error(err, bucket, key);
    }
  }

  async statObject(bucket: string, key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await this.client.statObject(bucket, key);
      const meta = stat.metaData as Record<string, string>;
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(meta)) {
        const lower = k.toLowerCase();
        if (!SYSTEM_HEADERS.has(lower) && !lower.startsWith('x-amz-')) metadata[lower] = String(v);
      }
      return {
        bucket,
        key,
        size: stat.size,
        contentType: meta['content-type'] ?? 'application/octet-stream',
        etag: stat.etag,
        lastModified: stat.lastModified,
        metadata,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw mapS3Error(err, bucket, key);
    }
  }

  async getObject(bucket: string, key: string, range?: { start: number; end?: number }): Promise<Readable> {
    try {
      if (!range) return await this.client.getObject(bucket, key);
      // minio takes offset + length; the port's range is inclusive like HTTP's. Length 0 means "to the end".
      const length = range.end === undefined ? 0 : range.end - range.start + 1;
      if (length < 0) throw new RangeError(`range end ${range.end} is before its start ${range.start}`);
      const stream = await this.client.getPartialObject(bucket, key, range.start, length);
      return length > 0 ? takeBytes(stream, length) : stream;
    } catch (err) {
      throw mapS3Error(err, bucket, key);
    }
  }

  async removeObject(bucket: string, key: string): Promise<void> {
    try {
      await this.client.removeObject(bucket, key);
    } catch (err) {
      throw mapS3Error(err, bucket, key);
    }
  }

  /** The S3 listing has no content type or metadata: each object is stat'ed, a few at a time. */
  async listObjects(bucket: string, prefix = ''): Promise<ObjectInfo[]> {
    const keys: string[] = [];
    try {
      const stream = this.client.listObjectsV2(bucket, prefix, true);
      for await (const item of stream as AsyncIterable<{ name?: string }>) {
        if (item.name) keys.push(item.name);
      }
    } catch (err) {
      throw mapS3Error(err, bucket);
    }
    const infos: ObjectInfo[] = [];
    for (let i = 0; i < keys.length; i += STAT_CONCURRENCY) {
      const batch = await Promise.all(
        keys.slice(i, i + STAT_CONCURRENCY).map((k) => this.statObject(bucket, k)),
      );
      for (const info of batch) if (info) infos.push(info);
    }
    return infos;
  }

  /**
   * The URL signs the Content-Type and the exact Content-Length (maxSize, the size the uploader declared),
   * so S3 refuses an upload of another type or size with 403 before storing anything. A body shorter than
   * declared is refused too: S3 has no "at most" for a presigned PUT (only a POST policy has). S3 cannot
   * check who uploads (`owner`) nor refuse to overwrite; verifyPresignedUpload() still checks what landed.
   */
  async presignPut(bucket: string, key: string, options: PresignPutOptions): Promise<PresignedUpload> {
    const seconds = Math.ceil(options.expiresInSeconds);
    const contentType = options.contentType.trim();
    const url = presignPutUrl({
      ...this.putSigning,
      bucket,
      key,
      region: this.region,
      expiresInSeconds: seconds,
      contentType,
      contentLength: options.maxSize,
    });
    return {
      url,
      method: 'PUT',
      // Content-Length is signed too, but a browser sets it from the file itself and refuses to be told.
      headers: { 'Content-Type': contentType },
      expiresAt: new Date(Date.now() + seconds * 1000),
    };
  }

  async presignGet(bucket: string, key: string, expiresInSeconds: number): Promise<string> {
    return this.signer.presignedGetObject(bucket, key, Math.ceil(expiresInSeconds));
  }

  /** Unsigned: the bucket (or the CDN at publicBaseUrl) must allow anonymous reads. */
  publicUrl(bucket: string, key: string): string {
    return `${this.baseUrl}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }
}

function resolveEndpoint(options: Pick<MinioObjectStoreOptions, 'endPoint' | 'port' | 'useSSL'>): {
  host: string;
  port?: number;
  useSSL: boolean;
  url: string;
} {
  if (options.endPoint.includes('://')) {
    const parsed = new URL(options.endPoint);
    const useSSL = parsed.protocol === 'https:';
    const port = parsed.port ? Number(parsed.port) : options.port;
    return { host: parsed.hostname, port, useSSL, url: `${parsed.protocol}//${parsed.host}` };
  }
  const useSSL = options.useSSL ?? false;
  const port = options.port;
  const url = `${useSSL ? 'https' : 'http'}://${options.endPoint}${port ? `:${port}` : ''}`;
  return { host: options.endPoint, port, useSSL, url };
}

/** S3 lower-cases user metadata keys; say so up front rather than have them change on the way back. */
function normaliseMetadata(metadata: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) out[k.toLowerCase()] = String(v);
  return out;
}
