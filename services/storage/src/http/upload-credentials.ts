// What a PUT to a signed upload URL proves about its sender, for the object store's upload endpoint: an
// account's access token proves `user:<id>`. Contributor link sessions (the CMS work) add their token
// type here, proving `link:<session id>`; the signed URL then names that subject as its owner.
import { InvalidTokenError, type TokenVerifier } from '@omni/platform';
import { userSubject } from '../domain/owner';
import { UploadCredentialError, type UploadCredentials } from '../providers/objects/port';

export function uploadCredentials(verifier: TokenVerifier): UploadCredentials {
  return async (headers) => {
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
