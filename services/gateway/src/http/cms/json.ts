// gRPC messages → the JSON the browser reads (camelCase, strings for enums, null for empty optionals).
import { cms } from '@omni/proto';

const KIND: Record<number, string> = {
  [cms.AssetKind.ASSET_KIND_MUSIC]: 'music',
  [cms.AssetKind.ASSET_KIND_VIDEO]: 'video',
  [cms.AssetKind.ASSET_KIND_IMAGE]: 'image',
  [cms.AssetKind.ASSET_KIND_DOCUMENT]: 'document',
};
const STATUS: Record<number, string> = {
  [cms.AssetStatus.ASSET_STATUS_PENDING]: 'pending',
  [cms.AssetStatus.ASSET_STATUS_PUBLISHED]: 'published',
  [cms.AssetStatus.ASSET_STATUS_REJECTED]: 'rejected',
};

export const pageJson = (p: cms.Page) => ({ id: p.id, slug: p.slug, title: p.title });

/** The stable path that plays a published asset (redirects to a short-lived signed URL); cacheable lists hold this. */
export const mediaPath = (assetId: string) => `/api/assets/${encodeURIComponent(assetId)}/media`;

export const assetJson = (a: cms.Asset) => ({
  id: a.id,
  pageId: a.pageId,
  pageSlug: a.pageSlug,
  pageTitle: a.pageTitle,
  kind: KIND[a.kind] ?? 'music',
  status: STATUS[a.status] ?? 'pending',
  title: a.title,
  description: a.description || null,
  publishedAt: a.publishedAt || null,
  createdAt: a.createdAt,
  rejectionReason: a.rejectionReason || null,
  mediaUrl: mediaPath(a.id),
  ...(a.artist ? { artist: a.artist, code: a.code } : {}),
});

export const linkJson = (l: cms.UploadLink) => ({
  id: l.id,
  pageSlug: l.pageSlug,
  pageTitle: l.pageTitle,
  status: l.status,
  uses: l.uses,
  maxUses: l.maxUses,
  expiresAt: l.expiresAt,
  createdAt: l.createdAt,
  allowFile: l.allowFile,
  allowUrl: l.allowUrl,
});
