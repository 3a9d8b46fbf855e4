// Who an upload belongs to, as the subject a credential must prove at PUT time. Storage records it at
// signing (in the upload record and, through the objects port, in the signed URL itself).
//   user:<account id>     a signed-in account, proved by its access token (Authorization: Bearer)
//   link:<sha-256 hex>    a contributor upload link's anonymous upload: storage hands the session secret out
//                         once, with the signed URL (header X-Upload-Session); only its hash is in the URL
import { createHash, randomBytes } from 'node:crypto';

export type OwnerSubject = `user:${string}` | `link:${string}`;

export const userSubject = (userId: string): OwnerSubject => `user:${userId}`;

/** The header an anonymous contributor's PUT carries. */
export const UPLOAD_SESSION_HEADER = 'X-Upload-Session';

/** Owner ids cms gives for a link's anonymous contributor: `link:<link id>`. */
export const isLinkOwner = (ownerId: string) => ownerId.startsWith('link:');

export const linkSubject = (secret: string): OwnerSubject =>
  `link:${createHash('sha256').update(secret).digest('hex')}`;

/** A fresh secret for one anonymous upload and the subject that proves it. */
export function newUploadSession(): { secret: string; subject: OwnerSubject } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, subject: linkSubject(secret) };
}
