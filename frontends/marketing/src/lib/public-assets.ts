import { type CmsAsset, type PublicAssetList, publicAssetListSchema } from '@omni/proto/api';
import { apiFetch } from '@omni/ui';

/** Slugs of the public CMS pages, and what each lists. */
export type PublicPageSlug = 'music' | 'videos';

export type PublicAsset = CmsAsset;
export type PublicAssetsPage = PublicAssetList;

/** Cards per request: the page's first screenful and each 'Load more'. */
export const PAGE_SIZE = 24;

export const publicAssetsQueryKey = (slug: PublicPageSlug) => ['public-page-assets', slug] as const;

/**
 * GET /api/pages/{slug}/assets: the page and one page of its published assets, newest first (server order
 * kept), with the cursor of the next page or null. The first page's URL is the plain one the gateway
 * answers from its cache.
 */
export async function fetchPublicAssets(
  slug: PublicPageSlug,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PublicAssetsPage> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  const body = await apiFetch<unknown>(`/api/pages/${slug}/assets?${query}`, signal ? { signal } : {}, {
    auth: false,
  });
  const parsed = publicAssetListSchema.safeParse(body);
  if (!parsed.success) throw new Error('The server sent an unexpected answer. Please try again later.');
  return parsed.data;
}
