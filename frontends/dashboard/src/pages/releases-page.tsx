import { RELEASE_STATUS_LABELS, type ReleaseStatus } from '@omni/proto/api';
import {
  Badge,
  Button,
  Card,
  CardContent,
  formatTable,
  Spinner,
  useDocumentTitle,
  useSession,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { Music, Upload } from 'lucide-react';
import { Link } from 'react-router';
import { PageFrame } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import { errorMessage } from '../lib/error-message';
import { fetchReleases, RELEASES_LIST_LIMIT, type Release } from '../lib/releases-api';

const statusLabel = (status: string) => RELEASE_STATUS_LABELS[status as ReleaseStatus] ?? status;
const TYPE_LABELS: Record<string, string> = { single: 'Single', ep: 'EP', album: 'Album' };

/** "12 of 20 stores live": what delivery says, or nothing when it did not answer or nothing is queued. */
function storesLine({ delivery, stores }: Release): string | null {
  if (delivery.unavailable) return null;
  const chosen = delivery.total || stores.length;
  if (chosen === 0) return null;
  const live = delivery.byStatus.live ?? 0;
  return `${live} of ${chosen} ${chosen === 1 ? 'store' : 'stores'} live`;
}

function ReleaseRow({ release }: { release: Release }) {
  const stores = storesLine(release);
  return (
    <li className="flex items-center gap-4 py-4" data-testid="release-row">
      {release.artworkUrl ? (
        <img src={release.artworkUrl} alt="" className="h-14 w-14 shrink-0 rounded object-cover" />
      ) : (
        <Music className="h-14 w-14 shrink-0 rounded bg-muted p-3" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1">
        <Link
          to={`/release/${encodeURIComponent(release.id)}`}
          className="block truncate font-medium hover:underline"
        >
          {release.title}
        </Link>
        <p className="truncate text-sm text-muted-foreground">
          {[
            release.artist.name,
            TYPE_LABELS[release.releaseType] ?? release.releaseType,
            release.createdAt && formatTable(release.createdAt),
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        {stores ? <p className="text-xs text-muted-foreground">{stores}</p> : null}
      </div>
      <Badge
        variant={
          release.status === 'rejected' ? 'destructive' : release.status === 'live' ? 'default' : 'secondary'
        }
        className="shrink-0"
      >
        {statusLabel(release.status)}
      </Badge>
    </li>
  );
}

function ReleasesList() {
  const { session } = useSession();
  const releases = useQuery({
    queryKey: ['releases', session?.user.id],
    queryFn: fetchReleases,
    enabled: !!session,
  });
  if (releases.isPending) return <Spinner label="Loading your releases…" />;
  if (releases.error) {
    return (
      <p role="alert" className="text-destructive">
        {errorMessage(releases.error, 'Your releases could not be loaded.')} Reload the page to try again.
      </p>
    );
  }
  if (releases.data.length === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-start gap-4 pt-6">
          <p className="text-muted-foreground">You have no releases yet.</p>
          <Button asChild>
            <Link to="/artist-upload">
              <Upload aria-hidden="true" />
              Upload your first release
            </Link>
          </Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardContent className="pt-2">
        <ul className="divide-y" aria-label="Your releases">
          {releases.data.map((release) => (
            <ReleaseRow key={release.id} release={release} />
          ))}
        </ul>
        {releases.data.length >= RELEASES_LIST_LIMIT ? (
          <p className="border-t pt-4 text-sm text-muted-foreground">
            Showing your {RELEASES_LIST_LIMIT} newest releases.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** /releases: every release of the signed-in artist, newest first, each to its page (issue 21 §3.3). */
export default function ReleasesPage() {
  useDocumentTitle('Releases');
  return (
    <RequireSession>
      <PageFrame>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight">Releases</h1>
            <p className="mt-2 text-muted-foreground">Your releases and where each one is delivered.</p>
          </div>
          <Button asChild variant="outline">
            <Link to="/artist-upload">
              <Upload aria-hidden="true" />
              New release
            </Link>
          </Button>
        </div>
        <ReleasesList />
      </PageFrame>
    </RequireSession>
  );
}
