// Uploads a file the way the web app does: sign at /api/uploads/sign, PUT the bytes to the signed URL
// (Omni's own store, reached on the gateway the test started, or an S3 server's presigned URL in cluster
// mode), complete at /api/uploads/complete. Fails the test on a refusal.
import { fetchOnce } from './http';

export interface UploadedFile {
  bucket: string;
  fileKey: string;
  /** What complete hands out: a plain URL for public buckets, a signed GET link for private ones. */
  publicUrl: string;
}

export async function uploadFile(
  baseUrl: string,
  token: string,
  file: {
    bucket: string;
    fileName: string;
    contentType: string;
    bytes: Buffer;
    role?: 'audio' | 'artwork';
    /** 'console' for the private documents bucket (a proof of rights); a release's files by default. */
    purpose?: 'artist-upload' | 'console';
  },
): Promise<UploadedFile> {
  const call = async (path: string, body: unknown) => {
    const res = await fetchOnce(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const signed = (await call('/api/uploads/sign', {
    bucket: file.bucket,
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.bytes.length,
    purpose: file.purpose ?? 'artist-upload',
  })) as { signedUrl: string; fileKey: string; headers?: Record<string, string> };
  const target = new URL(signed.signedUrl, baseUrl);
  // Omni's own store (/objects on the gateway) binds the signed PUT to the account: its bearer goes with
  // the bytes. An S3 server (cluster mode) gets the presigned URL as signed and never our token.
  const own = target.origin === new URL(baseUrl).origin || target.hostname === 'localhost';
  const put = own
    ? await fetchOnce(`${baseUrl}${target.pathname}${target.search}`, {
        method: 'PUT',
        headers: { 'content-type': file.contentType, authorization: `Bearer ${token}` },
        body: new Uint8Array(file.bytes),
      })
    : await fetchOnce(target.href, {
        method: 'PUT',
        headers: { 'content-type': signed.headers?.['Content-Type'] ?? file.contentType },
        body: new Uint8Array(file.bytes),
      });
  if (put.status !== 200) throw new Error(`PUT ${target.pathname}: ${put.status} ${await put.text()}`);
  const done = (await call('/api/uploads/complete', {
    bucket: file.bucket,
    fileKey: signed.fileKey,
    ...(file.role ? { role: file.role } : {}),
  })) as { accepted: boolean; publicUrl: string };
  if (!done.accepted) throw new Error(`${file.fileName} was not accepted`);
  return { bucket: file.bucket, fileKey: signed.fileKey, publicUrl: done.publicUrl };
}
