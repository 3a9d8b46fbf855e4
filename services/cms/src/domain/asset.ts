// Assets on public pages and their moderation states: pending → published (approve) or rejected (reject).
// An admin's own upload is published at once; a contributor's submission waits in moderation.
import type { Doc } from '@omni/platform';
import { cms } from '@omni/proto';
import { PAGE_TAKES } from '@omni/proto/api';

/** music | video on the public pages; contributors may also send images and documents (sniffed kind). */
export type AssetKind = 'music' | 'video' | 'image' | 'document';
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
  /** Where the file is in storage; assets made before buckets were recorded are in 'cms-assets'. */
  bucket?: string;
  fileKey: string;
  submittedBy: string;
  /** The upload link a contributor's submission came through. */
  linkId?: string;
  createdAt: string;
  publishedAt: string | null;
  metadata: { rejection_reason?: string; artist?: string; code?: string };
}

/** What a new asset is made of; its id, dates and status are given by the repository. */
export type NewAssetFields = Omit<
  AssetDoc,
  '_id' | 'createdAt' | 'publishedAt' | 'status' | 'metadata' | 'pageId'
> & {
  metadata?: AssetDoc['metadata'];
};

/** The pages every installation has (spec: the public Music and Videos pages). */
export const SEED_PAGES = [
  { slug: 'music', title: 'Music' },
  { slug: 'videos', title: 'Videos' },
] as const;

/** What the public Music and Videos pages show (design: /music kind music, /videos kind video). */
export const PAGE_KIND: Readonly<Record<string, AssetKind>> = PAGE_TAKES;

/** The bucket admin uploads go to. */
export const CMS_BUCKET = 'cms-assets';

const KIND_TO_PROTO: Record<AssetKind, cms.AssetKind> = {
  music: cms.AssetKind.ASSET_KIND_MUSIC,
  video: cms.AssetKind.ASSET_KIND_VIDEO,
  image: cms.AssetKind.ASSET_KIND_IMAGE,
  document: cms.AssetKind.ASSET_KIND_DOCUMENT,
};
export const STATUS_TO_PROTO: Record<AssetStatus, cms.AssetStatus> = {
  pending: cms.AssetStatus.ASSET_STATUS_PENDING,
  published: cms.AssetStatus.ASSET_STATUS_PUBLISHED,
  rejected: cms.AssetStatus.ASSET_STATUS_REJECTED,
};

export function kindFromProto(kind: cms.AssetKind): 'music' | 'video' | undefined {
  if (kind === cms.AssetKind.ASSET_KIND_MUSIC) return 'music';
  if (kind === cms.AssetKind.ASSET_KIND_VIDEO) return 'video';
  return undefined;
}

export function statusFromProto(status: cms.AssetStatus): AssetStatus | undefined {
  return (Object.keys(STATUS_TO_PROTO) as AssetStatus[]).find((s) => STATUS_TO_PROTO[s] === status);
}

/** The asset kind of a file from storage's sniffed kind (design: audio→music, video→video, ...). */
export function kindOfSniffed(sniffed: string): AssetKind {
  if (sniffed === 'audio') return 'music';
  if (sniffed === 'video') return 'video';
  if (sniffed === 'image') return 'image';
  return 'document';
}

export function assetToProto(asset: AssetDoc, page: PageDoc | undefined | null): cms.Asset {
  return {
    id: asset._id,
    pageId: asset.pageId,
    pageTitle: page?.title ?? '',
    pageSlug: page?.slug ?? '',
    kind: KIND_TO_PROTO[asset.kind],
    status: STATUS_TO_PROTO[asset.status],
    title: asset.title,
    description: asset.description,
    publishedAt: asset.publishedAt ?? '',
    createdAt: asset.createdAt,
    rejectionReason: asset.metadata.rejection_reason ?? '',
    fileKey: asset.fileKey,
    bucket: asset.bucket ?? CMS_BUCKET,
    artist: asset.metadata.artist ?? '',
    code: asset.metadata.code ?? '',
  };
}

export const pageToProto = (page: PageDoc): cms.Page => ({
  id: page._id,
  slug: page.slug,
  title: page.title,
});
