// The lists storage answers: every bucket the spec names with whether it exists, and a person's own
// stored files, newest first.
import { notFoundError, signInRequired } from '@omni/platform';
import { BUCKETS, type BucketName, isBucketName } from '../domain/buckets';
import type { StorageContext } from './context';

export async function listBuckets(ctx: StorageContext) {
  const names = Object.keys(BUCKETS) as BucketName[];
  return Promise.all(
    names.map(async (name) => ({
      name,
      exists: await ctx.objects.bucketExists(name),
      accepts: BUCKETS[name].accepts,
    })),
  );
}

export interface StoredFile {
  bucket: string;
  fileKey: string;
  publicUrl: string;
  size: number;
  contentType: string;
  uploadedAt: string;
}

export async function listUploads(
  ctx: StorageContext,
  req: { ownerId: string; bucket: string; limit: number },
): Promise<StoredFile[]> {
  const { objects, uploads } = ctx;
  if (!req.ownerId) throw signInRequired();
  if (req.bucket && !isBucketName(req.bucket)) throw notFoundError(`Bucket "${req.bucket}" missing...`);
  const limit = Math.min(Math.max(req.limit || 50, 1), 200);
  // Only files a completion accepted (issue 21 §3.7): one signed and never completed (a failed upload or
  // check), refused or removed cannot be used for anything, so it is not offered.
  const docs = await uploads.find(
    {
      ownerId: req.ownerId,
      status: 'complete',
      ...(req.bucket ? { bucket: req.bucket } : {}),
    },
    { sort: { signedAt: -1 }, limit: limit * 2 },
  );
  const files: StoredFile[] = [];
  // Signed but never sent (or sent and not yet completed): only what is really stored is listed.
  for (const doc of docs) {
    if (files.length >= limit) break;
    const info = await objects.statObject(doc.bucket, doc.key);
    if (!info) continue;
    files.push({
      bucket: doc.bucket,
      fileKey: doc.key,
      publicUrl: objects.publicUrl(doc.bucket, doc.key),
      size: info.size,
      contentType: doc.inspection?.mimeType || info.contentType,
      uploadedAt: info.lastModified.toISOString(),
    });
  }
  return files;
}
