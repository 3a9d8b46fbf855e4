// Sliding-window rate limits for the abuse-prone endpoints (sign-in, sign-up, magic link, resend, reset),
// keyed per client IP and per target email. Counters are kept per clock-aligned window, and a request is
// judged on the last `windowMs` as a whole: this window's hits plus the previous window's, weighted by how
// much of it still lies within the last `windowMs`. (Fixed windows alone let 2 × limit through around a
// window's edge: five attempts at 11:59:59 and five more at 12:00:00.) Where the counters live is a choice of the caller:
//  - in this process's memory: exact when one process serves every request (the all-in-one mode);
//  - in the documents store (shared-store.ts): shared by every gateway replica, so the limit holds
//    across replicas instead of becoming limit × replicas (the chart autoscales the gateway to 10).

import { HttpError, type Logger } from '@omni/platform';
import type { Request, RequestHandler } from 'express';

export interface RateLimitRule {
  /** Names the counter family, e.g. 'auth-ip'. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
  /** The keys this request counts against (none: not counted). */
  keys(req: Request): string[];
}

export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Hits in the window before it. */
  previous: number;
  /** When the current window started (epoch ms). */
  start: number;
}

/** Where the counters live: counts one hit for `key` in the window of `windowMs` that holds now. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<WindowCount>;
}

/** Windows are aligned to the clock (epoch multiples of the window), so every replica agrees on them. */
export function windowStart(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

/**
 * Seconds to wait before one more hit fits the limit, or 0 when this hit is within it. The estimate of
 * the last `windowMs` is previous × (share of the previous window still inside it) + count.
 */
export function retryAfterSeconds(c: WindowCount, limit: number, windowMs: number, now: number): number {
  const elapsed = Math.min(1, Math.max(0, (now - c.start) / windowMs));
  if (c.previous * (1 - elapsed) + c.count <= limit) return 0;
  let fitsAt: number;
  if (c.count + 1 <= limit && c.previous > 0) {
    // Later in this window, once enough of the previous one has slid out.
    fitsAt = c.start + (1 - (limit - c.count - 1) / c.previous) * windowMs;
  } else {
    // In the next window, where this window's hits become the weighted previous ones.
    fitsAt = c.start + windowMs + Math.max(0, 1 - (limit - 1) / c.count) * windowMs;
  }
  return Math.max(1, Math.ceil((fitsAt - now) / 1000));
}

export function memoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { start: number; count: number; previous: number }>();
  return {
    async hit(key, windowMs) {
      const t = now();
      const start = windowStart(t, windowMs);
      // Bounded memory under a flood of distinct keys: windows no longer needed (not even as the previous
      // one) are dropped in one pass.
      if (windows.size > 50_000) {
        for (const [k, w] of windows) if (w.start + 2 * windowMs <= t) windows.delete(k);
      }
      let w = windows.get(key);
      if (!w || w.start !== start) {
        const previous = w && w.start === start - windowMs ? w.count : 0;
        w = { start, count: 0, previous };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, previous: w.previous, start };
    },
  };
}

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

export interface RateLimitOptions {
  store: RateLimitStore;
  /**
   * Used when `store` fails (its database unreachable): limits then hold per process rather than not at
   * all, and the request is not failed for a counter's sake.
   */
  fallback?: RateLimitStore;
  logger?: Logger;
  now?: () => number;
  /** What the 429 says (default RATE_LIMITED_MESSAGE, written for the sign-in screens). */
  message?: string;
}

/** Express middleware: 429 with Retry-After once any of the rules' keys is over its limit. */
export function rateLimit(rules: RateLimitRule[], options: RateLimitOptions): RequestHandler {
  const { store, fallback, logger, now = Date.now, message = RATE_LIMITED_MESSAGE } = options;
  const hit = async (key: string, windowMs: number): Promise<WindowCount> => {
    try {
      return await store.hit(key, windowMs);
    } catch (err) {
      if (!fallback) throw err;
      logger?.warn({ err }, 'rate limit store unavailable; counting in this process meanwhile');
      return fallback.hit(key, windowMs);
    }
  };
  return (req, res, next) => {
    const hits = rules.flatMap((rule) =>
      rule.keys(req).map(async (key) => {
        const counted = await hit(`${rule.name}:${key}`, rule.windowMs);
        return retryAfterSeconds(counted, rule.limit, rule.windowMs, now());
      }),
    );
    Promise.all(hits).then(
      (waits) => {
        const retryAfter = Math.max(0, ...waits);
        if (retryAfter > 0) {
          res.set('Retry-After', String(retryAfter));
          next(new HttpError(429, message, 'rate_limited'));
          return;
        }
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
