// OMNI CMS admin API (cms-design.md). Every route needs the admin role (the spec shows no check; we add
// one): anonymous callers get 401, signed-in non-admins 403.
import { type Guards, type PromiseClient, parseBody, parseParams, parseQuery } from '@omni/platform';
import { cms, storage } from '@omni/proto';
import {
  adminSignBody,
  adminUploadBody,
  assetsQuery,
  createLinkBody,
  idParams,
  linksQuery,
  rejectBody,
} from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import { assetJson, linkJson, pageJson } from './json';

const STATUS = {
  pending: cms.AssetStatus.ASSET_STATUS_PENDING,
  published: cms.AssetStatus.ASSET_STATUS_PUBLISHED,
  rejected: cms.AssetStatus.ASSET_STATUS_REJECTED,
} as const;

export interface AdminDeps {
  cms: PromiseClient<typeof cms.CmsServiceService>;
  storage: PromiseClient<typeof storage.StorageServiceService>;
  guards: Guards;
  /** Where the web app is served: contributor links are absolute URLs on it. */
  publicUrl: string;
  /** Called after a publish or reject went through, so public caches show the change at once. */
  onModerated?: () => void;
}

export function adminRoutes({
  cms: client,
  storage: storageClient,
  guards,
  publicUrl,
  onModerated,
}: AdminDeps): Router {
  const moderated = onModerated ?? (() => undefined);
  const router = createRouter();
  router.use(guards.requireAdmin);
  // Nothing here is for a shared cache: every answer is one admin's view.
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/pages', async (_req, res) => {
    const { pages } = await client.listPages({});
    res.json({ pages: pages.map(pageJson) });
  });

  router.post('/uploads-sign', async (req, res) => {
    const body = parseBody(adminSignBody, req, { first: true });
    const signed = await storageClient.signUpload({
      ownerId: req.principal!.userId,
      bucket: 'cms-assets',
      fileName: body.fileName,
      contentType: body.contentType,
      size: body.size,
      purpose: storage.UploadPurpose.UPLOAD_PURPOSE_CMS_ADMIN,
      folder: '',
      title: '',
      pathOwner: '',
    });
    res.json({
      signedUrl: signed.signedUrl,
      fileKey: signed.fileKey,
      bucket: signed.bucket,
      headers: signed.headers,
    });
  });

  router.post('/uploads', async (req, res) => {
    const body = parseBody(adminUploadBody, req, { first: true });
    const { asset } = await client.createAsset(
      {
        pageSlug: body.pageSlug,
        kind: body.kind === 'music' ? cms.AssetKind.ASSET_KIND_MUSIC : cms.AssetKind.ASSET_KIND_VIDEO,
        title: body.title,
        description: body.description,
        fileKey: body.fileKey,
        submittedBy: req.principal!.userId,
      },
      { deadlineMs: 65_000 },
    );
    moderated();
    res.status(201).json({ status: 'published', asset: assetJson(asset!) });
  });

  router.get('/assets', async (req, res) => {
    const query = parseQuery(assetsQuery, req);
    const out = await client.listAssets({
      status: STATUS[query.status],
      limit: query.limit,
      cursor: query.cursor,
    });
    res.json({
      assets: out.assets.map(assetJson),
      nextCursor: out.nextCursor || null,
      counts: out.counts ?? { pending: 0, published: 0, rejected: 0 },
    });
  });

  router.post('/assets/:id/publish', async (req, res) => {
    const { id } = parseParams(idParams, req);
    const { asset } = await client.publishAsset({ assetId: id, actorId: req.principal!.userId });
    moderated();
    res.json({ asset: assetJson(asset!) });
  });

  router.post('/assets/:id/reject', async (req, res) => {
    const { id } = parseParams(idParams, req);
    const { reason } = parseBody(rejectBody, req, { first: true });
    const { asset } = await client.rejectAsset({ assetId: id, reason, actorId: req.principal!.userId });
    moderated();
    res.json({ asset: assetJson(asset!) });
  });

  router.get('/assets/:id/media', async (req, res) => {
    const { id } = parseParams(idParams, req);
    const { url } = await client.getAssetMedia({ assetId: id, anyStatus: true });
    // A media element cannot send the admin's bearer, so the moderation screen asks for the signed URL
    // as JSON (with its bearer) and lets <audio>/<video> stream from it with range requests.
    if (req.headers.accept?.split(',')[0]?.trim() === 'application/json') {
      res.json({ url });
      return;
    }
    res.redirect(302, url);
  });

  router.post('/upload-links', async (req, res) => {
    const body = parseBody(createLinkBody, req, { first: true });
    const { link, token } = await client.createUploadLink({ ...body, createdBy: req.principal!.userId });
    const uploadUrl = `${publicUrl.replace(/\/+$/, '')}/upload?token=${encodeURIComponent(token)}`;
    res.status(201).json({ uploadUrl, link: linkJson(link!) });
  });

  router.get('/upload-links', async (req, res) => {
    const query = parseQuery(linksQuery, req);
    const out = await client.listUploadLinks({ limit: query.limit, cursor: query.cursor });
    res.json({ links: out.links.map(linkJson), nextCursor: out.nextCursor || null });
  });

  router.post('/upload-links/:id/revoke', async (req, res) => {
    const { id } = parseParams(idParams, req);
    const { link } = await client.revokeUploadLink({ linkId: id, actorId: req.principal!.userId });
    res.json({ link: linkJson(link!) });
  });

  return router;
}
