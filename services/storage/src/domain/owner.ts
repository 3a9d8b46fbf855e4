// Who an upload belongs to, as the subject a credential must prove at PUT time. Storage records it at
// signing (in the upload record and, through the objects port, in the signed URL itself).
//   user:<account id>       a signed-in account, proved by its access token (Authorization: Bearer)
//   link:<link session id>  reserved for contributor upload links (built with the CMS work): the link's
//                           session token will prove it, recognised in http/upload-credentials.ts
export type OwnerSubject = `user:${string}` | `link:${string}`;

export const userSubject = (userId: string): OwnerSubject => `user:${userId}`;
