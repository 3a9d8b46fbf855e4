// Fixed-window rate limits for the abuse-prone endpoints (sign-in, sign-up, magic link, resend, reset).
// Counters live in this process's memory: with several gateway replicas each allows the limit, so the
// effective limit is limit × replicas — acceptable for slowing guessing and mail flooding; a shared store
// (Redis) is the upgrade if that ever matters. Keys are per client IP and per target email.
import type { Request, RequestHandler } from 'express';
import { HttpError } from './errors';

export interface RateLimitRule {
  /** Names the counter family, e.g. 'auth-ip'. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
  /** The keys this request counts against (none: not counted). */
  keys(req: Request): string[];
}

export interface FixedWindowLimiter {
  /** Counts one hit; says whether it is within the limit and, if not, how long until the window resets. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number };
  reset(): void;
}

export function createFixedWindowLimiter(
  limit: number,
  windowMs: number,
  now = Date.now,
): FixedWindowLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const sweep = (t: number) => {
    for (const [k, w] of windows) if (t - w.start >= windowMs) windows.delete(k);
  };
  return {
    hit(key) {
      const t = now();
      // Bounded memory under a flood of distinct keys: expired windows are dropped in one pass.
      if (windows.size > 50_000) sweep(t);
      let w = windows.get(key);
      if (!w || t - w.start >= windowMs) {
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + windowMs - t) / 1000));
      return { allowed: w.count <= limit, retryAfterSeconds };
    },
    reset: () => windows.clear(),
  };
}

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

/** Express middleware: 429 with Retry-After once any of the rules' keys is over its limit. */
export function rateLimit(rules: RateLimitRule[]): RequestHandler {
  const limiters = rules.map((rule) => ({
    rule,
    limiter: createFixedWindowLimiter(rule.limit, rule.windowMs),
  }));
  return (req, res, next) => {
    let retryAfter = 0;
    for (const { rule, limiter } of limiters) {
      for (const key of rule.keys(req)) {
        const { allowed, retryAfterSeconds } = limiter.hit(`${rule.name}:${key}`);
        if (!allowed) retryAfter = Math.max(retryAfter, retryAfterSeconds);
      }
    }
    if (retryAfter > 0) {
      res.set('Retry-After', String(retryAfter));
      next(new HttpError(429, RATE_LIMITED_MESSAGE, 'rate_limited'));
      return;
    }
    next();
  };
}
