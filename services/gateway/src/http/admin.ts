// OMNI CMS moderation API. Every route needs the admin role (the spec shows no check; we add one).
import { type Guards, type PromiseClient, parseBody, parseParams } from '@omni/platform';
import { cms } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import { assetJson } from './json';

const createBody = z
  .object({
    pageSlug: z.string().min(1, 'Please fill all required fields'),
    kind: z.enum(['music', 'video']),
    title: z.string().trim().min(1, 'Please fill all required fields').max(200),
    description: z.string().max(5000).optional().default(''),
    fileKey: z.string().max(1024).optional().default(''),
  })
  .strict();
const idParams = z.object({ id: z.string().min(1).max(100) });
const rejectBody = z.object({
  reason: z.string().trim().min(1, 'Please give a reason for the rejection.').max(2000),
});

export function adminRoutes(
  client: PromiseClient<typeof cms.CmsServiceService>,
  guards: Guards,
  /** Called after a publish or reject went through, so public caches show the change at once. */
  onModerated: () => void = () => undefined,
): Router {
  const router = createRouter();
  router.use(guards.requireAdmin);
  router.post('/assets', async (req, res) => {
    const body = parseBody(createBody, req);
    const { asset } = await client.createAsset({
      pageSlug: body.pageSlug,
      kind: body.kind === 'music' ? cms.AssetKind.ASSET_KIND_MUSIC : cms.AssetKind.ASSET_KIND_VIDEO,
      title: body.title,
      description: body.description,
      fileKey: body.fileKey,
      submittedBy: req.principal!.userId,
    });
    res.status(201).json({ asset: assetJson(asset!), status: 'pending' });
  });
  router.post('/assets/:id/publish', async (req, res) => {
    const { id } = parseParams(idParams, req);
    const { asset } = await client.publishAsset({ assetId: id, actorId: req.principal!.userId });
    onModerated();
    res.json({ asset: assetJson(asset!) });
  });
  router.post('/assets/:id/reject', async (req, res) => {
    const { id } = parseParams(idParams, req);
    const { reason } = parseBody(rejectBody, req);
    const { asset } = await client.rejectAsset({ assetId: id, reason, actorId: req.principal!.userId });
    onModerated();
    res.json({ asset: assetJson(asset!) });
  });
  return router;
}
