// Public, anonymous reads: the pages and their published assets, as the Music and Videos pages show them.
import {
  type HttpFastPath,
  type PromiseClient,
  parseParams,
  parseQuery,
  type ReadyResponse,
} from '@omni/platform';
import { cms } from '@omni/proto';
import { publicAssetsQuery } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';
import { assetJson, pageJson } from './json';
import type { CachedResponse, PublicCache } from './public-cache';

const slugParams = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a page slug is lowercase letters, digits and dashes'),
});
const mediaParams = z.object({ id: z.string().min(1).max(100) });

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
    const { limit = 100, cursor = '' } = parseQuery(publicAssetsQuery, req);
    // Later pages are cached too (cleared with the rest on every moderation), keyed by their cursor.
    const key = cursor ? `${slug}:${limit}:${cursor}` : `${slug}:${limit}`;
    let entry = cache.get(key);
    if (!entry) {
      const out = await client.listPublishedAssets({ pageSlug: slug, limit, cursor });
      entry = cache.set(
        key,
        JSON.stringify({
          page: out.page ? pageJson(out.page) : null,
          assets: out.assets.map(assetJson),
          nextCursor: out.nextCursor || null,
        }),
      );
    }
    // The same answer the fast path gives for this entry once cached (one place decides it).
    const ready = answerFor(entry, req.headers['if-none-match']);
    res.status(ready.status).set(ready.headers).end(ready.body);
  });
  // Plays a published asset: a redirect to a short-lived signed URL (the object store answers Range
  // requests with 206). The list above stays cacheable because it holds this stable path, not the URL.
  router.get('/assets/:id/media', async (req, res) => {
    const { id } = parseParams(mediaParams, req);
    const { url } = await client.getAssetMedia({ assetId: id, anyStatus: false });
    res.set('Cache-Control', 'private, max-age=60').redirect(302, url);
  });
  return router;
}

const CACHE_CONTROL = 'public, max-age=5';

// Only the plain forms of the URL above; anything else (other parameters, leading zeros, escapes) goes to
// the Express route, which validates it.
const CACHED_ASSETS_URL = /^\/api\/pages\/([a-z0-9][a-z0-9-]{0,63})\/assets(?:\?limit=([1-9][0-9]{0,2}))?$/;

// Built once per cache entry (and dropped with it), so the same objects are handed out every time.
const answers = new WeakMap<CachedResponse, { ok: ReadyResponse; notModified: ReadyResponse }>();

/** The answer to a read of a cached page: 304 when the client holds this version, else the page. */
function answerFor(entry: CachedResponse, ifNoneMatch: string | undefined): ReadyResponse {
  let ready = answers.get(entry);
  if (!ready) {
    const validators = { 'Cache-Control': CACHE_CONTROL, ETag: entry.etag };
    ready = {
      ok: {
        status: 200,
        headers: {
          ...validators,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': entry.bytes.length,
        },
        body: entry.bytes,
      },
      notModified: { status: 304, headers: validators },
    };
    answers.set(entry, ready);
  }
  return ifNoneMatch === entry.etag ? ready.notModified : ready.ok;
}

/**
 * The same answer as GET /api/pages/:slug/assets once it is cached, written before Express (the Music
 * and Videos pages are the platform's most read URLs). A miss falls through to the route, which fills
 * the cache.
 */
export function cachedAssetsFastPath(cache: PublicCache): HttpFastPath {
  return (req) => {
    const match = CACHED_ASSETS_URL.exec(req.url ?? '');
    if (!match) return undefined;
    const limit = match[2] === undefined ? 100 : Number(match[2]);
    if (limit > 200) return undefined;
    const entry = cache.get(`${match[1]}:${limit}`);
    return entry ? answerFor(entry, req.headers['if-none-match']) : undefined;
  };
}
