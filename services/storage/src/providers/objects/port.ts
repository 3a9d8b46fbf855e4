// The objects port: MinIO (any S3 endpoint) via the `minio` client in production; local disk behind the
// storage service's own HMAC-signed URL endpoints on one machine. Keys are never overwritten unless the
// caller says so.
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  bucket: string;
  key: string;
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
  metadata: Record<string, string>;
}

export interface PutOptions {
  contentType: string;
  /** Exact length when known; lets adapters stream without buffering. */
  size?: number;
  metadata?: Record<string, string>;
  /** Default false: a second put to an existing key rejects with ObjectExistsError. */
  overwrite?: boolean;
  cacheControl?: string;
}

export interface PresignPutOptions {
  expiresInSeconds: number;
  /**
   * The upload is refused past this many bytes. Pass the file's own size: S3 adapters sign it as the exact
   * Content-Length (a presigned PUT has no "at most"), so there a shorter body is refused as well.
   */
  maxSize: number;
  /** The upload is refused with any other Content-Type. */
  contentType: string;
  /**
   * Who may send the bytes: the owner subject storage records at signing, e.g. `user:<id>` for an account
   * (a contributor's link session can be `link:<session id>`). Adapters that serve their own upload URLs
   * refuse a PUT whose credential does not prove this subject; S3's presigned URLs cannot check it.
   */
  owner: string;
  /**
   * The PUT may replace an object already at the key (the contributor page's "upsert"). Default false: the
   * link refuses to overwrite. S3's presigned PUTs always overwrite.
   */
  overwrite?: boolean;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** Headers the client must send with the PUT. */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface ObjectStore {
  readonly kind: string;
  ensureBucket(bucket: string): Promise<void>;
  bucketExists(bucket: string): Promise<boolean>;
  /**
   * Streams the body to storage. A body that fails midway leaves no object behind.
   * Rejects with ObjectExistsError when the key exists and overwrite is not set.
   */
  putObject(bucket: string, key: string, body: Readable | Buffer, options: PutOptions): Promise<ObjectInfo>;
  /** Null when missing. */
  statObject(bucket: string, key: string): Promise<ObjectInfo | null>;
  /** Rejects with ObjectNotFoundError when missing. `range` is inclusive, as HTTP ranges are. */
  getObject(bucket: string, key: string, range?: { start: number; end?: number }): Promise<Readable>;
  removeObject(bucket: string, key: string): Promise<void>;
  listObjects(bucket: string, prefix?: string): Promise<ObjectInfo[]>;
  presignPut(bucket: string, key: string, options: PresignPutOptions): Promise<PresignedUpload>;
  presignGet(bucket: string, key: string, expiresInSeconds: number): Promise<string>;
  /** URL a browser can GET without credentials (cache control 3600 s). */
  publicUrl(bucket: string, key: string): string;
  ready(): Promise<void>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The subject a PUT's credential proves (from its headers, e.g. `Authorization: Bearer …`), undefined when
 * it carries none. Throws UploadCredentialError when it carries one that is not valid (expired, forged).
 * Supplied by the service that records owners (storage), so the adapter needs no identity knowledge.
 */
export type UploadCredentials = (
  headers: Record<string, string | string[] | undefined>,
) => Promise<string | undefined>;

/**
 * Whether a PUT through an overwrite (upsert) URL may still replace the object: false once the file was
 * submitted (an asset refers to it). Supplied by storage, which keeps the records; an overwrite URL lives
 * 15 minutes, longer than the time between a contributor's upload and their submission.
 */
export type UploadReplaceable = (bucket: string, key: string) => Promise<boolean>;

/** A credential sent with an upload that proves nothing (expired or not valid); the message is for a person. */
export class UploadCredentialError extends Error {
  override name = 'UploadCredentialError';
}

export class ObjectExistsError extends Error {
  constructor(
    readonly bucket: string,
    readonly key: string,
  ) {
    super(`object ${bucket}/${key} already exists`);
    this.name = 'ObjectExistsError';
  }
}

export class ObjectNotFoundError extends Error {
  constructor(
    readonly bucket: string,
    readonly key: string,
  ) {
    super(`object ${bucket}/${key} not found`);
    this.name = 'ObjectNotFoundError';
  }
}

export class BucketNotFoundError extends Error {
  constructor(readonly bucket: string) {
    super(`Bucket "${bucket}" does not exist`);
    this.name = 'BucketNotFoundError';
  }
}
