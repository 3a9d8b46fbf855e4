import { RELEASE_STATUS_LABELS, type ReleaseStatus } from '@omni/proto/api';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatTable,
  StatTile,
} from '@omni/ui';
import { BarChart3, Disc3, DollarSign, Music, Split, Upload, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { saleAndReportLine } from '../lib/analytics-format';
import { formatUsd } from '../lib/money';
import type { DashboardData } from '../lib/releases-api';

const number = new Intl.NumberFormat('en-US');
/** Spec: total earnings is the sum of revenue cents / 100, shown with two decimals. */
export const formatEarnings = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A stat card (the kit's StatTile) with a small line under the figure saying where it comes from. */
function FigureTile({
  title,
  value,
  note,
  more,
  icon,
}: {
  title: string;
  value: string;
  note?: string | null;
  /** A link under the figure, to the page that tells more. */
  more?: ReactNode;
  icon: ReactNode;
}) {
  return (
    <Card data-testid="stat-card">
      <CardHeader className="flex flex-row items-center justify-between space-y-0 pb-2">
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <span className="text-muted-foreground">{icon}</span>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold">{value}</p>
        {/* A div, not a p: the figure is the card's one paragraph (tests/bench/app-routes.ts reads it). */}
        {note ? (
          <div className="mt-1 text-xs text-muted-foreground" data-testid="stat-note">
            {note}
          </div>
        ) : null}
        {more ? <div className="mt-1 text-xs">{more}</div> : null}
      </CardContent>
    </Card>
  );
}

/** Under Monthly Streams and Total Earnings: the statement months, or that there are none yet (old server: nothing). */
function monthsNote(
  months: DashboardData['streamsMonth'] | undefined,
  prefix: '' | 'Through ',
): string | null {
  if (months === undefined) return null;
  if (months === null) return 'No statements yet';
  const line = saleAndReportLine(months);
  return prefix ? `${prefix}${line.charAt(0).toLowerCase()}${line.slice(1)}` : line;
}

/** The four stat cards; dashes while loading or when the stats call failed (spec: logged only). */
export function StatCards({ data }: { data: DashboardData | undefined }) {
  const show = (value: number | undefined, format: (n: number) => string) =>
    value === undefined ? '—' : format(value);
  // The exact USD total when the server sends it; the older number otherwise.
  const earnings =
    data?.totalEarningsUsd !== undefined
      ? formatUsd(data.totalEarningsUsd)
      : show(data?.totalEarnings, formatEarnings);
  return (
    <section aria-label="Stats" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatTile
        testId="stat-card"
        title="Total Releases"
        value={show(data?.totalReleases, (n) => number.format(n))}
        icon={<Disc3 className="h-4 w-4" aria-hidden="true" />}
      />
      <FigureTile
        title="Monthly Streams"
        value={show(data?.monthlyStreams, (n) => number.format(n))}
        note={monthsNote(data?.streamsMonth, '')}
        icon={<BarChart3 className="h-4 w-4" aria-hidden="true" />}
      />
      <FigureTile
        title="Total Earnings"
        value={earnings}
        note={monthsNote(data?.earningsThrough, 'Through ')}
        icon={<DollarSign className="h-4 w-4" aria-hidden="true" />}
      />
      <FigureTile
        title="Collaborators"
        value={show(data?.collaborators, (n) => number.format(n))}
        more={
          <Link
            to="/app/earnings"
            className="font-medium text-primary hover:underline"
            data-testid="earnings-link"
          >
            Your earnings from splits
          </Link>
        }
        icon={<Users className="h-4 w-4" aria-hidden="true" />}
      />
    </section>
  );
}

function ActionCard({
  title,
  description,
  icon,
  action,
}: {
  title: string;
  description: string;
  icon: ReactNode;
  action: ReactNode;
}) {
  return (
    <Card className="flex flex-col">
      <CardHeader>
        <span className="mb-2 text-primary">{icon}</span>
        <CardTitle className="flex flex-wrap items-center gap-2">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="mt-auto">{action}</CardContent>
    </Card>
  );
}

/** Upload Release goes to /artist-upload, View Analytics to /app/analytics, Manage Splits to the /app/splits overview. */
export function ActionCards() {
  return (
    <section aria-label="Quick actions" className="grid gap-4 md:grid-cols-3">
      <ActionCard
        title="Upload Release"
        description="Send a new single, EP or album to every store."
        icon={<Upload className="h-6 w-6" aria-hidden="true" />}
        action={
          <Button asChild className="w-full">
            <Link to="/artist-upload">Upload Release</Link>
          </Button>
        }
      />
      <ActionCard
        title="View Analytics"
        description="Streams and earnings by month, store, territory, release and track."
        icon={<BarChart3 className="h-6 w-6" aria-hidden="true" />}
        action={
          <Button asChild variant="outline" className="w-full">
            <Link to="/app/analytics">View Analytics</Link>
          </Button>
        }
      />
      <ActionCard
        title="Manage Splits"
        description="Share royalties with your collaborators."
        icon={<Split className="h-6 w-6" aria-hidden="true" />}
        action={
          <Button asChild variant="outline" className="w-full">
            <Link to="/app/splits">Manage Splits</Link>
          </Button>
        }
      />
    </section>
  );
}

const STEPS = [
  {
    title: 'Upload your music',
    text: 'Add your audio, a 3000x3000 cover and the release details.',
  },
  {
    title: 'Choose your platforms',
    text: 'Pick the stores to deliver to, or send it everywhere.',
  },
  {
    title: 'Track your releases',
    text: 'Follow delivery store by store and watch your streams and earnings here.',
  },
] as const;

export function GettingStarted() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Getting Started</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="space-y-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <span
                className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <div>
                <p className="font-medium">{step.title}</p>
                <p className="text-sm text-muted-foreground">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

export function ReleaseList({ releases }: { releases: DashboardData['releases'] | undefined }) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2 space-y-0">
        <CardTitle>Your Releases</CardTitle>
        <Link to="/releases" className="text-sm font-medium text-primary hover:underline">
          All releases
        </Link>
      </CardHeader>
      <CardContent>
        {!releases ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : releases.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No releases yet.{' '}
            <Link to="/artist-upload" className="font-medium text-primary hover:underline">
              Upload your first release
            </Link>
          </p>
        ) : (
          <ul className="divide-y" data-testid="release-list">
            {releases.map((release) => (
              <li key={release.id} className="flex items-center gap-3 py-3">
                {release.artworkUrl ? (
                  <img src={release.artworkUrl} alt="" className="h-10 w-10 rounded object-cover" />
                ) : (
                  <Music className="h-10 w-10 rounded bg-muted p-2" aria-hidden="true" />
                )}
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/release/${encodeURIComponent(release.id)}`}
                    className="font-medium hover:underline"
                  >
                    {release.title}
                  </Link>
                  {release.createdAt ? (
                    <p className="text-xs text-muted-foreground">{formatTable(release.createdAt)}</p>
                  ) : null}
                </div>
                <Badge variant="secondary">
                  {RELEASE_STATUS_LABELS[release.status as ReleaseStatus] ?? release.status}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
