import { Button, Card, CardContent, CardHeader, CardTitle, Spinner, useSession } from '@omni/ui';
import { Link } from 'react-router';
import { canTakeDown, groupJobs } from '../../lib/delivery-groups';
import type { Release } from '../../lib/releases-api';
import type { DeliveryState } from '../../lib/use-delivery-stream';
import { StoreGroupList } from './store-group';
import { TakedownDialog } from './takedown-dialog';

/** A release that chose no store: say so, why, and what to do instead of showing an empty job list. */
function NotQueued() {
  return (
    <div className="space-y-2 text-sm" role="status">
      <p className="font-medium">Not queued for delivery</p>
      <p className="text-muted-foreground">
        This song was registered from the storage console: it has its ISRC and UPC, but no cover art, and
        stores only take a release with 3000x3000 cover art. To send it to stores, upload it with its artwork
        from{' '}
        <Link to="/artist-upload" className="font-medium text-primary underline-offset-4 hover:underline">
          Artist Upload
        </Link>{' '}
        and choose the stores there.
      </p>
    </div>
  );
}

interface DeliveryCardProps {
  release: Release;
  stream: DeliveryState & { follow: (options?: { afterResubmit?: boolean }) => void };
}

/** Per-store delivery, grouped by state and kept current by the delivery stream while anything moves. */
export function DeliveryCard({ release, stream }: DeliveryCardProps) {
  const { delivery, live, error, follow } = stream;
  const queued = release.stores.length > 0;
  const jobs = delivery?.jobs ?? [];
  const removable = jobs.filter(canTakeDown);
  // Admins may also purge: remove the release from stores completely (PurgeReleaseMessage).
  const { session } = useSession();
  const admin = session?.user.roles.includes('admin') ?? false;
  // Stores it was taken down from (and no other change waiting there) can get it again (issue 21 §3.6).
  const takenDown = jobs.filter((j) => j.status === 'taken_down' && j.jobKind === 'takedown');
  const purgeable = jobs.filter((j) => j.status !== 'purged' && j.jobKind !== 'purge');
  const delivered = delivery && ['delivering', 'live'].includes(delivery.releaseStatus);
  return (
    <Card data-testid="delivery-card">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 space-y-0">
        <CardTitle>Delivery</CardTitle>
        {queued ? (
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="delivery-summary">
            <span>
              {release.stores.length} store{release.stores.length === 1 ? '' : 's'}
            </span>
            {live && delivery?.moving ? (
              <span
                className="flex items-center gap-1 text-xs text-muted-foreground"
                data-testid="delivery-live"
              >
                <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" />
                Live updates
              </span>
            ) : null}
            {error ? (
              <Button variant="outline" size="sm" onClick={() => follow()}>
                Check again
              </Button>
            ) : null}
            {delivered && removable.length > 0 ? (
              <TakedownDialog
                releaseId={release.id}
                title={release.title}
                jobs={removable}
                onQueued={() => follow()}
              />
            ) : null}
            {takenDown.length > 0 ? (
              <TakedownDialog
                action="rerelease"
                releaseId={release.id}
                title={release.title}
                jobs={takenDown}
                onQueued={() => follow()}
              />
            ) : null}
            {admin && delivery && delivery.releaseStatus !== 'in_review' && purgeable.length > 0 ? (
              <TakedownDialog
                action="purge"
                releaseId={release.id}
                title={release.title}
                jobs={purgeable}
                onQueued={() => follow()}
              />
            ) : null}
          </div>
        ) : null}
      </CardHeader>
      <CardContent>
        {!queued ? (
          <NotQueued />
        ) : error && !delivery ? (
          <p className="text-sm text-muted-foreground" role="status">
            Delivery status is unavailable right now. {error}
          </p>
        ) : !delivery ? (
          <Spinner label="Loading delivery status…" />
        ) : jobs.length === 0 ? (
          <p className="text-sm text-muted-foreground">Preparing delivery jobs…</p>
        ) : (
          <div className="space-y-4">
            {error ? (
              <p className="text-sm text-muted-foreground" role="status">
                {error}
              </p>
            ) : null}
            {delivery.releaseStatus === 'in_review' ? (
              <p className="text-sm text-muted-foreground">
                Delivery to these stores starts once the review approves the release.
              </p>
            ) : null}
            {groupJobs(jobs).map((group) => (
              <StoreGroupList key={group.status} releaseId={release.id} group={group} />
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
