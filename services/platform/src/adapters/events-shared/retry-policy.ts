// Retry policy shared by both event-bus adapters, so a failing handler is treated the same way on the
// embedded log and on Kafka: exponential backoff between deliveries, then the dead-letter topic.
import type { RetryPolicy } from '../../ports/events';

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  initialBackoffMs: 100,
  maxBackoffMs: 5000,
});

/** Fills in defaults and rejects values that would retry forever or spin. */
export function resolveRetryPolicy(partial: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(partial ?? {}) };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError(`retry.maxAttempts must be an integer >= 1, got ${policy.maxAttempts}`);
  }
  if (!Number.isFinite(policy.initialBackoffMs) || policy.initialBackoffMs < 0) {
    throw new RangeError(`retry.initialBackoffMs must be >= 0, got ${policy.initialBackoffMs}`);
  }
  if (!Number.isFinite(policy.maxBackoffMs) || policy.maxBackoffMs < policy.initialBackoffMs) {
    throw new RangeError(
      `retry.maxBackoffMs must be >= initialBackoffMs (${policy.initialBackoffMs}), got ${policy.maxBackoffMs}`,
    );
  }
  return policy;
}

/**
 * Wait before delivery number `nextAttempt` (2, 3, ...): initial, 2×initial, 4×initial ... capped.
 * No jitter: one partition retries one message at a time, so there is no herd to spread out, and a
 * deterministic schedule is easier to reason about in logs.
 */
export function backoffBeforeAttempt(nextAttempt: number, policy: RetryPolicy): number {
  const exponent = Math.max(0, nextAttempt - 2);
  return Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** exponent);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
