// CmsService over gRPC: adapts each request to its use case and each answer to the contract. Inputs are
// validated here too (the gateway validates first, but every service defends its own boundary); messages
// are written for the person who will read them in a toast.
import { fail, invalidArgument, notFoundError, type UnaryImpl } from '@omni/platform';
import type { cms } from '@omni/proto';
import { z } from 'zod';
import {
  type AssetDoc,
  assetToProto,
  kindFromProto,
  PAGE_KIND,
  type PageDoc,
  pageToProto,
  statusFromProto,
} from '../domain/asset';
import { type Cursor, decodeCursor, encodeCursor } from '../domain/cursor';
import { linkToProto, type UploadLinkDoc } from '../domain/upload-link';
import { publishAdminUpload } from '../use-cases/admin-upload';
import { assetMediaUrl } from '../use-cases/asset-media';
import type { CmsContext } from '../use-cases/context';
import {
  signContributorUpload,
  submitContributorUpload,
  submitRelease,
} from '../use-cases/contributor-submit';
import { approveAsset, rejectAsset } from '../use-cases/moderate-asset';
import { createLink, usableLink } from '../use-cases/upload-links';

const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Page slug must be lowercase letters, digits and dashes.');
const id = z.string().min(1, 'An asset id is required.').max(100);

const ALREADY_MODERATED = 'This asset was already moderated.';

function cursorOf(raw: string): Cursor | undefined {
  const cursor = decodeCursor(raw);
  if (cursor === null) throw invalidArgument('This page cursor is not valid; start from the first page.');
  return cursor;
}

const limitOf = (limit: number, fallback: number, max: number) =>
  limit > 0 ? Math.min(limit, max) : fallback;

/**
 * One page out of `fetched`, read with a limit of `limit + 1`: the extra row only says that a next page
 * exists. (A cursor on every full page offered 'Load more' on a list of exactly one page, and it loaded
 * nothing.)
 */
function pageOf<T extends { _id: string }>(fetched: T[], limit: number, at: (item: T) => string) {
  const items = fetched.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    nextCursor: fetched.length > limit && last ? encodeCursor({ at: at(last), id: last._id }) : '',
  };
}

export function cmsHandlers(ctx: CmsContext): UnaryImpl<typeof cms.CmsServiceService> {
  const { pages, assets, links, outbox } = ctx;

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

  // Pages are few and never change at run time: one read per call covers every row.
  const pagesById = async () => new Map((await pages.all()).map((p) => [p._id, p] as const));

  const withPage = async (asset: AssetDoc) => assetToProto(asset, await pages.byId(asset.pageId));
  const linkWithPage = async (link: UploadLinkDoc) =>
    linkToProto(link, await pages.byId(link.pageId), ctx.now());

  return {
    async listPages() {
      return { pages: (await pages.all()).map(pageToProto) };
    },

    async listPublishedAssets(req) {
      const page = await pageOrThrow(req.pageSlug);
      const limit = limitOf(req.limit, 100, 200);
      const fetched = await assets.published(page._id, PAGE_KIND[page.slug], limit + 1, cursorOf(req.cursor));
      const { items, nextCursor } = pageOf(fetched, limit, (a) => a.publishedAt ?? '');
      return { page: pageToProto(page), assets: items.map((a) => assetToProto(a, page)), nextCursor };
    },

    async createAsset(req) {
      const kind = kindFromProto(req.kind);
      if (!kind) throw invalidArgument('Choose whether the asset is music or video.');
      const { asset, page } = await publishAdminUpload(ctx, {
        pageSlug: req.pageSlug,
        kind,
        title: req.title,
        description: req.description,
        fileKey: req.fileKey,
        adminId: req.submittedBy,
      });
      return { asset: assetToProto(asset, page) };
    },

    async listAssets(req) {
      const status = statusFromProto(req.status);
      if (!status) throw invalidArgument('status must be pending, published or rejected.');
      const limit = limitOf(req.limit, 25, 100);
      const [fetched, counts, byId] = await Promise.all([
        assets.byStatus(status, limit + 1, cursorOf(req.cursor)),
        assets.counts(),
        pagesById(),
      ]);
      const field = status === 'published' ? 'publishedAt' : 'createdAt';
      const { items, nextCursor } = pageOf(fetched, limit, (a) => String(a[field] ?? ''));
      return { assets: items.map((a) => assetToProto(a, byId.get(a.pageId))), nextCursor, counts };
    },

    async publishAsset(req) {
      const before = await existing(req.assetId);
      const page: PageDoc | null = await pages.byId(before.pageId);
      const published = await approveAsset({ assets, outbox }, before, page, req.actorId);
      if (!published) throw fail('already_moderated', ALREADY_MODERATED);
      return { asset: await withPage(published) };
    },

    async rejectAsset(req) {
      const reason = req.reason.trim();
      if (!reason) throw invalidArgument('Please give a reason for the rejection.');
      const before = await existing(req.assetId);
      const rejected = await rejectAsset({ assets, outbox }, before, reason.slice(0, 2000), req.actorId);
      if (!rejected) throw fail('already_moderated', ALREADY_MODERATED);
      return { asset: await withPage(rejected) };
    },

    async getAssetMedia(req) {
      return { url: await assetMediaUrl(ctx, req.assetId, req.anyStatus) };
    },

    async createUploadLink(req) {
      const { link, page, token } = await createLink(ctx, req);
      return { link: linkToProto(link, page, ctx.now()), token };
    },

    async listUploadLinks(req) {
      const limit = limitOf(req.limit, 50, 200);
      const [fetched, byId] = await Promise.all([links.list(limit + 1, cursorOf(req.cursor)), pagesById()]);
      const now = ctx.now();
      const { items, nextCursor } = pageOf(fetched, limit, (l) => l.createdAt);
      return { links: items.map((l) => linkToProto(l, byId.get(l.pageId), now)), nextCursor };
    },

    async revokeUploadLink(req) {
      const linkId = z.string().min(1).max(100).parse(req.linkId);
      const revoked = await links.revoke(linkId);
      if (revoked) return { link: await linkWithPage(revoked) };
      const link = await links.byId(linkId);
      if (!link) throw notFoundError('That upload link does not exist.');
      // Revoking twice is what the admin wanted anyway: answer with the link as it is.
      return { link: await linkWithPage(link) };
    },

    async resolveUploadLink(req) {
      return { link: await linkWithPage(await usableLink(ctx, req.token)) };
    },

    signContributorUpload: (req) => signContributorUpload(ctx, req),

    async submitContributorUpload(req) {
      const { files } = await submitContributorUpload(ctx, req);
      const submitted = await Promise.all(
        files.map(async (f) => ({ asset: await withPage(f.asset), path: f.path, url: f.url })),
      );
      const first = submitted[0]!;
      return { asset: first.asset, path: first.path, url: first.url, files: submitted };
    },

    async submitRelease(req) {
      const { asset, code, path } = await submitRelease(ctx, req);
      return { asset: await withPage(asset), code, path };
    },
  };
}
