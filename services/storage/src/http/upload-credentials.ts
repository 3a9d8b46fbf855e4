// What a PUT to a signed upload URL proves about its sender, for the object store's upload endpoint: an
// account's access token proves `user:<id>`. Contributor link sessions (the CMS work) add their token
// secret (X-Upload-Session, handed out with an anonymous contributor's signed URL) proves `link:<its hash>`.
import { InvalidTokenError, type TokenVerifier } from '@omni/platform';
import { linkSubject, UPLOAD_SESSION_HEADER, userSubject } from '../domain/owner';
import { UploadCredentialError, type UploadCredentials } from '../providers/objects/port';

export function uploadCredentials(verifier: TokenVerifier): UploadCredentials {
  return async (headers) => {
    const session = headers[UPLOAD_SESSION_HEADER.toLowerCase()];
    if (typeof session === 'string' && session) return linkSubject(session);
    const token = bearerOf(headers.authorization);
    if (token === undefined) return undefined;
    try {
      return userSubject((await verifier.verify(token)).userId);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new UploadCredentialError(err.message);
      throw err;
    }
  };
}

function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}
