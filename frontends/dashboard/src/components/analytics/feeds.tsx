// The two feeds of /app/analytics, kept apart and labelled: final earnings from statements (by sale
// month) and estimated daily streams from store trend reports. Every chart says which feed it shows,
// its source, when that feed was last refreshed and (for days) the time zone, and has a table with the
// same numbers and a CSV of them beside it.
import { Badge, Card, CardContent, CardHeader, CardTitle } from '@omni/ui';
import { CalendarClock, FileCheck2 } from 'lucide-react';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import type { Analytics } from '../../lib/analytics-api';
import {
  formatCompact,
  formatCount,
  formatDayShort,
  formatMonth,
  formatRefreshed,
} from '../../lib/analytics-format';
import { csvFileName } from '../../lib/csv';
import { chartValue, formatUsd, toNano } from '../../lib/money';
import type { ChartDatum, ChartTone } from './charts';
import { type Column, FiguresTable } from './figures-table';

type Earnings = Analytics['earnings'];
type Trends = Analytics['trends'];
type EarningsRow = Earnings['byStore'][number];
type MonthRow = Earnings['byMonth'][number];
type TrendRow = Trends['byStore'][number];
type DayRow = Trends['byDay'][number];

// The charts' code (recharts) starts loading with the page and arrives apart from it; a chunk that
// cannot load leaves a sentence in the chart's place, the tables still stand.
type ChartProps = { data: readonly ChartDatum[]; tone: ChartTone; tick: (value: number) => string };
const chartsCode = import('./charts');
const NoChart = () => <p className="text-sm text-muted-foreground">The chart could not be loaded.</p>;
const lazyChart = (name: 'ColumnChart' | 'DayChart' | 'RankChart') =>
  lazy<ComponentType<ChartProps>>(() =>
    chartsCode.then(
      (charts) => ({ default: charts[name] }),
      () => ({ default: NoChart }),
    ),
  );
const ColumnChart = lazyChart('ColumnChart');
const DayChart = lazyChart('DayChart');
const RankChart = lazyChart('RankChart');

/** Bars in a ranking chart (the table lists every row). */
const RANKED = 8;

const usdTick = (value: number) => `$${formatCompact(value)}`;

/** Largest amount first, compared exactly. */
const byAmount = <Row extends { amount: string }>(rows: readonly Row[]) =>
  [...rows].sort((a, b) => {
    const d = toNano(b.amount) - toNano(a.amount);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  });
const byStreams = <Row extends { streams: number }>(rows: readonly Row[]) =>
  [...rows].sort((a, b) => b.streams - a.streams);

/** The amount as the table shows it, with the exact figure a hover away. */
const Money = ({ amount }: { amount: string }) => (
  <span title={`${amount} USD`} data-amount={amount}>
    {formatUsd(amount)}
  </span>
);

export function FeedBadge({ tone }: { tone: ChartTone }) {
  return tone === 'final' ? (
    <Badge className="gap-1">
      <FileCheck2 className="h-3 w-3" aria-hidden="true" />
      Final
    </Badge>
  ) : (
    <Badge variant="outline" className="gap-1 border-sky-600 text-sky-800">
      <CalendarClock className="h-3 w-3" aria-hidden="true" />
      Estimated
    </Badge>
  );
}

/** "Source: … · Last refreshed … · …": under every chart, so no chart is read without knowing what it is. */
function sourceLine(tone: ChartTone, source: string, refreshedAt: string | null): string {
  const parts = [
    tone === 'final' ? 'Final, from statements' : 'Estimated, from trend reports',
    `Source: ${source}`,
    `Last refreshed: ${formatRefreshed(refreshedAt)}`,
    tone === 'final' ? 'USD' : 'Days in UTC',
  ];
  return parts.join(' · ');
}

/** One chart and its table, side by side on a wide screen and one above the other on a phone. */
function ChartPanel({
  title,
  tone,
  meta,
  chart,
  table,
  testId,
}: {
  title: string;
  tone: ChartTone;
  meta: string;
  chart: ReactNode;
  table: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId} data-feed={tone}>
      <CardHeader className="space-y-1 px-4 pb-4 sm:px-6">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle className="text-base">{title}</CardTitle>
          <FeedBadge tone={tone} />
        </div>
        <p className="text-xs text-muted-foreground" data-testid="chart-source">
          {meta}
        </p>
      </CardHeader>
      <CardContent className="grid gap-6 px-4 sm:px-6 lg:grid-cols-2 lg:items-start">
        {/* The table beside it carries the same numbers for assistive technology. */}
        <div aria-hidden="true" className="min-w-0">
          <Suspense fallback={<div className="h-60 animate-pulse rounded-md bg-muted/60" />}>
            {chart}
          </Suspense>
        </div>
        {table}
      </CardContent>
    </Card>
  );
}

function Total({
  label,
  value,
  note,
  first = false,
}: {
  label: string;
  value: ReactNode;
  note: string;
  /** The feed's headline figure: the whole width on a phone, the others two to a row under it. */
  first?: boolean;
}) {
  return (
    <div className={`rounded-lg border bg-card p-4 shadow-sm${first ? ' col-span-2 sm:col-span-1' : ''}`}>
      <p className="text-sm font-medium text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums">{value}</p>
      <p className="mt-1 text-xs text-muted-foreground">{note}</p>
    </div>
  );
}

function FeedHeading({
  id,
  title,
  tone,
  children,
}: {
  id: string;
  title: string;
  tone: ChartTone;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={id} className="text-2xl font-semibold tracking-tight">
          {title}
        </h2>
        <FeedBadge tone={tone} />
      </div>
      <p className="text-sm text-muted-foreground">{children}</p>
    </div>
  );
}

/** Stores report monthly, months after the sale: what an artist without statements should expect. */
export const STATEMENT_TIMING =
  'Stores report monthly, about 1–3 months after the sale month: plays in October usually appear between November and January.';

function Empty({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card data-testid="feed-empty">
      <CardContent className="space-y-2 pt-6">
        <p className="font-medium">{title}</p>
        <div className="space-y-2 text-sm text-muted-foreground">{children}</div>
      </CardContent>
    </Card>
  );
}

const earningsColumns = (name: string): Column<EarningsRow>[] => [
  { header: name, csv: (r) => ({ text: r.label }) },
  { header: 'Code', csv: (r) => ({ text: r.key }), cell: (r) => r.key },
  { header: 'Streams', numeric: true, csv: (r) => r.streams, cell: (r) => formatCount(r.streams) },
  {
    header: 'Units',
    numeric: true,
    wideOnly: true,
    csv: (r) => r.quantity,
    cell: (r) => formatCount(r.quantity),
  },
  { header: 'Earnings (USD)', numeric: true, csv: (r) => r.amount, cell: (r) => <Money amount={r.amount} /> },
];
// The table hides the code column (the CSV keeps it): on a phone the name says enough.
const tableColumns = <Row,>(columns: Column<Row>[]) => columns.filter((c) => c.header !== 'Code');

const MONTH_COLUMNS: Column<MonthRow>[] = [
  { header: 'Sale month', nowrap: true, csv: (r) => r.month, cell: (r) => formatMonth(r.month) },
  { header: 'Streams', numeric: true, csv: (r) => r.streams, cell: (r) => formatCount(r.streams) },
  {
    header: 'Units',
    numeric: true,
    wideOnly: true,
    csv: (r) => r.quantity,
    cell: (r) => formatCount(r.quantity),
  },
  { header: 'Earnings (USD)', numeric: true, csv: (r) => r.amount, cell: (r) => <Money amount={r.amount} /> },
];

const DAY_COLUMNS: Column<DayRow>[] = [
  { header: 'Day (UTC)', nowrap: true, csv: (r) => r.date },
  {
    header: 'Estimated streams',
    numeric: true,
    csv: (r) => r.streams,
    cell: (r) => formatCount(r.streams),
  },
];

const trendColumns = (name: string): Column<TrendRow>[] => [
  { header: name, csv: (r) => ({ text: r.label }) },
  { header: 'Code', csv: (r) => ({ text: r.key }), cell: (r) => r.key },
  {
    header: 'Estimated streams',
    numeric: true,
    csv: (r) => r.streams,
    cell: (r) => formatCount(r.streams),
  },
];

/** A table whose CSV has every column (codes included) while the screen shows the readable ones. */
function BreakdownTable<Row>({
  caption,
  columns,
  rows,
  fileName,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  fileName: string;
}) {
  return (
    <FiguresTable
      caption={caption}
      columns={columns}
      visible={tableColumns(columns)}
      rows={rows}
      rowKey={(row) => String((row as { key?: string }).key)}
      fileName={fileName}
    />
  );
}

const BREAKDOWNS = [
  { field: 'byStore', title: 'Earnings by store', name: 'Store', slug: 'store' },
  { field: 'byTerritory', title: 'Earnings by territory', name: 'Territory', slug: 'territory' },
  { field: 'byRelease', title: 'Earnings by release', name: 'Release', slug: 'release' },
  { field: 'byTrack', title: 'Earnings by track', name: 'Track', slug: 'track' },
] as const;

export function EarningsFeed({
  earnings,
  noStatements,
  filtered,
  fileSuffix,
}: {
  earnings: Earnings;
  /** No statement was ever imported for this artist (no month to choose). */
  noStatements: boolean;
  filtered: boolean;
  fileSuffix: string;
}) {
  const meta = sourceLine('final', earnings.source, earnings.refreshedAt);
  return (
    <section aria-labelledby="final-earnings" className="space-y-4" data-testid="final-earnings">
      <FeedHeading id="final-earnings" title="Final earnings" tone="final">
        From store statements, by the month of the sale. These are the figures you are paid on.
      </FeedHeading>
      {earnings.byMonth.length === 0 ? (
        noStatements ? (
          <Empty title="No statements yet">
            <p>
              Your final earnings will appear here by sale month, store, territory, release and track once
              stores send their statements for your releases.
            </p>
            <p>{STATEMENT_TIMING}</p>
            <p>Last refreshed: {formatRefreshed(earnings.refreshedAt)}.</p>
          </Empty>
        ) : (
          <Empty title="No earnings for these filters">
            <p>{filtered ? 'Try a wider month range or fewer filters.' : STATEMENT_TIMING}</p>
          </Empty>
        )
      ) : (
        <>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            <Total
              first
              label="Earnings"
              value={<Money amount={earnings.totals.amount} />}
              note={`${earnings.currency}, from statements`}
            />
            <Total
              label="Streams"
              value={formatCount(earnings.totals.streams)}
              note="As the statements count them"
            />
            <Total
              label="Units"
              value={formatCount(earnings.totals.quantity)}
              note="Streams, downloads and other sales"
            />
          </div>
          <ChartPanel
            testId="chart-earnings-by-month"
            title="Earnings by sale month"
            tone="final"
            meta={meta}
            chart={
              <ColumnChart
                tone="final"
                tick={usdTick}
                data={earnings.byMonth.map((r) => ({
                  key: r.month,
                  label: formatMonth(r.month),
                  value: chartValue(r.amount),
                  shown: formatUsd(r.amount),
                }))}
              />
            }
            table={
              <FiguresTable
                caption="Earnings by sale month"
                columns={MONTH_COLUMNS}
                rows={earnings.byMonth}
                rowKey={(r) => r.month}
                fileName={csvFileName('omni-earnings-by-month', fileSuffix)}
              />
            }
          />
          {BREAKDOWNS.map(({ field, title, name, slug }) => {
            const rows = byAmount(earnings[field]);
            if (rows.length === 0) return null;
            return (
              <ChartPanel
                key={field}
                testId={`chart-earnings-by-${slug}`}
                title={title}
                tone="final"
                meta={meta}
                chart={
                  <RankChart
                    tone="final"
                    tick={usdTick}
                    data={rows.slice(0, RANKED).map((r) => ({
                      key: r.key,
                      label: r.label,
                      // A month of returns (a negative amount) is an empty bar; the table says the figure.
                      value: Math.max(0, chartValue(r.amount)),
                      shown: formatUsd(r.amount),
                    }))}
                  />
                }
                table={
                  <BreakdownTable
                    caption={title}
                    columns={earningsColumns(name)}
                    rows={rows}
                    fileName={csvFileName(`omni-earnings-by-${slug}`, fileSuffix)}
                  />
                }
              />
            );
          })}
        </>
      )}
    </section>
  );
}

const TREND_BREAKDOWNS = [
  { field: 'byStore', title: 'Estimated streams by store', name: 'Store', slug: 'store' },
  { field: 'byTerritory', title: 'Estimated streams by territory', name: 'Territory', slug: 'territory' },
] as const;

export function TrendsFeed({ trends, fileSuffix }: { trends: Trends; fileSuffix: string }) {
  const meta = sourceLine('estimated', trends.source, trends.refreshedAt);
  const newestFirst = [...trends.byDay].reverse();
  const best = byStreams(trends.byDay)[0] ?? { date: '', streams: 0 };
  return (
    <section aria-labelledby="estimated-streams" className="space-y-4" data-testid="estimated-streams">
      <FeedHeading id="estimated-streams" title="Estimated daily streams" tone="estimated">
        Estimates from store trend reports; final figures come with statements. Days are counted in UTC.
      </FeedHeading>
      {trends.byDay.length === 0 ? (
        <Empty title="No daily estimates yet">
          <p>
            Stores send trend reports a few days after the plays. Estimated streams per day, store and
            territory will show here once one names your releases.
          </p>
          <p>Last refreshed: {formatRefreshed(trends.refreshedAt)}.</p>
        </Empty>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            <Total
              first
              label="Estimated streams"
              value={formatCount(trends.totals.streams)}
              note={`${trends.byDay[0]?.date} to ${trends.byDay.at(-1)?.date} (UTC)`}
            />
            <Total label="Best day" value={formatCount(best.streams)} note={`${best.date} (UTC)`} />
            <Total
              label="Stores reporting"
              value={formatCount(trends.byStore.length)}
              note={`${formatCount(trends.byTerritory.length)} ${trends.byTerritory.length === 1 ? 'territory' : 'territories'}`}
            />
          </div>
          <ChartPanel
            testId="chart-streams-by-day"
            title="Estimated streams per day"
            tone="estimated"
            meta={meta}
            chart={
              <DayChart
                tone="estimated"
                tick={formatCompact}
                data={trends.byDay.map((r) => ({
                  key: r.date,
                  label: formatDayShort(r.date),
                  value: r.streams,
                  shown: `${formatCount(r.streams)} streams (${r.date}, UTC)`,
                }))}
              />
            }
            table={
              <FiguresTable
                caption="Estimated streams per day (UTC), newest first"
                columns={DAY_COLUMNS}
                rows={newestFirst}
                rowKey={(r) => r.date}
                fileName={csvFileName('omni-estimated-streams-by-day', fileSuffix)}
              />
            }
          />
          {TREND_BREAKDOWNS.map(({ field, title, name, slug }) => {
            const rows = byStreams(trends[field]);
            if (rows.length === 0) return null;
            return (
              <ChartPanel
                key={field}
                testId={`chart-streams-by-${slug}`}
                title={title}
                tone="estimated"
                meta={meta}
                chart={
                  <RankChart
                    tone="estimated"
                    tick={formatCompact}
                    data={rows.slice(0, RANKED).map((r) => ({
                      key: r.key,
                      label: r.label,
                      value: r.streams,
                      shown: `${formatCount(r.streams)} streams`,
                    }))}
                  />
                }
                table={
                  <BreakdownTable
                    caption={title}
                    columns={trendColumns(name)}
                    rows={rows}
                    fileName={csvFileName(`omni-estimated-streams-by-${slug}`, fileSuffix)}
                  />
                }
              />
            );
          })}
        </>
      )}
    </section>
  );
}
