import type { SignedUpload } from '@omni/proto/api';
import { ApiError } from '@omni/ui';
import { getSessionStore } from '@omni/ui/session';

/** The content type to declare: the browser's guess, or a neutral one when it has none. */
export const contentTypeOf = (file: File): string => file.type || 'application/octet-stream';

function messageFromXhr(xhr: XMLHttpRequest): string {
  try {
    const parsed = JSON.parse(xhr.responseText) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string' && parsed.error.message) return parsed.error.message;
  } catch {
    // not JSON: the spec's generic text below
  }
  return 'Upload failed';
}

/**
 * PUTs the file to its signed URL with every header the sign call listed. XMLHttpRequest, not fetch(),
 * because only XHR reports upload progress. Omni's own object endpoint also wants the admin's bearer; a
 * URL on another origin (MinIO's presigned URL) must not see it.
 */
export async function putWithProgress(
  signed: SignedUpload,
  file: File,
  onPercent: (percent: number) => void,
): Promise<void> {
  const sameOrigin = new URL(signed.signedUrl, window.location.origin).origin === window.location.origin;
  const token = sameOrigin
    ? await getSessionStore()
        .getAccessToken()
        .catch(() => null)
    : null;
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', signed.signedUrl);
    xhr.setRequestHeader('Content-Type', contentTypeOf(file));
    for (const [name, value] of Object.entries(signed.headers)) {
      if (name.toLowerCase() !== 'content-type') xhr.setRequestHeader(name, value);
    }
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      const total = event.lengthComputable ? event.total : file.size;
      onPercent(total > 0 ? Math.floor((event.loaded / total) * 100) : 0);
    };
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new ApiError(messageFromXhr(xhr), xhr.status));
    xhr.onerror = () => reject(new ApiError('Upload failed', 0));
    xhr.onabort = () => reject(new ApiError('Upload failed', 0));
    xhr.send(file);
  });
}
