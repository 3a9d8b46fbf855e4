// A short-lived cache of public page responses at the gateway, as an edge cache would hold them: the
// Music and Videos pages are read far more often than they change. Entries are dropped when cms announces
// a moderation decision (asset.approved / asset.rejected, every gateway replica listens), and at once by
// this gateway when a moderator's decision passes through it, so a moderator sees their own change.
// The TTL is only a safety net for a missed event.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { EventBus, Logger, Subscription } from '@omni/platform';

export interface CachedResponse {
  /** The body as sent, encoded once rather than per request. */
  bytes: Buffer;
  etag: string;
}

export class PublicCache {
  private readonly entries = new Map<string, CachedResponse & { expires: number }>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, body: string): CachedResponse {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    const entry = { bytes: Buffer.from(body), etag, expires: Date.now() + this.ttlMs };
    this.entries.set(key, entry);
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Every gateway replica needs every invalidation, so each listens in a consumer group of its own. */
export async function invalidateOnModeration(
  bus: EventBus,
  cache: PublicCache,
  logger: Logger,
): Promise<Subscription> {
  const topics = ['asset.approved', 'asset.rejected'];
  await bus.ensureTopics(topics);
  return bus.subscribe({
    groupId: `gateway.public-cache.${hostname()}`,
    topics,
    fromBeginning: false,
    handler: async (message) => {
      cache.clear();
      logger.debug({ topic: message.topic, key: message.key }, 'public cache cleared');
    },
  });
}
