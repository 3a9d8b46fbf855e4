// Public, anonymous reads: the pages and their published assets, as the Music and Videos pages show them.
import { type PromiseClient, parseParams, parseQuery } from '@omni/platform';
import { cms } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import type { PublicCache } from '../cache/public-cache';
import { assetJson, pageJson } from './json';

const slugParams = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a page slug is lowercase letters, digits and dashes'),
});
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).optional() }).strict();

export function publicRoutes(
  client: PromiseClient<typeof cms.CmsServiceService>,
  cache: PublicCache,
): Router {
  const router = createRouter();
  router.get('/pages', async (_req, res) => {
    const { pages } = await client.listPages({});
    res.json({ pages: pages.map(pageJson) });
  });
  router.get('/pages/:slug/assets', async (req, res) => {
    const { slug } = parseParams(slugParams, req);
    const { limit = 100 } = parseQuery(listQuery, req);
    const key = `${slug}:${limit}`;
    let entry = cache.get(key);
    if (!entry) {
      const out = await client.listPublishedAssets({ pageSlug: slug, limit });
      entry = cache.set(
        key,
        JSON.stringify({ page: out.page ? pageJson(out.page) : null, assets: out.assets.map(assetJson) }),
      );
    }
    res.set({ 'Cache-Control': 'public, max-age=5', ETag: entry.etag });
    if (req.headers['if-none-match'] === entry.etag) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(entry.body);
  });
  return router;
}
