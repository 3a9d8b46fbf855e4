// Assets on public pages and their moderation states: pending → published (approve) or rejected (reject).
import type { Doc } from '@omni/platform';
import { cms } from '@omni/proto';

export type AssetKind = 'music' | 'video';
export type AssetStatus = 'pending' | 'published' | 'rejected';

export interface PageDoc extends Doc {
  slug: string;
  title: string;
  createdAt: string;
}

export interface AssetDoc extends Doc {
  pageId: string;
  kind: AssetKind;
  status: AssetStatus;
  title: string;
  description: string;
  fileKey: string;
  submittedBy: string;
  createdAt: string;
  publishedAt: string | null;
  metadata: { rejection_reason?: string };
}

/** The pages every installation has (spec: the public Music and Videos pages). */
export const SEED_PAGES = [
  { slug: 'music', title: 'Music' },
  { slug: 'videos', title: 'Videos' },
] as const;

const KIND_TO_PROTO: Record<AssetKind, cms.AssetKind> = {
  music: cms.AssetKind.ASSET_KIND_MUSIC,
  video: cms.AssetKind.ASSET_KIND_VIDEO,
};
const STATUS_TO_PROTO: Record<AssetStatus, cms.AssetStatus> = {
  pending: cms.AssetStatus.ASSET_STATUS_PENDING,
  published: cms.AssetStatus.ASSET_STATUS_PUBLISHED,
  rejected: cms.AssetStatus.ASSET_STATUS_REJECTED,
};

export function kindFromProto(kind: cms.AssetKind): AssetKind | undefined {
  if (kind === cms.AssetKind.ASSET_KIND_MUSIC) return 'music';
  if (kind === cms.AssetKind.ASSET_KIND_VIDEO) return 'video';
  return undefined;
}

export function assetToProto(asset: AssetDoc, page: PageDoc | undefined): cms.Asset {
  return {
    id: asset._id,
    pageId: asset.pageId,
    pageTitle: page?.title ?? '',
    kind: KIND_TO_PROTO[asset.kind],
    status: STATUS_TO_PROTO[asset.status],
    title: asset.title,
    description: asset.description,
    publishedAt: asset.publishedAt ?? '',
    createdAt: asset.createdAt,
    rejectionReason: asset.metadata.rejection_reason ?? '',
    fileKey: asset.fileKey,
  };
}

export const pageToProto = (page: PageDoc): cms.Page => ({
  id: page._id,
  slug: page.slug,
  title: page.title,
});
