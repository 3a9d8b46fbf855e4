// The store transport port: delivers one DDEX batch to a store's endpoint and reads its acknowledgements.
// Adapters (sftp/, s3/, local/) differ only in how a file is made to appear complete; the batch
// choreography (every file first, BatchComplete last, skip what is already there) is choreography.ts.
import type { Readable } from 'node:stream';

export interface BatchFile {
  /** Relative to the store's root and inside the batch folder, e.g. `N_<batchId>/<upc>/resources/A1.flac`. */
  path: string;
  /** Opened only when the file must be sent: a file already complete on the store is never read. */
  source: () => Readable;
  size: number;
  /** Hex SHA-256 of the content; when given, the bytes sent are checked against it before they land. */
  sha256?: string;
  /**
   * The same bytes as a file on this machine (a staged master): the local adapter hard-links it instead
   * of copying, so 142 stores of one release hold one copy on disk.
   */
  localPath?: string;
}

export interface Batch {
  /** `YYYYMMDDhhmmssnnn` (DDEX choreography). */
  batchId: string;
  /** The batch folder every path lives under; defaults to batchId (DDEX names it `<P|M|N>_<batchId>`). */
  folder?: string;
  files: BatchFile[];
  /** The BatchComplete manifest; written last, as `<folder>/BatchComplete_<batchId>.xml`. */
  manifest: Omit<BatchFile, 'path'>;
}

export interface DeliveryReport {
  batchId: string;
  /** Paths written by this call, in the order they landed (BatchComplete last when written). */
  sent: string[];
  /** Paths already complete on the store (an earlier attempt got them there). */
  skipped: string[];
}

export interface Acknowledgement {
  /** File name inside the store's acknowledgement folder. */
  name: string;
  size: number;
  modifiedAt: Date;
}

export interface Transport {
  readonly kind: 'sftp' | 's3' | 'local';
  /** Idempotent: a re-run after a crash sends only what is missing and replaces half-written files. */
  deliver(batch: Batch): Promise<DeliveryReport>;
  listAcknowledgements(): Promise<Acknowledgement[]>;
  getAcknowledgement(name: string): Promise<Buffer>;
  /**
   * Moves an acknowledgement that has been acted on into `<ackFolder>/processed/` (kept, not deleted), so
   * the folder listed on every poll holds only answers not yet read: its listing stays as small as the
   * backlog of unanswered batches instead of growing with every batch ever sent. Idempotent: an ack
   * already moved (or gone) is no error.
   */
  archiveAcknowledgement(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Why a transport failed. `retryable` says whether backing off and trying again can help: network,
 * timeout and server-side (5xx) failures can; a refused login, a denied permission, a missing bucket or a
 * batch that contradicts what the store already holds cannot until a person changes something.
 */
export type TransportFailure =
  | 'network'
  | 'timeout'
  | 'server'
  | 'auth'
  | 'permission'
  | 'not-found'
  | 'conflict'
  | 'bad-batch'
  /** Reading the batch's own file failed (our storage, not the store): worth another try. */
  | 'source';

const RETRYABLE: ReadonlySet<TransportFailure> = new Set(['network', 'timeout', 'server', 'source']);

export class TransportError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly failure: TransportFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
    this.retryable = RETRYABLE.has(failure);
  }
}
