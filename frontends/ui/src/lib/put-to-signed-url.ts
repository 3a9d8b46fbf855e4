// PUTs a file to a signed upload URL with progress, for every screen that uploads (the artist flow, the
// console, the contributor page, the CMS): one place decides which headers go with the bytes.
import { getSessionStore } from '@omni/ui/session';
import { ApiError } from './api';

/** What a sign call answers that the PUT needs: where to send it and every header to send with it. */
export interface SignedTarget {
  signedUrl: string;
  headers: Record<string, string>;
}

/** Bytes sent so far for one file, as XMLHttpRequest reports them. */
export interface ByteProgress {
  loaded: number;
  total: number;
  /** 0..100, rounded down. */
  percent: number;
}

/** The content type to declare: the browser's guess, or a neutral one when it has none. */
export const contentTypeOf = (file: File): string => file.type || 'application/octet-stream';

function messageFromXhr(xhr: XMLHttpRequest): string {
  try {
    const parsed = JSON.parse(xhr.responseText) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string' && parsed.error.message) return parsed.error.message;
  } catch {
    // not JSON: fall through to the spec's generic text
  }
  return 'Upload failed';
}

/**
 * Whether the signed URL is served by Omni itself (the embedded store behind /objects), which accepts an
 * upload only with the bearer of the account it was signed for. A URL on another origin (MinIO's own
 * presigned URL in a cluster) gets no bearer: it must not see our token, and S3 refuses a request that
 * carries a second authorisation beside its presigned query.
 */
export function wantsBearer(signedUrl: string, origin = window.location.origin): boolean {
  return new URL(signedUrl, origin).origin === origin;
}

/**
 * PUTs the file to a signed URL. XMLHttpRequest rather than fetch() because only XHR reports upload
 * progress, which the screens show while the bytes move. The signed URL alone is not enough: Omni's
 * own upload endpoint also wants the bearer of the account that signed it.
 */
export async function putToSignedUrl(
  signed: SignedTarget,
  file: File,
  onProgress?: (progress: ByteProgress) => void,
): Promise<void> {
  // Without a token the server answers 401 with a message that says to sign in; that message is shown.
  const token = wantsBearer(signed.signedUrl)
    ? await getSessionStore()
        .getAccessToken()
        .catch(() => null)
    : null;
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', signed.signedUrl);
    // The type the URL was signed for, byte for byte: S3 checks a signed Content-Type, and storage may
    // have normalised the browser's guess (lower case). Content-Length is the browser's to set (it is the
    // file's size, which the signature holds too).
    const signedType = Object.entries(signed.headers).find(
      ([name]) => name.toLowerCase() === 'content-type',
    )?.[1];
    xhr.setRequestHeader('Content-Type', signedType ?? contentTypeOf(file));
    for (const [name, value] of Object.entries(signed.headers)) {
      const lower = name.toLowerCase();
      if (lower !== 'content-type' && lower !== 'content-length') xhr.setRequestHeader(name, value);
    }
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (!onProgress) return;
      const total = event.lengthComputable ? event.total : file.size;
      onProgress({
        loaded: event.loaded,
        total,
        percent: total > 0 ? Math.floor((event.loaded / total) * 100) : 0,
      });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new ApiError(messageFromXhr(xhr), xhr.status));
    };
    xhr.onerror = () => reject(new ApiError('Upload failed', 0));
    xhr.onabort = () => reject(new ApiError('Upload cancelled', 0));
    xhr.send(file);
  });
}
