// Whether a handler failed because something it needs is not answering (a peer service restarting, the
// document store or a worker away) rather than because of the message. An outage must not spend the
// message's attempts: five quick retries over two seconds dead-lettered a release.created while catalog
// restarted (the cluster's kill -9 fault), and the release never reached review. Such a failure is retried,
// its wait growing to OUTAGE_MAX_BACKOFF_MS, until it passes or the subscription closes.

/** The longest wait between two tries while a dependency is away. */
export const OUTAGE_MAX_BACKOFF_MS = 30_000;

// gRPC status codes: UNAVAILABLE (the peer is down or restarting), DEADLINE_EXCEEDED (it did not answer).
const GRPC_OUTAGE_CODES = new Set([14, 4]);
// The MongoDB driver's errors for a server it cannot reach; the platform's worker supervisor's for a worker
// that is restarting.
const OUTAGE_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'WorkerUnavailableError',
]);

export function isOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { name, code, details } = e as { name?: unknown; code?: unknown; details?: unknown };
    if (typeof name === 'string' && OUTAGE_NAMES.has(name)) return true;
    // A gRPC ServiceError carries a numeric code and its details string.
    if (typeof code === 'number' && typeof details === 'string' && GRPC_OUTAGE_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The wait before the next try during an outage: the policy's first backoff, doubling, capped. */
export function outageBackoff(outages: number, initialBackoffMs: number): number {
  const first = Math.max(initialBackoffMs, 100);
  return Math.min(OUTAGE_MAX_BACKOFF_MS, first * 2 ** Math.min(outages - 1, 20));
}
