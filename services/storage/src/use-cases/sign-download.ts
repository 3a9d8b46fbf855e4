// A short-lived signed GET for an object another service holds the reference to (cms plays published
// assets through it). Only objects storage recorded as completed uploads are signed, so a caller cannot
// mint a link for an arbitrary key; the object store serves Range requests on the link (206).
import { invalidArgument, notFoundError } from '@omni/platform';
import { isBucketName } from '../domain/buckets';
import { uploadId } from '../store/uploads';
import type { StorageContext } from './context';

const DEFAULT_SECONDS = 10 * 60;
const MAX_SECONDS = 60 * 60;

export async function signDownload(
  ctx: StorageContext,
  req: { bucket: string; fileKey: string; expiresInSeconds: number },
): Promise<string> {
  if (!isBucketName(req.bucket) || !req.fileKey) throw notFoundError('No such file.');
  const seconds = req.expiresInSeconds || DEFAULT_SECONDS;
  if (seconds < 1 || seconds > MAX_SECONDS) throw invalidArgument('A download link lasts 1 s to 1 hour.');
  const doc = await ctx.uploads.findById(uploadId(req.bucket, req.fileKey));
  if (doc?.status !== 'complete' || !(await ctx.objects.statObject(req.bucket, req.fileKey)))
    throw notFoundError('No such file.');
  return ctx.objects.presignGet(req.bucket, req.fileKey, seconds);
}
