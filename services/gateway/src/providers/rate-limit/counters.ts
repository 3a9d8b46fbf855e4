// Where the gateway's rate limits count (the auth routes, contributor links). With MongoDB, every gateway
// replica counts in one place (the chart runs 2 to 10 replicas; counting per replica would multiply the
// limit). With the embedded store there is one process, whose memory is exact and costs no disk write per
// counted request.
import type { ServiceContext } from '@omni/platform';
import { memoryRateLimitStore, type RateLimitOptions, type RateLimitStore } from './rate-limit';
import { documentRateLimitStore } from './shared-store';

export function rateLimitCounters(
  ctx: Pick<ServiceContext, 'config' | 'ports' | 'logger'>,
): Pick<RateLimitOptions, 'store' | 'fallback' | 'logger'> {
  if (ctx.config.env.DOCUMENT_STORE !== 'mongodb') return { store: memoryRateLimitStore() };
  // Opened at the first counted request, not at start: the gateway serves (and counts in memory, below)
  // while MongoDB is still coming up or briefly away.
  let shared: Promise<RateLimitStore> | undefined;
  const store: RateLimitStore = {
    async hit(key, windowMs) {
      // A failed open is forgotten, so a later request tries again (ports.documents does the same).
      shared ??= ctx.ports.documents('gateway').then(documentRateLimitStore, (err: unknown) => {
        shared = undefined;
        throw err;
      });
      return (await shared).hit(key, windowMs);
    },
  };
  return { store, fallback: memoryRateLimitStore(), logger: ctx.logger };
}
