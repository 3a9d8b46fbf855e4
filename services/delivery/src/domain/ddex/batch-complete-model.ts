// The BatchComplete manifest (DDEX choreography for cloud-based storage): written LAST into the batch
// folder as `BatchComplete_<batchId>.xml`, listing each message with its release ids and the hash of its
// XML. Its appearance is the store's trigger to ingest the batch.
import type { ErnMessagingParty } from './model';

export interface BatchCompleteMessage {
  /** Relative to the batch folder, e.g. `<upc>/<upc>.xml`. */
  path: string;
  messageId: string;
  /** ICPNs (UPCs) of the releases in the message. */
  releaseIds: string[];
  /** Hex SHA-256 of the message file's bytes. */
  sha256: string;
}

export interface BatchCompleteInput {
  batchId: string;
  sender: ErnMessagingParty;
  recipient: ErnMessagingParty;
  /** ISO 8601 with offset. */
  createdAt: string;
  messages: BatchCompleteMessage[];
}
