// DDEX ERN 4.3: message builders and XSD validation (pure; the delivery pipeline wires them in).

export { buildBatchComplete, parseBatchComplete } from './batch-complete';
export type { BatchCompleteInput, BatchCompleteMessage } from './batch-complete-model';
export * from './model';
export { buildNewReleaseMessage, buildTakedownMessage } from './new-release-message';
export { buildPurgeReleaseMessage } from './purge-release-message';
export { createErnValidator, ERN43_SCHEMA, type ErnValidationResult, type ErnValidator } from './validate';
