// One message's trip through a handler: deliver, on failure wait and deliver again, after the last
// allowed attempt hand it to the dead-letter topic. A failure that is an outage of something the handler
// needs (outage.ts) spends no attempt: it is tried again, with a growing wait, until it passes. Both adapters call this and commit the offset only
// when it reports 'handled' or 'dead-lettered'; 'aborted' means the subscription is closing and the
// message must stay uncommitted so the next owner of the partition receives it again (at-least-once).
import type { Logger } from '../../logging/logger';
import type { IncomingMessage, OutgoingMessage, RetryPolicy } from '../../ports/events';
import { abortableSleep } from './abortable-sleep';
import { describeError, toDeadLetter } from './dead-letter';
import { isOutage, outageBackoff } from './outage';
import { backoffBeforeAttempt } from './retry-policy';

export type DeliveryOutcome = 'handled' | 'dead-lettered' | 'aborted';

export interface DeliveryRequest {
  /** The message as read from the log; `attempt` is filled in per delivery. */
  message: Omit<IncomingMessage, 'attempt'>;
  handler: (message: IncomingMessage) => Promise<void>;
  policy: RetryPolicy;
  /** Aborted when the subscription closes: cuts a backoff short. */
  signal: AbortSignal;
  /** Durably appends the dead letter to `<topic>.dlq`; must reject if it could not. */
  publishDeadLetter: (deadLetter: OutgoingMessage) => Promise<void>;
  /** Called while waiting between attempts (Kafka: heartbeat so a long backoff does not cost the assignment). */
  keepAlive?: () => Promise<void>;
  logger: Logger;
}

export async function deliverWithRetry(request: DeliveryRequest): Promise<DeliveryOutcome> {
  const { message, handler, policy, signal, logger } = request;
  const where = {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
  };
  let lastError: unknown;
  let attempt = 1;
  let outages = 0;
  let waitMs = 0;
  for (;;) {
    if (waitMs > 0 && !(await waitWithKeepAlive(waitMs, signal, request.keepAlive))) return 'aborted';
    try {
      // A fresh headers object per delivery: a handler that mutates it cannot change what the retry sees.
      await Promise.resolve().then(() => handler({ ...message, headers: { ...message.headers }, attempt }));
      return 'handled';
    } catch (error) {
      if (isOutage(error)) {
        // Not the message's fault: try again when the dependency is back, without spending an attempt.
        outages += 1;
        waitMs = outageBackoff(outages, policy.initialBackoffMs);
        const details = { ...where, attempt, outages, retryInMs: waitMs, err: describeError(error) };
        if (outages % 10 === 0)
          logger.error(details, 'event handler still waits for a service that is not answering');
        else logger.warn(details, 'event handler waits for a service that is not answering');
        continue;
      }
      outages = 0;
      lastError = error;
      logger.warn(
        { ...where, attempt, maxAttempts: policy.maxAttempts, err: describeError(error) },
        'event handler failed',
      );
      if (attempt >= policy.maxAttempts) break;
      attempt += 1;
      waitMs = backoffBeforeAttempt(attempt, policy);
    }
  }
  return deadLetter(request, lastError, where);
}

async function deadLetter(
  request: DeliveryRequest,
  error: unknown,
  where: Record<string, unknown>,
): Promise<DeliveryOutcome> {
  const { policy, signal, logger } = request;
  const letter = toDeadLetter({ ...request.message, attempt: policy.maxAttempts }, error, policy.maxAttempts);
  // If the dead-letter topic cannot be written (disk full, broker down) the message must not be
  // committed, or it would be lost: keep trying with the same backoff until it lands or we close.
  for (let tryNo = 2; ; tryNo++) {
    try {
      await request.publishDeadLetter(letter);
      logger.error(
        { ...where, attempts: policy.maxAttempts, err: describeError(error) },
        'event moved to dead-letter topic',
      );
      return 'dead-lettered';
    } catch (publishError) {
      logger.error(
        { ...where, err: describeError(publishError) },
        'could not publish dead letter; will retry',
      );
      const waitMs = backoffBeforeAttempt(Math.min(tryNo, 32), policy);
      if (!(await waitWithKeepAlive(waitMs, signal, request.keepAlive))) return 'aborted';
    }
  }
}

/** Sleeps in slices so the keep-alive runs at least every few seconds; false when aborted. */
async function waitWithKeepAlive(
  ms: number,
  signal: AbortSignal,
  keepAlive: (() => Promise<void>) | undefined,
): Promise<boolean> {
  const SLICE_MS = 3000;
  let remaining = ms;
  do {
    const slice = Math.min(remaining, SLICE_MS);
    if (!(await abortableSleep(slice, signal))) return false;
    remaining -= slice;
    if (keepAlive) await keepAlive();
  } while (remaining > 0);
  return !signal.aborted;
}
