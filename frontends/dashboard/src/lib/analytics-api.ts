// GET /api/analytics: the two feeds of /app/analytics (final earnings from statements, estimated daily
// streams from trend reports) and what its filters may be set to, parsed with the API contract.
import { type Analytics, analytics } from '@omni/proto/api';
import { ApiError, apiFetch } from '@omni/ui';

export type { Analytics };

export const FILTER_KEYS = ['from', 'to', 'store', 'territory', 'release', 'track'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
/** The filters set (an absent key is "all"); `from` and `to` are YYYY-MM sale months. */
export type AnalyticsFilters = Partial<Record<FilterKey, string>>;

/**
 * The filters with one changed. A month range the wrong way round is turned round; choosing a release
 * lets go of a track of another release.
 */
export function withFilter(
  current: AnalyticsFilters,
  key: FilterKey,
  value: string | undefined,
  tracks: Analytics['filters']['tracks'],
): AnalyticsFilters {
  const next: AnalyticsFilters = { ...current, [key]: value };
  if (!value) delete next[key];
  if (next.from && next.to && next.from > next.to) [next.from, next.to] = [next.to, next.from];
  if (key === 'release' && value && next.track) {
    const track = tracks.find((t) => t.key === next.track);
    if (track && track.release !== value) delete next.track;
  }
  return next;
}

/** The filters as they sit in the page's address (?from=2026-01&store=spotify). */
export function filtersFrom(params: URLSearchParams): AnalyticsFilters {
  const filters: AnalyticsFilters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/** "?from=2026-01&to=2026-10" (keys in a fixed order, so equal filters make equal requests), or "". */
export function analyticsQuery(filters: AnalyticsFilters): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** An answer that is not the contract's: asking again will not change it, so it is not retried. */
export class ContractError extends Error {
  override name = 'ContractError';
}

export async function fetchAnalytics(filters: AnalyticsFilters): Promise<Analytics> {
  const parsed = analytics.safeParse(await apiFetch(`/api/analytics${analyticsQuery(filters)}`));
  if (!parsed.success) {
    console.error('GET /api/analytics answered outside the contract', parsed.error);
    throw new ContractError('The analytics answer was not understood.');
  }
  return parsed.data;
}

/** The kit's rule (network failures and 5xx, at most twice), and never a refusal or a misunderstood answer. */
export function retryAnalytics(failures: number, error: unknown): boolean {
  if (error instanceof ContractError) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}
