// OMNI CMS: the admin API (/api/admin), the contributor API (/api/contributor, token in X-Upload-Token) and the
// public pages' lists. The gateway parses requests with these (shape and size); cms and storage judge the rest
// (links, pages, the file's bytes). The admin screens and the contributor page type and parse with the same.
import * as z from 'zod/mini';
import { CMS_MESSAGES as says, wholeNumberMessages } from './messages';

/** Upload-link defaults and bounds (spec §9: Max Uses 1 and Expires In 24 hours by default, at least 1 each). */
export const LINK_DEFAULTS = { maxUses: 1, expiresInHours: 24 } as const;
export const LINK_LIMITS = { maxUses: 10_000, expiresInHours: 8_760 } as const;
/** The header that carries a contributor's link token. */
export const UPLOAD_TOKEN_HEADER = 'X-Upload-Token';
/**
 * The header that carries an anonymous contributor's own secret: the page makes it once per tab and sends it
 * with every call, so what one contributor on a link uploads is theirs alone (another on the same link can
 * neither replace nor submit it). Not needed when signed in.
 */
export const CONTRIBUTOR_KEY_HEADER = 'X-Contributor-Key';
/** Its shape: at least 128 random bits as base64url (the page sends 32 bytes: 43 characters). */
export const CONTRIBUTOR_KEY = /^[A-Za-z0-9_-]{22,128}$/;

export const ASSET_KINDS = ['music', 'video', 'image', 'document'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
export const ASSET_STATUSES = ['pending', 'published', 'rejected'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];
export const LINK_STATUSES = ['active', 'revoked', 'expired', 'used up'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/**
 * Which type each public page shows (design: /music shows music, /videos shows videos). An asset published
 * on a page of another type would be published and shown nowhere, so cms refuses it and the admin form
 * offers only the pages that take the chosen type.
 */
export const PAGE_TAKES: Readonly<Record<string, 'music' | 'video'>> = { music: 'music', videos: 'video' };
const TYPE_WORDS = { music: 'music', video: 'videos' } as const;
/** The pages that take `kind`, by slug. */
export const pagesTaking = (kind: 'music' | 'video') =>
  Object.keys(PAGE_TAKES).filter((slug) => PAGE_TAKES[slug] === kind);
/** The refusal of `kind` on the page titled `pageTitle`, saying which page takes which type. */
export const wrongPageMessage = (pageTitle: string, kind: 'music' | 'video') =>
  `The ${pageTitle} page does not show ${TYPE_WORDS[kind]}. Music goes on the Music page and videos on the Videos page: choose the page that fits the type.`;

const requiredText = (max: number) =>
  z.string({ error: says.required }).check(z.trim(), z.minLength(1, says.required), z.maxLength(max));
const optionalText = (max: number) => z._default(z.optional(z.string().check(z.maxLength(max))), '');
const fileName = z
  .string({ error: says.fileName })
  .check(z.trim(), z.minLength(1, says.fileName), z.maxLength(1024));
const contentType = z._default(
  z.optional(z.string().check(z.trim(), z.maxLength(255))),
  'application/octet-stream',
);
const size = z
  .number({ error: says.size })
  .check(z.int(), z.gte(0, says.size), z.lte(Number.MAX_SAFE_INTEGER, says.size));
const cursor = z._default(z.optional(z.string().check(z.maxLength(512))), '');
const bucket = z.string({ error: says.bucket }).check(z.trim(), z.minLength(1, says.bucket), z.maxLength(63));
const wholeNumber = (label: string, max: number, fallback: number) => {
  const m = wholeNumberMessages(label, max);
  return z._default(
    z.optional(z.number({ error: m.type }).check(z.int(m.type), z.gte(1, m.min), z.lte(max, m.max))),
    fallback,
  );
};

// ---- requests -------------------------------------------------------------------------------------------

export const adminSignBody = z.strictObject({ fileName, contentType, size });
export type AdminSignBody = z.input<typeof adminSignBody>;

export const adminUploadBody = z.strictObject({
  pageSlug: z
    .string({ error: says.required })
    .check(z.trim(), z.minLength(1, says.required), z.maxLength(64)),
  kind: z.enum(['music', 'video'], { error: says.kind }),
  source: z._default(z.optional(z.literal('file', { error: "source must be 'file'." })), 'file'),
  fileKey: z.string({ error: says.required }).check(z.minLength(1, says.required), z.maxLength(1024)),
  title: requiredText(200),
  description: optionalText(5000),
});
export type AdminUploadBody = z.input<typeof adminUploadBody>;

export const assetsQuery = z.strictObject({
  status: z.enum(ASSET_STATUSES, { error: says.status }),
  limit: z._default(z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100))), 25),
  cursor,
});

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });

export const rejectBody = z.object({
  reason: z
    .string({ error: says.rejectReason })
    .check(z.trim(), z.minLength(1, says.rejectReason), z.maxLength(2000)),
});

export const createLinkBody = z.strictObject({
  pageSlug: z
    .string({ error: says.linkPage })
    .check(z.trim(), z.minLength(1, says.linkPage), z.maxLength(64)),
  maxUses: wholeNumber('Max Uses', LINK_LIMITS.maxUses, LINK_DEFAULTS.maxUses),
  expiresInHours: wholeNumber('Expires In', LINK_LIMITS.expiresInHours, LINK_DEFAULTS.expiresInHours),
  allowFile: z._default(z.optional(z.boolean()), true),
  allowUrl: z._default(z.optional(z.boolean()), true),
});
export type CreateLinkBody = z.input<typeof createLinkBody>;

export const linksQuery = z.strictObject({
  limit: z._default(z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(200))), 50),
  cursor,
});

export const contributorSignBody = z.strictObject({
  bucket,
  folder: z._default(z.optional(z.string().check(z.maxLength(300, says.folderTooLong))), ''),
  fileName,
  contentType,
  size,
});
export type ContributorSignBody = z.input<typeof contributorSignBody>;

/**
 * A contributor's submission (issue 21 §3.8): one use of the link, however many files it carries, with the
 * title moderation shows. `files` lists them; a one-file submission may name its file as bucket + fileKey.
 */
export const CONTRIBUTOR_SUBMISSION = {
  maxFiles: 20,
  titleRequired: 'Give your submission a title: the reviewers see it.',
  noFiles: 'Choose at least one file to submit.',
  tooManyFiles: 'A submission carries at most 20 files: submit the rest in another one.',
} as const;
const fileKey = z.string({ error: says.file }).check(z.minLength(1, says.file), z.maxLength(1024));
export const contributorUploadBody = z
  .strictObject({
    bucket: z.optional(bucket),
    fileKey: z.optional(fileKey),
    files: z.optional(
      z
        .array(z.strictObject({ bucket, fileKey }), { error: CONTRIBUTOR_SUBMISSION.noFiles })
        .check(
          z.minLength(1, CONTRIBUTOR_SUBMISSION.noFiles),
          z.maxLength(CONTRIBUTOR_SUBMISSION.maxFiles, CONTRIBUTOR_SUBMISSION.tooManyFiles),
        ),
    ),
    title: z
      .string({ error: CONTRIBUTOR_SUBMISSION.titleRequired })
      .check(z.trim(), z.minLength(1, CONTRIBUTOR_SUBMISSION.titleRequired), z.maxLength(200)),
    description: optionalText(5000),
  })
  .check(
    z.refine(
      (body) => body.files !== undefined || (body.bucket !== undefined && body.fileKey !== undefined),
      {
        error: CONTRIBUTOR_SUBMISSION.noFiles,
      },
    ),
  );
export type ContributorUploadBody = z.input<typeof contributorUploadBody>;

const releaseText = z
  .string({ error: says.releaseRequired })
  .check(z.trim(), z.minLength(1, says.releaseRequired), z.maxLength(200));
export const contributorReleaseBody = z.strictObject({
  title: releaseText,
  artist: releaseText,
  code: z._default(z.optional(z.string().check(z.trim(), z.maxLength(64))), ''),
  fileKey: z.string({ error: says.releaseAudio }).check(z.minLength(1, says.releaseAudio), z.maxLength(1024)),
});
export type ContributorReleaseBody = z.input<typeof contributorReleaseBody>;

export const publicAssetsQuery = z.strictObject({
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(200))),
  cursor: z.optional(z.string().check(z.maxLength(512))),
});

// ---- answers --------------------------------------------------------------------------------------------

export const pageSchema = z.object({ id: z.string(), slug: z.string(), title: z.string() });
export type CmsPage = z.infer<typeof pageSchema>;
export const pagesSchema = z.object({ pages: z.array(pageSchema) });

export const assetSchema = z.object({
  id: z.string(),
  pageId: z.string(),
  pageSlug: z._default(z.optional(z.string()), ''),
  pageTitle: z._default(z.optional(z.string()), ''),
  kind: z.enum(ASSET_KINDS),
  status: z.enum(ASSET_STATUSES),
  title: z.string(),
  description: z._default(z.optional(z.nullable(z.string())), null),
  publishedAt: z._default(z.optional(z.nullable(z.string())), null),
  createdAt: z.string(),
  rejectionReason: z._default(z.optional(z.nullable(z.string())), null),
  /** Plays or shows the asset once published (a redirect to a short-lived signed URL). */
  mediaUrl: z.string(),
  artist: z.optional(z.string()),
  code: z.optional(z.string()),
});
export type CmsAsset = z.infer<typeof assetSchema>;

export const assetCountsSchema = z.object({
  pending: z.number(),
  published: z.number(),
  rejected: z.number(),
});
export const assetListSchema = z.object({
  assets: z.array(assetSchema),
  nextCursor: z.nullable(z.string()),
  counts: assetCountsSchema,
});
export type CmsAssetList = z.infer<typeof assetListSchema>;
export const assetAnswerSchema = z.object({ asset: assetSchema });

export const publicAssetListSchema = z.object({
  page: z.nullable(pageSchema),
  assets: z.array(assetSchema),
  nextCursor: z._default(z.optional(z.nullable(z.string())), null),
});
export type PublicAssetList = z.infer<typeof publicAssetListSchema>;

/** What a signed upload answers: PUT the file to signedUrl with its content type and every header listed. */
export const signedUploadSchema = z.object({
  signedUrl: z.string(),
  fileKey: z.string(),
  bucket: z.string(),
  headers: z._default(z.optional(z.record(z.string(), z.string())), {}),
  path: z.optional(z.string()),
});
export type SignedUpload = z.infer<typeof signedUploadSchema>;

export const adminUploadAnswerSchema = z.object({ status: z.enum(ASSET_STATUSES), asset: assetSchema });

export const linkSchema = z.object({
  id: z.string(),
  pageSlug: z.string(),
  pageTitle: z.string(),
  status: z.enum(LINK_STATUSES),
  uses: z.number(),
  maxUses: z.number(),
  expiresAt: z.string(),
  createdAt: z.string(),
  allowFile: z.boolean(),
  allowUrl: z.boolean(),
});
export type UploadLink = z.infer<typeof linkSchema>;
export const linkListSchema = z.object({ links: z.array(linkSchema), nextCursor: z.nullable(z.string()) });
export const linkAnswerSchema = z.object({ link: linkSchema });
export const createdLinkSchema = z.object({ uploadUrl: z.string(), link: linkSchema });

export const contributorLinkSchema = z.object({
  pageSlug: z.string(),
  pageTitle: z.string(),
  expiresAt: z.string(),
  usesLeft: z.number(),
  allowFile: z.boolean(),
  allowUrl: z.boolean(),
});
export type ContributorLink = z.infer<typeof contributorLinkSchema>;
export const contributorUploadAnswerSchema = z.object({
  status: z.literal('pending'),
  /** The first file's path, URL and asset; `files` has every file of the submission. */
  path: z.string(),
  url: z.string(),
  asset: assetSchema,
  files: z._default(
    z.optional(z.array(z.object({ path: z.string(), url: z.string(), asset: assetSchema }))),
    [],
  ),
});
export const contributorReleaseAnswerSchema = z.object({
  status: z.literal('pending'),
  code: z.string(),
  path: z.string(),
});

/** GET /api/admin/assets/:id/media asked with `Accept: application/json`: the short-lived signed URL itself. */
export const mediaLinkSchema = z.object({ url: z.string() });
