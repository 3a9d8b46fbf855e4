import { Button, Spinner, serverMessage, useDocumentTitle, useSession } from '@omni/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AnalyticsFiltersCard } from '../components/analytics/analytics-filters';
import { EarningsFeed, TrendsFeed } from '../components/analytics/feeds';
import { PageFrame } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import {
  type AnalyticsFilters,
  analyticsQuery,
  fetchAnalytics,
  filtersFrom,
  retryAnalytics,
} from '../lib/analytics-api';

function Analytics() {
  const { session } = useSession();
  // The filters are kept in the address too, so a view can be bookmarked and shared; the page's state is
  // what counts while it is open (two quick changes both apply, whenever the address catches up).
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<AnalyticsFilters>(() => filtersFrom(params));
  const query = analyticsQuery(filters);
  useEffect(() => {
    if (`?${params}` === query || (query === '' && params.size === 0)) return;
    setParams(new URLSearchParams(query), { replace: true });
  }, [query, params, setParams]);
  const analytics = useQuery({
    queryKey: ['analytics', session?.user.id, filters],
    queryFn: () => fetchAnalytics(filters),
    enabled: !!session,
    retry: retryAnalytics,
    // Changing a filter keeps the figures on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (analytics.error) console.error('Analytics failed to load', analytics.error);
  }, [analytics.error]);

  const data = analytics.data;
  const fileSuffix = [filters.from, filters.to].filter(Boolean).join('-to-');
  const updating = analytics.isPlaceholderData;

  return (
    <>
      <AnalyticsFiltersCard
        filters={filters}
        options={data?.filters}
        onChange={setFilters}
        busy={analytics.isFetching}
      />
      {analytics.isPending ? (
        <Spinner label="Loading your analytics…" />
      ) : analytics.error && !data ? (
        <div role="alert" className="space-y-3 rounded-lg border border-destructive/40 bg-card p-6">
          <p className="font-medium text-destructive">Your analytics could not be loaded.</p>
          <p className="text-sm text-muted-foreground">
            {serverMessage(analytics.error) ?? 'Something went wrong on our side.'} Try again in a moment.
          </p>
          <Button variant="outline" onClick={() => void analytics.refetch()}>
            Try again
          </Button>
        </div>
      ) : data ? (
        <div
          className={updating ? 'space-y-10 opacity-60 transition-opacity' : 'space-y-10'}
          aria-busy={updating}
        >
          {updating ? <Spinner label="Updating…" className="text-sm" /> : null}
          <EarningsFeed
            earnings={data.earnings}
            noStatements={data.filters.months.length === 0}
            filtered={Object.keys(filters).length > 0}
            fileSuffix={fileSuffix}
          />
          <TrendsFeed trends={data.trends} fileSuffix={fileSuffix} />
        </div>
      ) : null}
    </>
  );
}

/** /app/analytics: streams and earnings by month, store, territory, release and track, in two feeds. */
export default function AnalyticsPage() {
  useDocumentTitle('Analytics');
  return (
    <RequireSession>
      <PageFrame>
        <div>
          <Link
            to="/app"
            className="inline-flex items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Dashboard
          </Link>
          <h1 className="mt-2 text-3xl font-bold tracking-tight">Analytics</h1>
          <p className="mt-2 max-w-3xl text-muted-foreground">
            Two feeds, kept apart: <strong className="font-medium text-foreground">final earnings</strong>{' '}
            from store statements, by sale month, and{' '}
            <strong className="font-medium text-foreground">estimated daily streams</strong> from store trend
            reports. They differ: estimates arrive within days; statements come months later and are final,
            after returns, free trials and promotions.
          </p>
        </div>
        <Analytics />
      </PageFrame>
    </RequireSession>
  );
}
