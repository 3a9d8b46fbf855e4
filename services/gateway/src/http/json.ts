// gRPC messages → the JSON the browser reads (camelCase, strings for enums, null for empty optionals).
import { cms } from '@omni/proto';

const KIND: Record<number, string> = {
  [cms.AssetKind.ASSET_KIND_MUSIC]: 'music',
  [cms.AssetKind.ASSET_KIND_VIDEO]: 'video',
};
const STATUS: Record<number, string> = {
  [cms.AssetStatus.ASSET_STATUS_PENDING]: 'pending',
  [cms.AssetStatus.ASSET_STATUS_PUBLISHED]: 'published',
  [cms.AssetStatus.ASSET_STATUS_REJECTED]: 'rejected',
};

export const pageJson = (p: cms.Page) => ({ id: p.id, slug: p.slug, title: p.title });

export const assetJson = (a: cms.Asset) => ({
  id: a.id,
  pageId: a.pageId,
  pageTitle: a.pageTitle,
  kind: KIND[a.kind] ?? 'music',
  status: STATUS[a.status] ?? 'pending',
  title: a.title,
  description: a.description || null,
  publishedAt: a.publishedAt || null,
  createdAt: a.createdAt,
  rejectionReason: a.rejectionReason || null,
});
