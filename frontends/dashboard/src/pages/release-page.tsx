import {
  ApiError,
  Badge,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  formatTable,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  useDocumentTitle,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageFrame } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import { formatDuration } from '../lib/artist-upload-flow';
import { errorMessage } from '../lib/error-message';
import { fetchRelease, type Release } from '../lib/releases-api';

/** How often to ask again while delivery is still in motion. */
const POLL_MS = 2000;
/** Job states after which nothing changes without a new action. */
const SETTLED = new Set(['delivered', 'live', 'failed', 'rejected', 'cancelled', 'takedown']);

/**
 * Delivery jobs are written by the delivery service after it consumes release.created, so right
 * after submission there may be none yet: keep polling until there are some and none is moving.
 */
function stillMoving(release: Release | undefined): boolean {
  if (!release) return false;
  const { jobs } = release.delivery;
  return jobs.length === 0 || jobs.some((job) => !SETTLED.has(job.status));
}

const LABELS: Record<string, string> = {
  producers: 'Producers',
  writers: 'Writers',
  musicians: 'Musicians',
  engineer: 'Engineer',
  instruments: 'Instruments',
  bpm: 'BPM',
  musicalKey: 'Musical Key',
  style: 'Style',
  mood: 'Mood',
  recordedIn: 'Recorded In',
  masteringStudio: 'Mastering/Recording Studio',
  recordingDate: 'Date of Recording',
  copyrightLine: 'Copyright (P Line)',
  publishingLine: 'Publishing (C Line)',
  pro: 'PRO',
  ipi: 'IPI',
  iswc: 'ISWC',
  isni: 'ISNI',
  summary: 'Summary',
  lyrics: 'Lyrics',
};

function showValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : null;
  return String(value);
}

function MetadataGroup({ title, record }: { title: string; record: Record<string, unknown> }) {
  const rows = Object.entries(record)
    .map(([key, value]) => [LABELS[key] ?? key, showValue(value)] as const)
    .filter((row): row is readonly [string, string] => row[1] !== null);
  if (rows.length === 0) return null;
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="whitespace-pre-wrap break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function statusVariant(status: string) {
  if (status === 'failed' || status === 'rejected') return 'destructive' as const;
  if (status === 'delivered' || status === 'live') return 'default' as const;
  return 'secondary' as const;
}

function ReleaseView({ release, polling }: { release: Release; polling: boolean }) {
  useDocumentTitle(release.title);
  const { delivery, metadata } = release;
  return (
    <>
      <div className="flex flex-col gap-6 sm:flex-row">
        {release.artworkUrl ? (
          <img
            src={release.artworkUrl}
            alt={`Cover artwork of ${release.title}`}
            className="h-48 w-48 shrink-0 rounded-lg border object-cover"
          />
        ) : (
          <div className="h-48 w-48 shrink-0 rounded-lg border bg-muted" aria-hidden="true" />
        )}
        <div className="space-y-2">
          <p className="text-sm uppercase tracking-wide text-muted-foreground">{release.releaseType}</p>
          <h1 className="text-3xl font-bold tracking-tight">{release.title}</h1>
          <p className="text-lg">{release.artist.name}</p>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge variant="secondary" data-testid="release-status">
              {release.status}
            </Badge>
            {release.genre ? <span>{release.genre}</span> : null}
            {release.label ? <span>· {release.label}</span> : null}
            {release.releaseDate ? <span>· Release date {release.releaseDate}</span> : null}
          </div>
          <p className="text-sm">
            UPC{' '}
            <span className="font-mono" data-testid="release-upc">
              {release.upc || 'pending'}
            </span>
          </p>
        </div>
      </div>

      {release.warnings.length > 0 ? (
        <Card className="border-amber-500/60" data-testid="release-warnings">
          <CardHeader>
            <CardTitle>Some stores may refuse this release</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="list-disc space-y-1 pl-5 text-sm">
              {release.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Tracks</CardTitle>
        </CardHeader>
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="w-12">#</TableHead>
                <TableHead>Title</TableHead>
                <TableHead>ISRC</TableHead>
                <TableHead>Duration</TableHead>
                <TableHead>Audio</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {release.tracks.map((track) => (
                <TableRow key={track.id} data-testid="track-row">
                  <TableCell>{track.trackNumber}</TableCell>
                  <TableCell>
                    {track.title}
                    {track.explicit ? (
                      <Badge variant="outline" className="ml-2">
                        Explicit
                      </Badge>
                    ) : null}
                  </TableCell>
                  <TableCell className="font-mono" data-testid="track-isrc">
                    {track.isrc}
                  </TableCell>
                  <TableCell data-testid="track-duration">
                    {formatDuration(track.durationSeconds ?? 0)}
                  </TableCell>
                  <TableCell>
                    {track.audioUrl ? (
                      // biome-ignore lint/a11y/useMediaCaption: the artist's own master; no captions exist
                      <audio controls preload="none" src={track.audioUrl} className="h-8" />
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="flex flex-row items-center justify-between space-y-0">
          <CardTitle>Delivery</CardTitle>
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="delivery-summary">
            <span>
              {delivery.total} store{delivery.total === 1 ? '' : 's'}
            </span>
            {Object.entries(delivery.byStatus).map(([status, count]) => (
              <Badge key={status} variant={statusVariant(status)}>
                {count} {status}
              </Badge>
            ))}
            {polling ? <Spinner label="Updating…" className="text-xs" /> : null}
          </div>
        </CardHeader>
        <CardContent>
          {delivery.unavailable ? (
            <p className="text-sm text-muted-foreground" role="status">
              Delivery status is unavailable right now; retrying…
            </p>
          ) : delivery.jobs.length === 0 ? (
            <p className="text-sm text-muted-foreground">Preparing delivery jobs…</p>
          ) : (
            <div className="max-h-96 overflow-y-auto rounded-md border">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Store</TableHead>
                    <TableHead>Job</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Updated</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {delivery.jobs.map((job) => (
                    <TableRow key={`${job.target}-${job.jobKind}`} data-testid="delivery-job">
                      <TableCell className="font-mono text-xs">{job.target}</TableCell>
                      <TableCell>{job.jobKind}</TableCell>
                      <TableCell>
                        <Badge variant={statusVariant(job.status)}>{job.status}</Badge>
                      </TableCell>
                      <TableCell className="text-xs text-muted-foreground">
                        {job.updatedAt ? formatTable(job.updatedAt) : ''}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Metadata</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <MetadataGroup title="Credits" record={metadata.credits} />
          <MetadataGroup title="Technical" record={metadata.technical} />
          <MetadataGroup title="Legal & IDs" record={metadata.legal} />
          <MetadataGroup title="Content" record={metadata.content} />
        </CardContent>
      </Card>
    </>
  );
}

function ReleaseLoader() {
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: ['release', id],
    queryFn: () => fetchRelease(id),
    enabled: id !== '',
    refetchInterval: (q) => (stillMoving(q.state.data) ? POLL_MS : false),
  });
  if (query.isPending) return <Spinner label="Loading release…" />;
  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="space-y-2" role="alert">
        <h1 className="text-2xl font-semibold">
          {notFound ? 'Release not found' : 'Could not load release'}
        </h1>
        <p className="text-muted-foreground">
          {notFound
            ? 'This release does not exist or belongs to another account.'
            : errorMessage(query.error, '')}
        </p>
        <Link to="/app" className="text-sm font-medium text-primary hover:underline">
          Back to the dashboard
        </Link>
      </div>
    );
  }
  return <ReleaseView release={query.data} polling={stillMoving(query.data)} />;
}

export default function ReleasePage() {
  return (
    <RequireSession>
      <PageFrame>
        <ReleaseLoader />
      </PageFrame>
    </RequireSession>
  );
}
