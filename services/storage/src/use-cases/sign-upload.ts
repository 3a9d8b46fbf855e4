// Signing an upload: check the request against the bucket's policy (purpose, claimed type, size), then
// hand out a key nobody holds yet and record who may send to it, under which limits, until when.
import {
  DuplicateKeyError,
  GrpcError,
  GrpcStatus,
  invalidArgument,
  notFoundError,
  signInRequired,
} from '@omni/platform';
import { RELEASE_MESSAGES } from '@omni/proto/api';
import {
  bucketWords,
  claimedKind,
  describeSize,
  isBucketName,
  policyOf,
  sizeLimit,
  type UploadPurposeName,
} from '../domain/buckets';
import { buildKey, sanitiseSegment } from '../domain/keys';
import { isLinkOwner, newUploadSession, UPLOAD_SESSION_HEADER, userSubject } from '../domain/owner';
import { replaceable, type UploadDoc, uploadId } from '../store/uploads';
import type { StorageContext } from './context';

const MAX_KEY_ATTEMPTS = 20;

export interface UploadRequest {
  ownerId: string;
  /** Undefined when the caller named no purpose we know. */
  purpose: UploadPurposeName | undefined;
  bucket: string;
  fileName: string;
  contentType: string;
  size: number;
  title: string;
  folder: string;
  /** First key segment when not ownerId (contributor without a session: 'anon'). */
  pathOwner?: string;
}

export interface SignedUpload {
  signedUrl: string;
  fileKey: string;
  bucket: string;
  headers: Record<string, string>;
  expiresAt: string;
  maxSize: number;
}

/**
 * A path signed again by the same sender for the same purpose reuses it, replacing what is there: the
 * contributor page upserts (spec §3), and a retry (a console song submission after a failed upload, a
 * refused file or a refused submission whose file was removed) takes its own key again instead of adding
 * "-2", "-3" beside an orphan (issue 21 §3.7). Never someone else's file, nor one signed for another
 * purpose (a song submission's key can equal a folderless contributor file's), nor bytes a completion
 * accepted (`replaceable`): those keep their file and the new upload gets a suffixed name.
 */
function mayReuse(existing: UploadDoc, ownerId: string, purpose: UploadPurposeName): boolean {
  return existing.ownerId === ownerId && existing.purpose === purpose && replaceable(existing);
}

export async function signUpload(ctx: StorageContext, req: UploadRequest): Promise<SignedUpload> {
  const { objects, uploads, log } = ctx;
  if (!req.ownerId) throw signInRequired();
  const purpose = req.purpose;
  if (!purpose) throw invalidArgument('Say what the upload is for (purpose).');
  if (!isBucketName(req.bucket)) throw notFoundError(`Bucket "${req.bucket}" missing...`);
  const bucket = req.bucket;
  const words = bucketWords(bucket);
  if (!(await objects.bucketExists(bucket))) {
    // The console's words for its own buckets (spec §8); the others are not a name a person knows.
    throw notFoundError(
      words.place.includes(`"${bucket}"`)
        ? `Bucket "${bucket}" missing...`
        : `Storage for ${words.place} is not set up yet. Please try again later or tell support.`,
    );
  }
  const policy = policyOf(bucket);
  if (!policy.purposes.includes(purpose)) {
    throw invalidArgument(`Files for ${purpose.replace('-', ' ')} cannot go to ${words.place}.`);
  }
  if (!req.fileName.trim()) throw invalidArgument('The file needs a name.');
  const contentType = (req.contentType || 'application/octet-stream').trim().toLowerCase();
  // The browser's type is only a claim (the bytes decide at completion), but an obvious mismatch is
  // refused now rather than after a long upload.
  const claimed = claimedKind(contentType);
  const kinds: readonly string[] | undefined = policy.kinds;
  if (claimed && kinds && !kinds.includes(claimed)) {
    throw invalidArgument(`${words.takes} ${policy.accepts}; this file is ${contentType}.`);
  }
  const limit = sizeLimit(bucket, contentType);
  if (!(req.size > 0)) throw invalidArgument('The file is empty.');
  if (req.size > limit) {
    throw invalidArgument(
      `This file is ${describeSize(req.size)}; ${words.files} may be at most ${describeSize(limit)}.`,
    );
  }
  if (purpose === 'song-submission' && !req.title.trim())
    throw invalidArgument(RELEASE_MESSAGES.songRequired);

  const signedAt = ctx.now();
  const fileName = sanitiseSegment(req.fileName);
  for (let attempt = 0; attempt < MAX_KEY_ATTEMPTS; attempt++) {
    const key = buildKey(
      {
        purpose,
        ownerId: req.ownerId,
        pathOwner: req.pathOwner,
        fileName: req.fileName,
        folder: req.folder,
        title: req.title,
        now: signedAt,
      },
      attempt,
    );
    const existing = await uploads.findById(uploadId(bucket, key));
    const replaces = !!existing && mayReuse(existing, req.ownerId, purpose);
    if (!replaces && (await objects.statObject(bucket, key))) continue;
    const seconds = ctx.uploadUrlSeconds;
    // A link's anonymous contributor has no account to prove: a secret handed out once with this URL does.
    const session = isLinkOwner(req.ownerId) ? newUploadSession() : undefined;
    const owner = session?.subject ?? userSubject(req.ownerId);
    const signed = await objects.presignPut(bucket, key, {
      expiresInSeconds: seconds,
      maxSize: req.size,
      contentType,
      owner,
      overwrite: replaces,
    });
    const record = {
      bucket,
      key,
      ownerId: req.ownerId,
      ownerSubject: owner,
      purpose,
      fileName,
      contentType,
      maxSize: req.size,
      signedAt: signedAt.toISOString(),
      expiresAt: signed.expiresAt.toISOString(),
      status: 'signed' as const,
    };
    if (replaces) {
      // What was known about the old bytes no longer holds: the new ones are inspected at completion. Only
      // the signing that was read is replaced: a submission that completed it meanwhile keeps it, and this
      // file takes the next name.
      const { matched } = await uploads.updateOne(
        { _id: existing._id, signedAt: existing.signedAt, status: existing.status },
        {
          $set: record,
          $unset: {
            inspection: 1,
            inspectedEtag: 1,
            problems: 1,
            warnings: 1,
            role: 1,
            completedAt: 1,
            claimedAt: 1,
            deletedAt: 1,
          },
        },
      );
      if (matched === 0) continue;
    } else {
      try {
        await uploads.insertOne({ _id: uploadId(bucket, key), ...record });
      } catch (err) {
        if (err instanceof DuplicateKeyError) continue;
        throw err;
      }
    }
    log.info({ bucket, key, ownerId: req.ownerId, purpose, maxSize: req.size }, 'upload signed');
    return {
      signedUrl: signed.url,
      fileKey: key,
      bucket,
      headers: session ? { ...signed.headers, [UPLOAD_SESSION_HEADER]: session.secret } : signed.headers,
      expiresAt: signed.expiresAt.toISOString(),
      maxSize: req.size,
    };
  }
  throw new GrpcError(
    GrpcStatus.ALREADY_EXISTS,
    'A file with this name already exists here; rename it and try again.',
  );
}
