import { RELEASE_STATUS_LABELS, type ReleaseStatus } from '@omni/proto/api';
import {
  ApiError,
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  useDocumentTitle,
} from '@omni/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageFrame } from '../components/page-frame';
import { DeleteReleaseDialog } from '../components/release/delete-dialog';
import { DeliveryCard } from '../components/release/delivery-card';
import { ReleaseEditor } from '../components/release/release-editor';
import { releaseTimeText } from '../components/release/release-time-zone';
import { ResubmitDialog } from '../components/release/resubmit-dialog';
import { ReviewCard } from '../components/release/review-card';
import { VersionsCard } from '../components/release/versions-card';
import { RequireSession } from '../components/session-gates';
import { SplitsPanel, SplitsView } from '../components/splits/splits-panel';
import { featuredArtistsText, METADATA_LABELS } from '../lib/artist-form';
import { formatDuration } from '../lib/artist-upload-flow';
import { errorMessage } from '../lib/error-message';
import { editTabOf } from '../lib/release-edit';
import { fetchRelease, isReleaseId, type Release } from '../lib/releases-api';
import { fetchSplits } from '../lib/splits-api';
import { useDeliveryStream } from '../lib/use-delivery-stream';

function showValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : null;
  return String(value);
}

const rowsOf = (record: Record<string, unknown>) =>
  Object.entries(record)
    .map(([key, value]) => [METADATA_LABELS[key] ?? key, showValue(value)] as const)
    .filter((row): row is readonly [string, string] => row[1] !== null);

const hasMetadata = (metadata: Release['metadata']) =>
  Object.values(metadata).some((record) => rowsOf(record).length > 0);

function MetadataGroup({ title, record }: { title: string; record: Record<string, unknown> }) {
  const rows = rowsOf(record);
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

const regions = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string) => regions.of(code) ?? code;

const statusLabel = (status: string) => RELEASE_STATUS_LABELS[status as ReleaseStatus] ?? status;

function ReleaseView({ release }: { release: Release }) {
  useDocumentTitle(release.title);
  const queryClient = useQueryClient();
  const stream = useDeliveryStream(release.id);
  const { metadata } = release;
  // The stream knows the status first; the release as read says it until the stream's snapshot arrives.
  const status = stream.delivery?.releaseStatus ?? release.status;
  // A deep link (the Finder's "fix it on the release page") opens the editor on its tab and track.
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState(params.has('edit'));
  // ?track= names a track by its id (the Finder's link) or its number.
  const trackParam = params.get('track') ?? '';
  const byId = release.tracks.findIndex((t) => t.id === trackParam);
  const trackNumber = byId >= 0 ? byId + 1 : Number(trackParam);
  const delivered =
    status === 'delivering' ||
    status === 'live' ||
    // The stream's jobs once its snapshot is in; until then the jobs the release was read with.
    (stream.delivery?.jobs ?? release.delivery.jobs).some((j) =>
      ['sent', 'acknowledged', 'live', 'taken_down'].includes(j.status),
    );
  // ?tab=splits opens the Splits tab (the lapse mail's link).
  const tab = params.get('tab') === 'splits' ? 'splits' : 'release';
  const setTab = (next: string) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        if (next === 'splits') q.set('tab', 'splits');
        else q.delete('tab');
        return q;
      },
      { replace: true },
    );
  const closeEditor = () => {
    setEditing(false);
    if (params.has('edit')) setParams({}, { replace: true });
  };
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
          <div className="flex h-48 w-48 shrink-0 items-center justify-center rounded-lg border bg-muted text-sm text-muted-foreground">
            No cover art
          </div>
        )}
        <div className="space-y-2">
          <p className="text-sm uppercase tracking-wide text-muted-foreground">{release.releaseType}</p>
          <h1 className="text-3xl font-bold tracking-tight">{release.title}</h1>
          <p className="text-lg" data-testid="release-artists">
            {release.artist.name}
            {release.featuredArtists.length > 0
              ? ` feat. ${featuredArtistsText(release.featuredArtists)}`
              : ''}
          </p>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge
              variant={status === 'rejected' ? 'destructive' : status === 'live' ? 'default' : 'secondary'}
              data-testid="release-status"
            >
              {statusLabel(status)}
            </Badge>
            {release.genre ? <span>{release.genre}</span> : null}
            {release.label ? <span>· {release.label}</span> : null}
            {release.releaseDate ? (
              <span data-testid="release-date">
                · Release date {release.releaseDate}, {releaseTimeText(release.releaseTimeZone)}
              </span>
            ) : null}
            {release.language ? (
              <span data-testid="release-language">· {languageName(release.language)}</span>
            ) : null}
            {release.preOrderDate ? (
              <span data-testid="release-preorder">· Pre-orders from {release.preOrderDate}</span>
            ) : null}
          </div>
          <p className="text-sm">
            UPC{' '}
            <span className="font-mono" data-testid="release-upc">
              {release.upc || 'pending'}
            </span>
          </p>
          <p className="text-sm" data-testid="release-territories">
            {release.excludedTerritories.length > 0
              ? `Worldwide except ${release.excludedTerritories.map(countryName).join(', ')}`
              : 'Worldwide'}
          </p>
          <div className="flex flex-wrap gap-2">
            {status !== 'taken_down' && !editing ? (
              <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" />
                Edit release
              </Button>
            ) : null}
            {/* Only while no store has it: afterwards a takedown is the way. */}
            {!delivered && ['draft', 'in_review', 'rejected'].includes(status) ? (
              <DeleteReleaseDialog releaseId={release.id} title={release.title} />
            ) : null}
          </div>
        </div>
      </div>

      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="release">Release</TabsTrigger>
          <TabsTrigger value="splits">Splits</TabsTrigger>
        </TabsList>
        <TabsContent value="splits" className="mt-6">
          <SplitsPanel releaseId={release.id} />
        </TabsContent>
        <TabsContent value="release" className="mt-6 space-y-6">
          {editing ? (
            <ReleaseEditor
              release={release}
              delivered={delivered}
              tab={editTabOf(params.get('edit'))}
              track={Number.isInteger(trackNumber) && trackNumber > 0 ? trackNumber : null}
              onSaved={(answer) => {
                queryClient.setQueryData(['release', release.id], answer.release);
                void queryClient.invalidateQueries({ queryKey: ['release', release.id, 'versions'] });
                if (answer.changed) stream.follow({ afterResubmit: true });
                closeEditor();
              }}
              onClose={closeEditor}
            />
          ) : null}

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
                      <TableCell className="whitespace-nowrap">
                        {/* Several discs: the disc's number, then the track's place on it (1-7, 2-1). */}
                        {release.tracks.some((t) => (t.discNumber ?? 1) > 1)
                          ? `${track.discNumber ?? 1}-${
                              release.tracks.filter(
                                (t) =>
                                  (t.discNumber ?? 1) === (track.discNumber ?? 1) &&
                                  t.trackNumber <= track.trackNumber,
                              ).length
                            }`
                          : track.trackNumber}
                      </TableCell>
                      <TableCell>
                        {track.title}
                        {track.featuredArtists?.length ? (
                          <span className="ml-1 text-muted-foreground" data-testid="track-featured">
                            {track.featuredArtists
                              .map((a) => (a.role === 'remixer' ? `${a.name} (remix)` : `feat. ${a.name}`))
                              .join(', ')}
                          </span>
                        ) : null}
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

          <ReviewCard
            releaseId={release.id}
            releaseStatus={status as ReleaseStatus}
            review={stream.delivery?.review ?? null}
            storeRejections={stream.delivery?.jobs.filter((j) => j.status === 'rejected').length ?? 0}
            resubmit={
              <ResubmitDialog
                release={release}
                onResubmitted={(updated) => {
                  queryClient.setQueryData(['release', release.id], updated);
                  stream.follow({ afterResubmit: true });
                }}
              />
            }
          />

          <DeliveryCard release={release} stream={stream} />

          <VersionsCard releaseId={release.id} />

          {/* A release given no credits, details, codes or lyrics (a console song) has no card to show. */}
          {hasMetadata(metadata) ? (
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
          ) : null}
        </TabsContent>
      </Tabs>
    </>
  );
}

/**
 * A collaborator cannot read the release itself (it is the owner's), only their share of it: the release
 * page shows them that, or the not-found page when they have none.
 */
function CollaboratorView({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['splits', id], queryFn: () => fetchSplits(id), retry: false });
  useDocumentTitle(query.data ? `${query.data.title} · your share` : 'Release');
  if (query.isPending) return <Spinner label="Loading release…" />;
  if (query.error) return <NotFound />;
  return (
    <>
      <div className="space-y-1">
        <p className="text-sm uppercase tracking-wide text-muted-foreground">Your share as a collaborator</p>
        <h1 className="text-3xl font-bold tracking-tight">{query.data.title}</h1>
      </div>
      <SplitsView data={query.data} onChange={(next) => queryClient.setQueryData(['splits', id], next)} />
    </>
  );
}

function NotFound() {
  return (
    <div className="space-y-2" role="alert">
      <h1 className="text-2xl font-semibold">Release not found</h1>
      <p className="text-muted-foreground">This release does not exist or belongs to another account.</p>
      <Link to="/app" className="text-sm font-medium text-primary hover:underline">
        Back to the dashboard
      </Link>
    </div>
  );
}

function ReleaseLoader({ id }: { id: string }) {
  // Read once: what changes afterwards (delivery, the release's status) arrives on the delivery stream.
  const query = useQuery({ queryKey: ['release', id], queryFn: () => fetchRelease(id) });
  if (query.isPending) return <Spinner label="Loading release…" />;
  if (query.error) {
    if (query.error instanceof ApiError && query.error.status === 404) return <CollaboratorView id={id} />;
    return (
      <div className="space-y-2" role="alert">
        <h1 className="text-2xl font-semibold">Could not load release</h1>
        <p className="text-muted-foreground">{errorMessage(query.error, '')}</p>
        <Link to="/app" className="text-sm font-medium text-primary hover:underline">
          Back to the dashboard
        </Link>
      </div>
    );
  }
  return <ReleaseView release={query.data} />;
}

function ReleaseRoute() {
  const { id = '' } = useParams();
  // An id catalog could never have given is known at once, without asking the server.
  return isReleaseId(id) ? <ReleaseLoader id={id} /> : <NotFound />;
}

export default function ReleasePage() {
  return (
    <RequireSession>
      <PageFrame>
        <ReleaseRoute />
      </PageFrame>
    </RequireSession>
  );
}

/** "French" for fr, in the reader's language where the browser knows it. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([navigator.language, 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
