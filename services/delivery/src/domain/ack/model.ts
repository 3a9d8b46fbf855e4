// A store's acknowledgement of one message of a batch, as delivery reads it (shared/design/delivery.md):
// per message a file status (FileOK or what was wrong with a file) and per release the processing outcome,
// with the store's words and whether a person must look before a resend (ManualCheckRequired).

export type AckFileStatus = 'FileOK' | 'ResourceCorrupt' | 'ResourceMissing' | 'SchemaValidationError';

export type AckReleaseStatus =
  | 'SuccessfullyIngestedByReleaseDistributor'
  | 'ProcessingErrorAtReleaseDistributor';

export interface StoreAcknowledgement {
  batchId: string;
  /** The acknowledged message's MessageId. */
  messageId: string;
  /** The acknowledged message's file, relative to the batch folder. */
  fileName: string;
  fileStatus: AckFileStatus;
  releaseStatus: AckReleaseStatus;
  /** The store's words when something was wrong. */
  errorText?: string;
  /** true = a person must look before a resend (a rejection); false = fix-and-resend may be automatic. */
  manualCheckRequired: boolean;
  /** ICPNs of the releases in the message. */
  releaseIds: string[];
  /** When the store wrote it (ISO 8601). */
  acknowledgedAt: string;
}

/** The ack file for a message: `ACK_<batchId>_<messageId>.xml` in the store's acknowledgement folder. */
export const ackFileName = (batchId: string, messageId: string) => `ACK_${batchId}_${messageId}.xml`;
