// Contributor upload links: an unguessable token handed out once, stored only as its SHA-256; a use is one
// accepted submission, claimed atomically (remaining > 0) together with the asset it creates.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Doc } from '@omni/platform';
import type { cms } from '@omni/proto';
import type { PageDoc } from './asset';

export interface UploadLinkDoc extends Doc {
  pageId: string;
  tokenHash: string;
  maxUses: number;
  uses: number;
  /** maxUses - uses, kept so the claim is one conditional update ({remaining: {$gt: 0}}). */
  remaining: number;
  expiresAt: string;
  status: 'active' | 'revoked';
  allowFile: boolean;
  allowUrl: boolean;
  createdBy: string;
  createdAt: string;
  revokedAt?: string;
  /**
   * How many more uploads may be signed before some are submitted: remaining × PENDING_PER_USE minus the
   * uploads signed and not yet settled (link-uploads.ts). Kept on the link so a signing reserves its place
   * with one conditional update ({signable: {$gt: 0}}), as a claim does. Absent on links made before it.
   */
  signable?: number;
}

/**
 * Signed-but-unsubmitted uploads a link may have per use it has left. A link is often handed to a group and
 * its uses go to whoever submits first, so each use may be contended by several people uploading at once,
 * each of whom may retry a failed upload: 20 lets a crowd of 20 race for every use (100 on a max-5 link)
 * while one holder of a max-1 link can park at most 20 files instead of any number. Losers' files are
 * deleted when they lose, never-submitted ones after their URL lapses (link-upload-cleanup.ts).
 */
export const PENDING_PER_USE = 20;

export const signableFor = (remaining: number) => Math.max(0, remaining) * PENDING_PER_USE;

export type DisplayedStatus = 'active' | 'revoked' | 'expired' | 'used up';

export const LINK_LIMITS = { maxUses: 10_000, expiresInHours: 8_760 } as const;

/** 32 random bytes, base64url (43 characters). */
export const newToken = () => randomBytes(32).toString('base64url');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token as we hand them out; anything else is refused before a lookup. */
export const isWellFormedToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** Revoked wins; then expired; then used up. */
export function displayedStatus(link: UploadLinkDoc, now: Date): DisplayedStatus {
  if (link.status === 'revoked') return 'revoked';
  if (Date.parse(link.expiresAt) <= now.getTime()) return 'expired';
  if (link.remaining <= 0) return 'used up';
  return 'active';
}

export function linkToProto(
  link: UploadLinkDoc,
  page: PageDoc | null | undefined,
  now: Date,
): cms.UploadLink {
  return {
    id: link._id,
    pageSlug: page?.slug ?? '',
    pageTitle: page?.title ?? '',
    status: displayedStatus(link, now),
    uses: link.uses,
    maxUses: link.maxUses,
    expiresAt: link.expiresAt,
    createdAt: link.createdAt,
    allowFile: link.allowFile,
    allowUrl: link.allowUrl,
  };
}

/** An audio release's identifier when the contributor left it blank: 'OMNI' + 7 random digits. */
export const newIdentifierCode = () => `OMNI${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

export const IDENTIFIER_CODE = /^[A-Z0-9-]{3,32}$/;
