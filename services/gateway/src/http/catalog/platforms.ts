// GET /api/platforms (public): the distribution platforms in the spec's order and the preselected ones.
// Catalog defines them; the list never changes while a process runs, so it is fetched once.
import type { PromiseClient } from '@omni/platform';
import type { catalog } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';

export function platformRoutes(client: PromiseClient<typeof catalog.CatalogServiceService>): Router {
  const router = createRouter();
  let cached: Promise<catalog.ListPlatformsResponse> | undefined;
  router.get('/', async (_req, res) => {
    cached ??= client.listPlatforms({}).catch((err) => {
      cached = undefined; // a failed fetch is retried by the next request
      throw err;
    });
    const { platforms, preselected } = await cached;
    res
      .set('Cache-Control', 'public, max-age=3600')
      .json({ platforms: platforms.map((p) => ({ key: p.key, name: p.name })), preselected });
  });
  return router;
}
