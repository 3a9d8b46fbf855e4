// Who a contributor's file belongs to in storage. A signed-in contributor is their account; an anonymous one
// is this link plus the SHA-256 of the secret their page made for its tab (X-Contributor-Key), so two people
// on one link are two owners: neither can replace (upsert) or submit what the other uploaded. Only the hash
// is kept (in storage's and cms's records); the secret itself is never stored or logged.
import { createHash } from 'node:crypto';
import { invalidArgument } from '@omni/platform';
import { CMS_MESSAGES, CONTRIBUTOR_KEY } from '@omni/proto/api';

export function contributorOwner(linkId: string, userId: string, contributorKey: string): string {
  if (userId) return userId;
  if (!CONTRIBUTOR_KEY.test(contributorKey)) throw invalidArgument(CMS_MESSAGES.contributorKey);
  return `link:${linkId}:${createHash('sha256').update(contributorKey).digest('hex')}`;
}
