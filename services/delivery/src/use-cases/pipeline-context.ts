// What the pipeline's use cases and the worker need: the service's stores and clients, the store
// registry and transports, the validator and the timing settings. Built once in index.ts.
import type { DocumentStore, Logger, Outbox, PromiseClient } from '@omni/platform';
import type { catalog, storage } from '@omni/proto';
import type { StoreAcknowledgement } from '../domain/ack/model';
import type { ErnMessagingParty, ErnValidator } from '../domain/ddex';
import type { BatchCompleteInput } from '../domain/ddex/batch-complete-model';
import type { RetryPolicy } from '../domain/retry';
import type { StoreProfile } from '../domain/stores/profile';
import type { Transport } from '../providers/transport/port';
import type { JobsRepository } from '../store/jobs';
import type { VersionsRepository } from '../store/versions';
import type { Stager } from './stage-files';

export interface PipelineContext {
  store: DocumentStore;
  outbox: Outbox;
  /** The jobs: the one reader and writer of them (store/jobs.ts). */
  jobs: JobsRepository;
  /** Publishes committed events now instead of at the outbox's next tick. */
  relay: () => void;
  profileOf: (key: string) => StoreProfile | undefined;
  /** One transport per store, opened on first use and kept. */
  transportFor: (profile: StoreProfile) => Transport;
  /** The approved versions packaging reads (store/versions.ts). */
  versions: Pick<VersionsRepository, 'find'>;
  /** Asked only for a job approved before versions were kept. */
  catalog: Pick<PromiseClient<typeof catalog.CatalogServiceService>, 'getRelease'>;
  storage: Pick<PromiseClient<typeof storage.StorageServiceService>, 'getObjectInfo'>;
  stager: Stager;
  validator: ErnValidator;
  /** The BatchComplete manifest's XML (domain/ddex/batch-complete.ts). */
  buildBatchComplete: (input: BatchCompleteInput) => string;
  /** A store's acknowledgement file, read (domain/ack/ack-xml.ts). */
  parseAcknowledgement: (xml: string) => StoreAcknowledgement;
  retry: RetryPolicy;
  /** DATA_DIR/delivery/messages: every message made, kept for GET …/ern and for resending the same bytes. */
  messagesRoot: string;
  /** How long a sent job waits before its store's acknowledgements are read again. */
  /** Omni's DDEX party (DDEX_SENDER_PARTY_ID / DDEX_SENDER_NAME): every message's sender. */
  sender: ErnMessagingParty;
  pollMs: number;
  /** A sent job with no acknowledgement after this long is a failed attempt (resent as a new batch). */
  ackTimeoutMs: number;
  /** This process's worker id (lease owner). */
  workerId: string;
  leaseMs: number;
  logger: Logger;
  now: () => Date;
}
