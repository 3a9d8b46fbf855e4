// The retry policy both event-bus adapters share.
import {
  backoffBeforeAttempt,
  DEFAULT_RETRY_POLICY,
  resolveRetryPolicy,
} from '../../src/adapters/events-shared';

describe('event retry policy', () => {
  it('defaults to 5 deliveries, 100 ms doubling, capped at 5 s', () => {
    const policy = resolveRetryPolicy(undefined);
    expect(policy).toEqual({ maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 5000 });
    expect(DEFAULT_RETRY_POLICY).toEqual(policy);
    expect([2, 3, 4, 5].map((attempt) => backoffBeforeAttempt(attempt, policy))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(backoffBeforeAttempt(20, policy)).toBe(5000);
  });

  it('takes partial overrides and ignores undefined fields', () => {
    expect(resolveRetryPolicy({ maxAttempts: 2, initialBackoffMs: undefined })).toEqual({
      maxAttempts: 2,
      initialBackoffMs: 100,
      maxBackoffMs: 5000,
    });
  });

  it('rejects policies that would never dead-letter or make no sense', () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => resolveRetryPolicy({ maxAttempts: 1.5 })).toThrow(/maxAttempts/);
    expect(() => resolveRetryPolicy({ initialBackoffMs: -1 })).toThrow(/initialBackoffMs/);
    expect(() => resolveRetryPolicy({ initialBackoffMs: 500, maxBackoffMs: 100 })).toThrow(/maxBackoffMs/);
  });
});
