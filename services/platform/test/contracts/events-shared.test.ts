// The retry policy both event-bus adapters share, and deliverWithRetry, which both call for every message.
import {
  backoffBeforeAttempt,
  DEFAULT_RETRY_POLICY,
  deliverWithRetry,
  resolveRetryPolicy,
} from '../../src/adapters/events-shared';
import { isOutage } from '../../src/adapters/events-shared/outage';
import { createLogger } from '../../src/logging/logger';
import type { OutgoingMessage } from '../../src/ports/events';

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

describe('a dependency that is away (an outage) spends no attempt', () => {
  const grpcError = (code: number, details: string) =>
    Object.assign(new Error(`${code} ${details}`), { code, details });
  const message = {
    topic: 'release.created',
    partition: 0,
    offset: '7',
    key: 'r1',
    value: '{}',
    headers: {},
    timestamp: 1_795_800_000_000,
  };
  const policy = { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 5 };

  it('tells an outage (a peer or the store away) from a failure of the message', () => {
    expect(isOutage(grpcError(14, 'No connection established'))).toBe(true);
    expect(isOutage(grpcError(4, 'Deadline exceeded'))).toBe(true);
    expect(isOutage(Object.assign(new Error('x'), { name: 'MongoServerSelectionError' }))).toBe(true);
    expect(isOutage(new Error('wrapped', { cause: grpcError(14, 'down') }))).toBe(true);
    expect(isOutage(grpcError(3, 'Invalid ISRC'))).toBe(false);
    expect(isOutage(new Error('boom'))).toBe(false);
    // A Node system error's string code is not a gRPC status.
    expect(isOutage(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(false);
  });

  it('retries through an outage longer than maxAttempts and handles the message once the peer is back', async () => {
    const seen: number[] = [];
    const letters: OutgoingMessage[] = [];
    let calls = 0;
    const outcome = await deliverWithRetry({
      message,
      handler: async ({ attempt }) => {
        calls += 1;
        seen.push(attempt);
        // Eight tries with catalog away (more than the policy's 3 attempts), then a failure of the message
        // itself, then success.
        if (calls <= 8) throw grpcError(14, 'No connection established');
        if (calls === 9) throw new Error('a bug in the handler');
      },
      policy,
      signal: new AbortController().signal,
      publishDeadLetter: async (letter) => {
        letters.push(letter);
      },
      logger: createLogger('test'),
    });
    expect(outcome).toBe('handled');
    expect(letters).toEqual([]);
    // The outage kept attempt 1; the message's own failure spent one.
    expect(seen).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
  }, 30_000);

  it('still dead-letters a message that fails by itself after maxAttempts', async () => {
    const letters: OutgoingMessage[] = [];
    const outcome = await deliverWithRetry({
      message,
      handler: async () => {
        throw new Error('Invalid payload');
      },
      policy,
      signal: new AbortController().signal,
      publishDeadLetter: async (letter) => {
        letters.push(letter);
      },
      logger: createLogger('test'),
    });
    expect(outcome).toBe('dead-lettered');
    expect(letters).toHaveLength(1);
  });

  it('gives the message back (aborted, uncommitted) when the subscription closes during an outage', async () => {
    const abort = new AbortController();
    const outcome = deliverWithRetry({
      message,
      handler: async () => {
        setTimeout(() => abort.abort(), 50);
        throw grpcError(14, 'down');
      },
      policy: { ...policy, initialBackoffMs: 200, maxBackoffMs: 200 },
      signal: abort.signal,
      publishDeadLetter: async () => undefined,
      logger: createLogger('test'),
    });
    expect(await outcome).toBe('aborted');
  });
});
