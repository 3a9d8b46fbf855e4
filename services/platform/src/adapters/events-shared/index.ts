// Pieces both event-bus adapters share: retry policy, the retry-then-dead-letter loop, DLQ wrapping,
// name validation.
export { abortableSleep } from './abortable-sleep';
export { describeError, fromDeadLetter, toDeadLetter } from './dead-letter';
export { type DeliveryOutcome, type DeliveryRequest, deliverWithRetry } from './deliver';
export {
  assertGroupId,
  assertOutgoingMessages,
  assertPartitionCount,
  assertTopicName,
  groupIdSchema,
  topicNameSchema,
} from './names';
export { backoffBeforeAttempt, DEFAULT_RETRY_POLICY, resolveRetryPolicy } from './retry-policy';
