// The figures an artist reads: the /app cards and /app/analytics, from the rollups of the published
// ledger (final, by sale month) and from trend reports (estimated, by day), never mixed.
import type { Analytics } from '@omni/proto/api';
import { formatAmount } from '../domain/money';
import type { LedgerRepository } from '../store/ledger';
import type { RecordingsRepository } from '../store/recordings';
import type { TrendsRepository } from '../store/trends';

export const FINAL_SOURCE = 'Statements imported from the stores (final)';
export const ESTIMATE_SOURCE = 'Store trend reports (estimated, not final)';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const territoryLabel = (code: string) => {
  if (code === 'WW' || code === '') return 'Worldwide';
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

export interface FigureDeps {
  ledger: LedgerRepository;
  trends: TrendsRepository;
  recordings: RecordingsRepository;
}

/** The /app cards: everything earned, and the streams of the latest sale month reported. */
export async function earningsSummary(deps: FigureDeps, ownerId: string) {
  const rows = await deps.ledger.monthsOf(ownerId);
  if (rows.length === 0)
    return { monthlyStreams: 0, streamsMonth: null, totalEarningsUsd: '0.00', earningsThrough: null };
  let total = 0n;
  let latestSale = '';
  let latestReport = '';
  for (const r of rows) {
    total += BigInt(r.amount);
    if (r.saleMonth > latestSale) latestSale = r.saleMonth;
    if (r.reportMonth > latestReport) latestReport = r.reportMonth;
  }
  // "Last fully reported month": the latest sale month any statement covers. A store reporting late adds
  // to it later; the card names the month and when it was reported, so a number that grows is explained.
  const ofMonth = rows.filter((r) => r.saleMonth === latestSale);
  const streams = ofMonth.reduce((n, r) => n + r.streams, 0);
  // Months as YYYY-MM strings compare in time order.
  const reportedMonth =
    ofMonth
      .map((r) => r.reportMonth)
      .sort()
      .at(-1) ?? '';
  return {
    monthlyStreams: streams,
    streamsMonth: { saleMonth: latestSale, reportedMonth },
    totalEarningsUsd: formatAmount(total),
    earningsThrough: { saleMonth: latestSale, reportedMonth: latestReport },
  };
}

export interface AnalyticsQuery {
  ownerId: string;
  from: string;
  to: string;
  store: string;
  territory: string;
  releaseId: string;
  trackId: string;
}

interface Acc {
  streams: number;
  quantity: number;
  amount: bigint;
}
const add = (m: Map<string, Acc>, key: string, r: { streams: number; quantity: number; amount: bigint }) => {
  const a = m.get(key) ?? { streams: 0, quantity: 0, amount: 0n };
  a.streams += r.streams;
  a.quantity += r.quantity;
  a.amount += r.amount;
  m.set(key, a);
};
const rowsOf = (m: Map<string, Acc>, label: (k: string) => string) =>
  [...m]
    .map(([key, a]) => ({
      key,
      label: label(key),
      streams: a.streams,
      quantity: a.quantity,
      amount: formatAmount(a.amount),
    }))
    .sort((x, y) => y.streams - x.streams || x.key.localeCompare(y.key));

export async function analytics(deps: FigureDeps, q: AnalyticsQuery): Promise<Analytics> {
  const recordings = await deps.recordings.ofOwner(q.ownerId);
  const releaseTitle = new Map<string, string>();
  const trackTitle = new Map<string, { title: string; release: string }>();
  for (const r of recordings) {
    releaseTitle.set(r.releaseId, r.releaseTitle);
    if (r.trackId) trackTitle.set(r.trackId, { title: r.trackTitle, release: r.releaseId });
  }
  const filters = {
    months: new Set<string>(),
    stores: new Set<string>(),
    territories: new Set<string>(),
    releases: new Set<string>(),
    tracks: new Set<string>(),
  };
  const byMonth = new Map<string, Acc>();
  const byStore = new Map<string, Acc>();
  const byTerritory = new Map<string, Acc>();
  const byRelease = new Map<string, Acc>();
  const byTrack = new Map<string, Acc>();
  const totals: Acc = { streams: 0, quantity: 0, amount: 0n };
  let refreshedAt: string | null = null;
  for await (const line of deps.ledger.linesOf(q.ownerId, q.from || undefined, q.to || undefined)) {
    const month = line.saleStart.slice(0, 7);
    filters.months.add(month);
    filters.stores.add(line.store);
    filters.territories.add(line.territory);
    filters.releases.add(line.releaseId);
    if (line.trackId) filters.tracks.add(line.trackId);
    if (q.store && line.store !== q.store) continue;
    if (q.territory && line.territory !== q.territory) continue;
    if (q.releaseId && line.releaseId !== q.releaseId) continue;
    if (q.trackId && line.trackId !== q.trackId) continue;
    const r = {
      streams: line.usageType === 'stream' ? line.quantity : 0,
      quantity: line.quantity,
      amount: line.amountAcct,
    };
    add(byMonth, month, r);
    add(byStore, line.store, r);
    add(byTerritory, line.territory, r);
    add(byRelease, line.releaseId, r);
    add(byTrack, line.trackId || `release:${line.releaseId}`, r);
    totals.streams += r.streams;
    totals.quantity += r.quantity;
    totals.amount += r.amount;
    if (!refreshedAt || line.importedAt > refreshedAt) refreshedAt = line.importedAt;
  }
  const trends = await trendFigures(deps, q);
  const trackLabel = (k: string) =>
    k.startsWith('release:')
      ? `${releaseTitle.get(k.slice(8)) ?? 'Release'} (whole release)`
      : (trackTitle.get(k)?.title ?? k);
  return {
    earnings: {
      source: FINAL_SOURCE,
      refreshedAt,
      currency: 'USD',
      totals: { streams: totals.streams, quantity: totals.quantity, amount: formatAmount(totals.amount) },
      byMonth: [...byMonth]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([month, a]) => ({
          month,
          streams: a.streams,
          quantity: a.quantity,
          amount: formatAmount(a.amount),
        })),
      byStore: rowsOf(byStore, (k) => k),
      byTerritory: rowsOf(byTerritory, territoryLabel),
      byRelease: rowsOf(byRelease, (k) => releaseTitle.get(k) ?? k),
      byTrack: rowsOf(byTrack, trackLabel),
    },
    trends,
    filters: {
      months: [...filters.months].sort(),
      stores: [...filters.stores].sort().map((k) => ({ key: k, label: k })),
      territories: [...filters.territories].sort().map((k) => ({ key: k, label: territoryLabel(k) })),
      releases: [...filters.releases].sort().map((k) => ({ key: k, label: releaseTitle.get(k) ?? k })),
      tracks: [...filters.tracks].sort().map((k) => ({
        key: k,
        label: trackTitle.get(k)?.title ?? k,
        release: trackTitle.get(k)?.release ?? '',
      })),
    },
  };
}

async function trendFigures(deps: FigureDeps, q: AnalyticsQuery): Promise<Analytics['trends']> {
  // Months bound days: from the first day of `from` to the last day of `to`.
  const rows = await deps.trends.ofOwner(
    q.ownerId,
    q.from ? `${q.from}-01` : undefined,
    q.to ? `${q.to}-31` : undefined,
  );
  const byDay = new Map<string, number>();
  const byStore = new Map<string, number>();
  const byTerritory = new Map<string, number>();
  let total = 0;
  let refreshedAt: string | null = null;
  for (const r of rows) {
    if (q.store && r.store !== q.store) continue;
    if (q.territory && r.territory !== q.territory) continue;
    if (q.releaseId && r.releaseId !== q.releaseId) continue;
    if (q.trackId && r.trackId !== q.trackId) continue;
    byDay.set(r.date, (byDay.get(r.date) ?? 0) + r.streams);
    byStore.set(r.store, (byStore.get(r.store) ?? 0) + r.streams);
    byTerritory.set(r.territory, (byTerritory.get(r.territory) ?? 0) + r.streams);
    total += r.streams;
    if (!refreshedAt || r.updatedAt > refreshedAt) refreshedAt = r.updatedAt;
  }
  const list = (m: Map<string, number>, label: (k: string) => string) =>
    [...m]
      .map(([key, streams]) => ({ key, label: label(key), streams }))
      .sort((a, b) => b.streams - a.streams);
  return {
    source: ESTIMATE_SOURCE,
    refreshedAt,
    timeZone: 'UTC',
    totals: { streams: total },
    byDay: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, streams]) => ({ date, streams })),
    byStore: list(byStore, (k) => k),
    byTerritory: list(byTerritory, territoryLabel),
  };
}

/** Streams per recording and territory from statements: what the Finder values unclaimed plays with. */
export async function playsOf(deps: FigureDeps, ownerId: string, isrcs: readonly string[]) {
  const wanted = new Set(isrcs);
  const out = new Map<string, number>();
  for await (const line of deps.ledger.linesOf(ownerId)) {
    if (line.usageType !== 'stream' || !line.isrc || (wanted.size && !wanted.has(line.isrc))) continue;
    const k = `${line.isrc}|${line.territory}|${line.saleStart.slice(0, 4)}`;
    out.set(k, (out.get(k) ?? 0) + line.quantity);
  }
  return [...out]
    .filter(([, streams]) => streams > 0)
    .map(([k, streams]) => {
      const [isrc = '', territory = '', year = '0'] = k.split('|');
      return { isrc, territory, streams, year: Number(year) };
    });
}
