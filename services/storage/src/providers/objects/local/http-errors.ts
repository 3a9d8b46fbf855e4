// The messages a person sees when an upload or download link is refused. Kept together so the wording
// stays consistent and the tests can assert on it.
import type { Response } from 'express';

export const MESSAGES = {
  uploadExpired: 'This upload link has expired. Request a new one.',
  uploadInvalid: 'This upload link is not valid for this file.',
  signInToUpload: 'Sign in to upload: this upload link works only for the account that requested it.',
  notYourUpload: 'This upload link was issued to another account. Request your own upload link.',
  alreadySubmitted:
    'This file was already submitted and can no longer be replaced. Upload it again to send a new version.',
  credentialsUnavailable: 'We could not check your sign-in just now. Try again in a moment.',
  downloadExpired: 'This download link has expired. Request a new one.',
  downloadInvalid: 'This download link is not valid for this file.',
  privateFile: 'This file is private. Open it with a download link.',
  badPath: 'This file name is not allowed. Use letters, digits, and single "/" between folder names.',
  malformedUrl: 'This link is malformed. Request a new one.',
  exists: 'A file already exists at this location. Request a new upload link.',
  noBucket: 'This link points to a storage area that does not exist.',
  notFound: 'File not found.',
  aborted: 'The upload was interrupted before it finished. Try again.',
  sizeMismatch: 'The upload ended early: fewer bytes arrived than the request announced. Try again.',
  internal: 'Something went wrong while handling this file. Try again in a moment.',
  wrongType: (expected: string, got: string | undefined) =>
    `This upload link is for files of type "${expected}", but the request sent "${got ?? 'no type'}".`,
  tooLarge: (maxSize: number) =>
    `This file is larger than the upload link allows (at most ${formatBytes(maxSize)}).`,
} as const;

export function sendError(res: Response, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set('Cache-Control', 'no-store').json({ error: { message } });
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 ** 3).toFixed(1).replace(/\.0$/, '')} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 ** 2).toFixed(1).replace(/\.0$/, '')} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${n} bytes`;
}
