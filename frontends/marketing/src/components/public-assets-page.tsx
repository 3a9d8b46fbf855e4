import { Button, Spinner, useDocumentTitle } from '@omni/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { AlertCircle } from 'lucide-react';
import { fetchPublicAssets, type PublicPageSlug, publicAssetsQueryKey } from '../lib/public-assets';
import { AssetCard } from './asset-card';
import { SiteLayout } from './site-layout';

const PAGE_TEXT: Record<PublicPageSlug, { title: string; empty: string }> = {
  music: { title: 'Music', empty: 'No music available yet' },
  videos: { title: 'Videos', empty: 'No videos available yet' },
};

/**
 * /music and /videos: the published assets of the CMS page with that slug, as a grid of cards that play
 * them, one page at a time ('Load more' fetches the next page by the cursor the last one ended with).
 */
export function PublicAssetsPage({ slug }: { slug: PublicPageSlug }) {
  const text = PAGE_TEXT[slug];
  const query = useInfiniteQuery({
    queryKey: publicAssetsQueryKey(slug),
    queryFn: ({ pageParam, signal }) => fetchPublicAssets(slug, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const title = query.data?.pages[0]?.page?.title || text.title;
  useDocumentTitle(title);
  const assets = query.data?.pages.flatMap((page) => page.assets) ?? [];

  return (
    <SiteLayout>
      <section aria-labelledby="page-title" className="container py-12" aria-busy={query.isPending}>
        <h1 id="page-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          {title}
        </h1>
        <div className="mt-8">
          {query.isPending ? (
            <Spinner label={`Loading ${text.title.toLowerCase()}…`} />
          ) : query.isError && assets.length === 0 ? (
            <div
              role="alert"
              className="flex flex-col items-start gap-4 rounded-lg border border-destructive/40 bg-destructive/5 p-6"
            >
              <div className="flex items-center gap-2 font-medium text-destructive">
                <AlertCircle className="h-5 w-5" aria-hidden="true" />
                Couldn’t load {text.title.toLowerCase()}
              </div>
              <p className="text-sm text-muted-foreground">{query.error.message}</p>
              <Button variant="outline" onClick={() => query.refetch()} disabled={query.isFetching}>
                {query.isFetching ? 'Retrying…' : 'Try again'}
              </Button>
            </div>
          ) : assets.length === 0 ? (
            <p className="rounded-lg border border-dashed p-10 text-center text-muted-foreground">
              {text.empty}
            </p>
          ) : (
            <>
              <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label={title}>
                {assets.map((asset) => (
                  <li key={asset.id}>
                    <AssetCard asset={asset} />
                  </li>
                ))}
              </ul>
              {query.isFetchNextPageError ? (
                <p role="alert" className="mt-6 text-center text-sm text-destructive">
                  Couldn’t load more: {query.error?.message}
                </p>
              ) : null}
              {query.hasNextPage ? (
                <div className="mt-8 flex justify-center">
                  <Button
                    variant="outline"
                    onClick={() => query.fetchNextPage()}
                    disabled={query.isFetchingNextPage}
                  >
                    {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </div>
      </section>
    </SiteLayout>
  );
}
