// The rules of identity's single-use links (email verification, magic link, password reset), apart from
// where they are kept (store/link-tokens.ts). The token is 256 random bits; only its SHA-256 is stored,
// so the data folder (or a database dump) signs nobody in.
import { createHash, randomBytes } from 'node:crypto';

/** `email` is the link that confirms a new address for an account (email change while signed in). */
export type LinkPurpose = 'verify' | 'magic' | 'reset' | 'email';

/** How long each kind of link works. */
export const LINK_TTL_SECONDS: Record<LinkPurpose, number> = {
  verify: 24 * 3600,
  magic: 15 * 60,
  reset: 30 * 60,
  email: 24 * 3600,
};

/** A fresh token for a link: 32 random bytes, URL-safe. */
export const newLinkToken = (): string => randomBytes(32).toString('base64url');

/** The stored id of a token: its SHA-256, never the token itself. */
export const linkTokenId = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether a string could be a token we issued; anything else is refused before the store is asked. */
export const isWellFormedToken = (token: string): boolean => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** When a link of this kind issued at `now` (ms) stops working. */
export const linkExpiry = (purpose: LinkPurpose, now: number): Date =>
  new Date(now + LINK_TTL_SECONDS[purpose] * 1000);
