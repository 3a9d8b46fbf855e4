import { apiFetch } from '@omni/ui';
import { z } from 'zod';

/** Slugs of the public CMS pages, and what each lists. */
export type PublicPageSlug = 'music' | 'videos';

const assetSchema = z.object({
  id: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  kind: z.enum(['music', 'video']),
  publishedAt: z.string().nullish(),
});

const responseSchema = z.object({
  page: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
  assets: z.array(assetSchema),
});

export type PublicAsset = z.infer<typeof assetSchema>;
export type PublicAssetsResponse = z.infer<typeof responseSchema>;

export const publicAssetsQueryKey = (slug: PublicPageSlug) => ['public-page-assets', slug] as const;

/** GET /api/pages/{slug}/assets: the page and its published assets, newest first (server order kept). */
export async function fetchPublicAssets(
  slug: PublicPageSlug,
  signal?: AbortSignal,
): Promise<PublicAssetsResponse> {
  const body = await apiFetch<unknown>(`/api/pages/${slug}/assets`, signal ? { signal } : {});
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) throw new Error('The server sent an unexpected answer. Please try again later.');
  return parsed.data;
}
