// Contributor upload links: created by an admin (the token given out once), listed, revoked, and checked
// on every contributor call with the refusal that says exactly why a link no longer works.
import { fail, invalidArgument, notFoundError } from '@omni/platform';
import {
  displayedStatus,
  hashToken,
  isWellFormedToken,
  LINK_LIMITS,
  newToken,
  type UploadLinkDoc,
} from '../domain/upload-link';
import type { CmsContext } from './context';

export const LINK_MESSAGES = {
  notFound: 'This upload link is not valid. Ask for a new one.',
  revoked: 'This upload link was revoked. Ask for a new one.',
  expired: 'This upload link has expired. Ask for a new one.',
  usedUp: 'This upload link has already been used the maximum number of times.',
  noFiles: 'This link does not accept files.',
  uploadsWaiting:
    'This link already has as many files waiting to be submitted as it allows. Submit the files you sent first; files never submitted stop counting about an hour after they were signed.',
} as const;

export async function createLink(
  ctx: CmsContext,
  input: {
    pageSlug: string;
    maxUses: number;
    expiresInHours: number;
    allowFile: boolean;
    allowUrl: boolean;
    createdBy: string;
  },
) {
  if (!input.pageSlug) throw invalidArgument('Choose a page for the link.');
  const page = await ctx.pages.bySlug(input.pageSlug);
  if (!page) throw notFoundError(`There is no page called '${input.pageSlug}'.`);
  if (!Number.isInteger(input.maxUses) || input.maxUses < 1 || input.maxUses > LINK_LIMITS.maxUses)
    throw invalidArgument(`Max Uses must be a whole number from 1 to ${LINK_LIMITS.maxUses}.`);
  if (
    !Number.isInteger(input.expiresInHours) ||
    input.expiresInHours < 1 ||
    input.expiresInHours > LINK_LIMITS.expiresInHours
  )
    throw invalidArgument(
      `Expires In must be a whole number of hours from 1 to ${LINK_LIMITS.expiresInHours}.`,
    );
  const token = newToken();
  const expiresAt = new Date(ctx.now().getTime() + input.expiresInHours * 3_600_000).toISOString();
  const link = await ctx.links.create({
    pageId: page._id,
    tokenHash: hashToken(token),
    maxUses: input.maxUses,
    expiresAt,
    allowFile: input.allowFile,
    allowUrl: input.allowUrl,
    createdBy: input.createdBy,
  });
  return { link, page, token };
}

/** Why a link cannot be used now, as the refusal the contributor sees; undefined when it can. */
export function refusalFor(link: UploadLinkDoc, now: Date) {
  switch (displayedStatus(link, now)) {
    case 'revoked':
      return fail('link_revoked', LINK_MESSAGES.revoked);
    case 'expired':
      return fail('link_expired', LINK_MESSAGES.expired);
    case 'used up':
      return fail('link_used_up', LINK_MESSAGES.usedUp);
    default:
      return undefined;
  }
}

/** The link a token names, usable or not; an unknown or malformed token is refused. */
export async function knownLink(ctx: CmsContext, token: string): Promise<UploadLinkDoc> {
  const link = isWellFormedToken(token) ? await ctx.links.byTokenHash(hashToken(token)) : null;
  if (!link) throw fail('link_not_found', LINK_MESSAGES.notFound);
  return link;
}

/** The link a token names, if it can be used now; otherwise the refusal is thrown. */
export async function usableLink(ctx: CmsContext, token: string): Promise<UploadLinkDoc> {
  const link = await knownLink(ctx, token);
  const refusal = refusalFor(link, ctx.now());
  if (refusal) throw refusal;
  return link;
}
