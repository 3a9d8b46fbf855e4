// CmsService over gRPC. Inputs are validated here (the gateway validates too, but every service defends
// its own boundary); messages are written for the person who will read them in a toast.
import {
  failedPrecondition,
  invalidArgument,
  notFoundError,
  type Outbox,
  type UnaryImpl,
} from '@omni/platform';
import { cms } from '@omni/proto';
import { z } from 'zod';
import { type AssetDoc, assetToProto, kindFromProto, type PageDoc, pageToProto } from '../domain/asset';
import type { AssetsRepository } from '../store/assets';
import type { PagesRepository } from '../store/pages';
import { approveAsset, rejectAsset } from '../use-cases/moderate-asset';

const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Page slug must be lowercase letters, digits and dashes.');
const id = z.string().min(1, 'An asset id is required.').max(100);

export function cmsHandlers(deps: {
  pages: PagesRepository;
  assets: AssetsRepository;
  outbox: Outbox;
}): UnaryImpl<typeof cms.CmsServiceService> {
  const { pages, assets, outbox } = deps;

  const pageOrThrow = async (pageSlug: string) => {
    const page = await pages.bySlug(slug.parse(pageSlug));
    if (!page) throw notFoundError(`There is no page called '${pageSlug}'.`);
    return page;
  };

  const existing = async (assetId: string): Promise<AssetDoc> => {
    const asset = await assets.byId(id.parse(assetId));
    if (!asset) throw notFoundError('That asset does not exist.');
    return asset;
  };

  const withPage = async (asset: AssetDoc) =>
    assetToProto(asset, (await pages.byId(asset.pageId)) ?? undefined);

  return {
    async listPages() {
      return { pages: (await pages.all()).map(pageToProto) };
    },

    async listPublishedAssets(req) {
      const page = await pageOrThrow(req.pageSlug);
      const limit = req.limit > 0 ? Math.min(req.limit, 200) : 100;
      const list = await assets.published(page._id, limit);
      return { page: pageToProto(page), assets: list.map((a) => assetToProto(a, page)) };
    },

    async createAsset(req) {
      const page: PageDoc = await pageOrThrow(req.pageSlug);
      const kind = kindFromProto(req.kind);
      if (!kind) throw invalidArgument('Choose whether the asset is music or video.');
      const title = req.title.trim();
      if (!title) throw invalidArgument('Please fill all required fields');
      const asset = await assets.create({
        pageId: page._id,
        kind,
        title: title.slice(0, 200),
        description: req.description.trim().slice(0, 5000),
        fileKey: req.fileKey,
        submittedBy: req.submittedBy,
      });
      return { asset: assetToProto(asset, page) };
    },

    async publishAsset(req) {
      const before = await existing(req.assetId);
      const page = await pages.byId(before.pageId);
      const published = await approveAsset({ assets, outbox }, before, page, req.actorId);
      if (!published)
        throw failedPrecondition(`This asset is already ${(await existing(before._id)).status}.`);
      return { asset: await withPage(published) };
    },

    async rejectAsset(req) {
      const reason = req.reason.trim();
      if (!reason) throw invalidArgument('Please give a reason for the rejection.');
      const before = await existing(req.assetId);
      const rejected = await rejectAsset({ assets, outbox }, before, reason.slice(0, 2000), req.actorId);
      if (!rejected)
        throw failedPrecondition(`This asset is already ${(await existing(before._id)).status}.`);
      return { asset: await withPage(rejected) };
    },
  };
}
