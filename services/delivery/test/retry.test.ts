// Full-jitter backoff: the delay is drawn from [0, min(cap, base·2^(attempt-1))), and attempts are bounded.
import { nextRetry } from '../src/domain/retry';

const policy = { baseMs: 100, capMs: 1_000, maxAttempts: 5 };

test('the ceiling doubles per attempt and the jitter spans all of it', () => {
  const top = (attempts: number) => nextRetry({ ...policy, random: () => 0.999999 }, attempts);
  expect(top(1)).toEqual({ kind: 'retry', delayMs: 99 });
  expect(top(2)).toEqual({ kind: 'retry', delayMs: 199 });
  expect(top(3)).toEqual({ kind: 'retry', delayMs: 399 });
  expect(nextRetry({ ...policy, random: () => 0 }, 3)).toEqual({ kind: 'retry', delayMs: 0 });
  expect(nextRetry({ ...policy, random: () => 0.5 }, 2)).toEqual({ kind: 'retry', delayMs: 100 });
});

test('the cap bounds the delay however many attempts were made', () => {
  const big = nextRetry({ ...policy, maxAttempts: 50, random: () => 0.999999 }, 49);
  expect(big).toEqual({ kind: 'retry', delayMs: 999 });
});

test('the last allowed attempt and non-retryable failures go to the dead letters', () => {
  expect(nextRetry(policy, 4).kind).toBe('retry');
  expect(nextRetry(policy, 5)).toEqual({ kind: 'dead-letter' });
  expect(nextRetry(policy, 1, false)).toEqual({ kind: 'dead-letter' });
});

test('the default jitter stays inside the ceiling', () => {
  for (let i = 0; i < 200; i++) {
    const d = nextRetry(policy, 3);
    if (d.kind !== 'retry') throw new Error('expected a retry');
    expect(d.delayMs).toBeGreaterThanOrEqual(0);
    expect(d.delayMs).toBeLessThan(400);
  }
});
