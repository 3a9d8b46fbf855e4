// Rate limits on the contributor endpoints (/api/contributor/*), which anyone holding a link (or guessing
// at one) can call without an account. Each route counts per client address and per link (the SHA-256 of
// its token: the token itself is a credential and never becomes a counter's name or a log line), in the
// same sliding one-minute windows and the same store as the auth limits (shared by every gateway replica
// with MongoDB).
//
// The numbers are sized on the real page: it handles a folder one file at a time (sign, PUT, submit), so
// an album folder of a few dozen files costs a few dozen signings and as many submissions in a minute or
// two, plus one link lookup per page load. Per link they leave that twice over; per address they leave
// room for several contributors behind one office or venue address. A script hammering one link or the
// service from one address is stopped within the minute.
import { createHash } from 'node:crypto';
import { UPLOAD_TOKEN_HEADER } from '@omni/proto/api';
import type { Request, RequestHandler } from 'express';
import { type RateLimitOptions, type RateLimitRule, rateLimit } from '../../providers/rate-limit/rate-limit';

/** Link lookups (page loads): a person reloads a few times; 60 a minute is one a second. */
export const LINK_LOOKUPS_PER_MINUTE = { perLink: 60, perAddress: 120 } as const;
/** Signings: one per file; a folder of a few dozen files, retries included, fits in 120 a minute. */
export const SIGNINGS_PER_MINUTE = { perLink: 120, perAddress: 300 } as const;
/** Submissions: one per file sent, as many as signings. */
export const SUBMISSIONS_PER_MINUTE = { perLink: 120, perAddress: 300 } as const;

const WINDOW_MS = 60_000;

export const CONTRIBUTOR_RATE_LIMITED =
  'Too many requests for this upload link right now. Please wait a minute and try again.';

/** The link a request names, as the hash of its token (or none when it names none). */
function linkKey(req: Request): string[] {
  const header = req.headers[UPLOAD_TOKEN_HEADER.toLowerCase()];
  const token = typeof header === 'string' ? header.trim().slice(0, 256) : '';
  return token ? [createHash('sha256').update(token).digest('hex')] : [];
}

export type ContributorLimiter = (
  route: 'link' | 'sign' | 'submit',
  limits: { perLink: number; perAddress: number },
) => RequestHandler;

export function contributorLimiter(options: Pick<RateLimitOptions, 'store' | 'fallback' | 'logger'>) {
  return ((route, limits) => {
    const rules: RateLimitRule[] = [
      {
        name: `contributor-${route}:ip`,
        limit: limits.perAddress,
        windowMs: WINDOW_MS,
        keys: (req) => [req.ip ?? 'unknown'],
      },
      { name: `contributor-${route}:link`, limit: limits.perLink, windowMs: WINDOW_MS, keys: linkKey },
    ];
    return rateLimit(rules, { ...options, message: CONTRIBUTOR_RATE_LIMITED });
  }) satisfies ContributorLimiter;
}
