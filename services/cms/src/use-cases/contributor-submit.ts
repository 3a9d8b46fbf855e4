// What a contributor does through an upload link: sign a file into one of the console buckets, submit it
// (or an audio release) for review. A submission is one use of the link, claimed in the same transaction
// that creates the pending asset and its asset.submitted event, so a link with N uses admits exactly N.
// Signing reserves a place under the link's cap on waiting files (PENDING_PER_USE); a file whose submission
// can no longer be accepted is deleted from storage (link-upload-cleanup.ts).
import { fail, GrpcStatus, invalidArgument, isServiceError, signInRequired } from '@omni/platform';
import { storage } from '@omni/proto';
import { CMS_MESSAGES, CONTRIBUTOR_SUBMISSION } from '@omni/proto/api';
import { type AssetDoc, kindOfSniffed, type NewAssetFields } from '../domain/asset';
import { contributorOwner } from '../domain/contributor';
import { hashToken, IDENTIFIER_CODE, newIdentifierCode, type UploadLinkDoc } from '../domain/upload-link';
import type { LinkUploadDoc } from '../store/link-uploads';
import { type CmsContext, INSPECTION_DEADLINE_MS } from './context';
import { discardSubmission, sweepLinkUploads, UNSUBMITTED_GRACE_MS } from './link-upload-cleanup';
import { knownLink, LINK_MESSAGES, refusalFor, usableLink } from './upload-links';

/** The buckets the contributor page offers (spec §3: the console's seven). */
export const CONTRIBUTOR_BUCKETS = [
  'documents',
  'artwork',
  'audio',
  'video',
  'contracts',
  'thumbnails',
  'presskits',
] as const;

const FOLDER = /^[A-Za-z0-9 _.-]+$/;

function checkBucket(bucket: string) {
  if (!(CONTRIBUTOR_BUCKETS as readonly string[]).includes(bucket))
    throw invalidArgument(`Choose one of the buckets: ${CONTRIBUTOR_BUCKETS.join(', ')}.`);
}

function checkFolder(folder: string) {
  const segments = folder.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.' || !FOLDER.test(s)))
    throw invalidArgument(
      'A folder path is made of names with letters, digits, spaces, dots, dashes and underscores, separated by /.',
    );
}

function allowingFiles(link: UploadLinkDoc) {
  if (!link.allowFile) throw fail('link_forbids_files', LINK_MESSAGES.noFiles);
  return link;
}

async function fileLink(ctx: CmsContext, token: string) {
  return allowingFiles(await usableLink(ctx, token));
}

export async function signContributorUpload(
  ctx: CmsContext,
  req: {
    token: string;
    userId: string;
    bucket: string;
    folder: string;
    fileName: string;
    contentType: string;
    size: number;
    contributorKey: string;
  },
) {
  const link = await fileLink(ctx, req.token);
  const ownerId = contributorOwner(link._id, req.userId, req.contributorKey);
  checkBucket(req.bucket);
  checkFolder(req.folder);
  // This link's files that lapsed unsubmitted go first, so their places are free again.
  await sweepLinkUploads(ctx, link._id);
  if (!(await ctx.links.reserveSigning(link)))
    throw fail('link_uploads_waiting', LINK_MESSAGES.uploadsWaiting);
  let signed: storage.SignUploadResponse;
  try {
    signed = await ctx.storage.signUpload({
      ownerId,
      pathOwner: req.userId || 'anon',
      bucket: req.bucket,
      fileName: req.fileName,
      contentType: req.contentType,
      size: req.size,
      purpose: storage.UploadPurpose.UPLOAD_PURPOSE_CONTRIBUTOR,
      folder: req.folder,
      title: '',
    });
  } catch (err) {
    // Refused (size, type, name): nothing was signed, so the place is given back.
    await ctx.links.release(link._id, 1);
    throw err;
  }
  const signedAt = ctx.now();
  const lapses = Date.parse(signed.expiresAt) || signedAt.getTime();
  await ctx.linkUploads.record({
    linkId: link._id,
    ownerId,
    bucket: signed.bucket,
    fileKey: signed.fileKey,
    signedAt: signedAt.toISOString(),
    sweepAfter: new Date(lapses + UNSUBMITTED_GRACE_MS).toISOString(),
  });
  return {
    signedUrl: signed.signedUrl,
    fileKey: signed.fileKey,
    bucket: signed.bucket,
    headers: signed.headers,
    path: `${signed.bucket}/${signed.fileKey}`,
  };
}

/**
 * Claims one use and creates the submission's pending assets (one per file) with their events, all or
 * nothing: a use is one submission, however many files it carries. When the claim fails the link is read
 * again to say why (revoked, expired or used up).
 */
async function claimAndCreate(
  ctx: CmsContext,
  token: string,
  link: UploadLinkDoc,
  ownerId: string,
  files: readonly NewAssetFields[],
) {
  const page = await ctx.pages.byId(link.pageId);
  await ctx.links.ensureSignable(link);
  // The signings of these files through this link (none for a release's file, signed outside the link).
  const signings: LinkUploadDoc[] = [];
  for (const fields of files) {
    const bucket = String(fields.bucket ?? '');
    if (bucket)
      signings.push(...(await ctx.linkUploads.pendingFor(link._id, ownerId, bucket, String(fields.fileKey))));
  }
  const assets = await ctx.assets.transaction(async (scope) => {
    const claimed = await ctx.links.claim(scope, hashToken(token), ctx.now());
    if (!claimed) return null;
    const settled = await ctx.linkUploads.settle(
      signings.map((s) => s._id),
      'submitted',
      scope,
    );
    await ctx.links.release(link._id, settled, scope);
    const created: AssetDoc[] = [];
    for (const fields of files) {
      const asset = await ctx.assets.create(
        { ...fields, pageId: link.pageId, linkId: link._id },
        'pending',
        scope,
      );
      await ctx.outbox.add(scope, 'asset.submitted', asset._id, {
        assetId: asset._id,
        pageSlug: page?.slug ?? '',
        kind: asset.kind,
        title: asset.title,
      });
      created.push(asset);
    }
    return created;
  });
  if (!assets) {
    // Lost the last use: the files will never be accepted through this link, so they do not stay.
    for (const fields of files)
      if (fields.bucket)
        await discardSubmission(ctx, link._id, ownerId, String(fields.bucket), String(fields.fileKey));
    const now = await ctx.links.byId(link._id);
    throw (now && refusalFor(now, ctx.now())) ?? fail('link_used_up', LINK_MESSAGES.usedUp);
  }
  void ctx.outbox.flush().catch(() => undefined);
  return { assets, page };
}

export interface SubmittedFile {
  asset: AssetDoc;
  path: string;
  url: string;
}

/**
 * A contributor's submission: its title (required: moderation shows it) and its files, judged by storage
 * and then admitted as one use of the link, one pending asset per file.
 */
export async function submitContributorUpload(
  ctx: CmsContext,
  req: {
    token: string;
    userId: string;
    bucket: string;
    fileKey: string;
    files: readonly { bucket: string; fileKey: string }[];
    title: string;
    description: string;
    contributorKey: string;
  },
): Promise<{ files: SubmittedFile[] }> {
  const known = await knownLink(ctx, req.token);
  const ownerId = contributorOwner(known._id, req.userId, req.contributorKey);
  const named = req.files.length > 0 ? req.files : [{ bucket: req.bucket, fileKey: req.fileKey }];
  // The same file named twice is one file.
  const files = [...new Map(named.map((f) => [`${f.bucket}/${f.fileKey}`, f])).values()];
  for (const file of files) {
    checkBucket(file.bucket);
    if (!file.fileKey) throw invalidArgument(CONTRIBUTOR_SUBMISSION.noFiles);
  }
  if (files.length > CONTRIBUTOR_SUBMISSION.maxFiles)
    throw invalidArgument(CONTRIBUTOR_SUBMISSION.tooManyFiles);
  const title = req.title.trim();
  if (!title) throw invalidArgument(CONTRIBUTOR_SUBMISSION.titleRequired);
  const refusal = refusalFor(known, ctx.now());
  if (refusal) {
    // Revoked, expired or used up since the files were sent: they can never be submitted through this link.
    for (const file of files) await discardSubmission(ctx, known._id, ownerId, file.bucket, file.fileKey);
    throw refusal;
  }
  const link = allowingFiles(known);
  // Storage's verdict on the bytes is final: a refused file is removed there and the refusal passed on
  // (naming the file when the submission has several). Storage answers only the owner: another
  // contributor's path is not found (404). The files are judged at once, so a submission of many waits
  // for the slowest, not for the sum.
  const verdicts = await Promise.allSettled(
    files.map((file) =>
      ctx.storage.completeUpload(
        { ownerId, bucket: file.bucket, fileKey: file.fileKey, role: '', expectKind: '' },
        { deadlineMs: INSPECTION_DEADLINE_MS },
      ),
    ),
  );
  const completed: storage.CompleteUploadResponse[] = [];
  for (const [i, verdict] of verdicts.entries()) {
    const file = files[i]!;
    if (verdict.status === 'fulfilled') {
      completed.push(verdict.value);
      continue;
    }
    const err = verdict.reason as unknown;
    // Refused for its bytes (storage removed them): its place under the link's cap is free again.
    if (isServiceError(err) && err.code === GrpcStatus.INVALID_ARGUMENT) {
      await discardSubmission(ctx, link._id, ownerId, file.bucket, file.fileKey);
      if (files.length > 1) throw invalidArgument(`${fileNameOf(file.fileKey)}: ${err.details}`);
    }
    throw err;
  }
  // Several files: each asset says which part of the submission it is, under the submission's title.
  const titled = (i: number) =>
    files.length > 1 ? `${title.slice(0, 180)} (${i + 1} of ${files.length})` : title.slice(0, 200);
  const { assets } = await claimAndCreate(
    ctx,
    req.token,
    link,
    ownerId,
    files.map((file, i) => ({
      kind: kindOfSniffed(completed[i]!.inspection?.kind ?? ''),
      title: titled(i),
      description: req.description.trim().slice(0, 5000),
      bucket: file.bucket,
      fileKey: file.fileKey,
      submittedBy: req.userId || 'anon',
    })),
  );
  return {
    files: assets.map((asset, i) => ({
      asset,
      path: `${files[i]!.bucket}/${files[i]!.fileKey}`,
      url: completed[i]!.publicUrl,
    })),
  };
}

/** A key's file name as the contributor named it (keys end in `<uuid>_<name>` or the name). */
function fileNameOf(fileKey: string): string {
  const last = fileKey.split('/').pop() ?? fileKey;
  return last.replace(/^[0-9a-f-]{36}_/, '');
}

export const RELEASE_BUCKET = 'audio';

export async function submitRelease(
  ctx: CmsContext,
  req: { token: string; userId: string; title: string; artist: string; code: string; fileKey: string },
): Promise<{ asset: AssetDoc; code: string; path: string }> {
  const link = await usableLink(ctx, req.token);
  if (!req.userId) throw signInRequired(CMS_MESSAGES.signInFirst);
  const title = req.title.trim();
  const artist = req.artist.trim();
  if (!title || !artist) throw invalidArgument(CMS_MESSAGES.releaseRequired);
  if (!req.fileKey) throw invalidArgument(CMS_MESSAGES.releaseAudio);
  const given = req.code.trim();
  if (given && !IDENTIFIER_CODE.test(given))
    throw invalidArgument('Identifier code must be 3 to 32 letters, digits or dashes.');
  const code = given || newIdentifierCode();
  await ctx.storage.completeUpload(
    { ownerId: req.userId, bucket: RELEASE_BUCKET, fileKey: req.fileKey, role: '', expectKind: 'audio' },
    { deadlineMs: INSPECTION_DEADLINE_MS },
  );
  const { assets } = await claimAndCreate(ctx, req.token, link, req.userId, [
    {
      kind: 'music',
      title: title.slice(0, 200),
      description: '',
      bucket: RELEASE_BUCKET,
      fileKey: req.fileKey,
      submittedBy: req.userId,
      metadata: { artist: artist.slice(0, 200), code },
    },
  ]);
  return { asset: assets[0]!, code, path: `${RELEASE_BUCKET}/${req.fileKey}` };
}
