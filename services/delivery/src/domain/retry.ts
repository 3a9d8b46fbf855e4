// When a failed send is tried again (shared/design/delivery.md, "Retries"): exponential backoff with full
// jitter, `random(0, min(cap, base·2^attempt))`, so many stores failing at once do not all come back at the
// same moment; after `maxAttempts` sends the job is dead-lettered for a person to replay.
export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  maxAttempts: number;
  /** [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

export type RetryDecision = { kind: 'retry'; delayMs: number } | { kind: 'dead-letter' };

/**
 * What to do after the `attempts`-th send failed (attempts counts sends made, 1 after the first).
 * A non-retryable failure (a person must change something first) is dead-lettered at once.
 */
export function nextRetry(policy: RetryPolicy, attempts: number, retryable = true): RetryDecision {
  if (!retryable || attempts >= policy.maxAttempts) return { kind: 'dead-letter' };
  const exponent = Math.max(0, attempts - 1);
  // 2^exponent overflows to Infinity for large exponents; min() with cap keeps it finite.
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  const random = policy.random ?? Math.random;
  return { kind: 'retry', delayMs: Math.floor(random() * ceiling) };
}
