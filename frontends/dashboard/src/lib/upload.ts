import { apiFetch, type ByteProgress, contentTypeOf, putToSignedUrl } from '@omni/ui';
import * as z from 'zod/mini';

/** Why a file is uploaded: decides its key shape and size limit on the server (storage contract). */
export type UploadPurpose = 'console' | 'artist-upload' | 'song-submission' | 'contributor';

export interface SignUploadRequest {
  bucket: string;
  fileName: string;
  contentType: string;
  size: number;
  purpose: UploadPurpose;
  folder?: string;
  title?: string;
}

const signedUploadSchema = z.object({
  signedUrl: z.string().check(z.minLength(1)),
  fileKey: z.string().check(z.minLength(1)),
  bucket: z.string(),
  headers: z._default(z.optional(z.record(z.string(), z.string())), {}),
  expiresAt: z.optional(z.string()),
  maxSize: z.optional(z.number()),
});
export type SignedUpload = z.infer<typeof signedUploadSchema>;
export type { ByteProgress };
export { contentTypeOf, putToSignedUrl };

const completedUploadSchema = z.object({
  accepted: z.boolean(),
  publicUrl: z._default(z.optional(z.string()), ''),
  inspection: z.optional(z.record(z.string(), z.unknown())),
});
export type CompletedUpload = z.infer<typeof completedUploadSchema>;

export async function signUpload(request: SignUploadRequest): Promise<SignedUpload> {
  const body = await apiFetch('/api/uploads/sign', { method: 'POST', body: JSON.stringify(request) });
  return signedUploadSchema.parse(body);
}

/**
 * Removes the caller's own upload from a try that failed before its release was made (issue 21 §3.7), so it
 * does not stay in storage; storage keeps any file a release may use (409).
 */
export async function discardUpload(file: { bucket: string; fileKey: string }): Promise<void> {
  await apiFetch('/api/uploads/discard', {
    method: 'POST',
    body: JSON.stringify({ bucket: file.bucket, fileKey: file.fileKey }),
  });
}

export async function completeUpload(
  bucket: string,
  fileKey: string,
  role?: 'audio' | 'artwork',
): Promise<CompletedUpload> {
  const body = await apiFetch('/api/uploads/complete', {
    method: 'POST',
    body: JSON.stringify(role ? { bucket, fileKey, role } : { bucket, fileKey }),
  });
  return completedUploadSchema.parse(body);
}

export interface UploadFileOptions extends Omit<SignUploadRequest, 'fileName' | 'contentType' | 'size'> {
  file: File;
  role?: 'audio' | 'artwork';
  onSigned?: (signed: SignedUpload) => void;
  onProgress?: (progress: ByteProgress) => void;
}

export interface UploadedFile {
  bucket: string;
  fileKey: string;
  publicUrl: string;
  inspection?: Record<string, unknown> | undefined;
}

/** Sign, PUT with progress, then ask the server to inspect the bytes (it refuses what is unacceptable). */
export async function uploadFile({
  file,
  role,
  onSigned,
  onProgress,
  ...request
}: UploadFileOptions): Promise<UploadedFile> {
  const signed = await signUpload({
    ...request,
    fileName: file.name,
    contentType: contentTypeOf(file),
    size: file.size,
  });
  onSigned?.(signed);
  await putToSignedUrl(signed, file, onProgress);
  const completed = await completeUpload(signed.bucket, signed.fileKey, role);
  return {
    bucket: signed.bucket,
    fileKey: signed.fileKey,
    publicUrl: completed.publicUrl,
    inspection: completed.inspection,
  };
}
