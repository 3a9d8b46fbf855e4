import {
  Badge,
  Button,
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
} from '@omni/ui';
import { Link } from 'react-router';
import type { DeliveryStage } from '../../lib/delivery-progress';
import type { Release } from '../../lib/releases-api';

function statusVariant(status: string) {
  if (status === 'failed' || status === 'rejected') return 'destructive' as const;
  if (status === 'delivered' || status === 'live') return 'default' as const;
  return 'secondary' as const;
}

interface DeliveryCardProps {
  release: Release;
  stage: DeliveryStage;
  /** The page is asking for updates on its own. */
  polling: boolean;
  /** When the last answer arrived (ms since epoch), for 'last checked' once the page stops asking. */
  checkedAt: number;
  onCheckAgain: () => void;
}

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

/** Per-store delivery jobs of a release, with the page's own progress (asking, or when it last did). */
export function DeliveryCard({ release, stage, polling, checkedAt, onCheckAgain }: DeliveryCardProps) {
  const { delivery } = release;
  const queued = stage !== 'not-queued';
  return (
    <Card data-testid="delivery-card">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 space-y-0">
        <CardTitle>Delivery</CardTitle>
        {queued ? (
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="delivery-summary">
            <span>
              {release.stores.length} store{release.stores.length === 1 ? '' : 's'}
            </span>
            {Object.entries(delivery.byStatus).map(([status, count]) => (
              <Badge key={status} variant={statusVariant(status)}>
                {count} {status}
              </Badge>
            ))}
            {polling ? (
              <Spinner label="Updating…" className="text-xs" />
            ) : stage !== 'settled' ? (
              // The page stopped asking before delivery settled: say when it last looked, offer to look again.
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                Last checked {new Date(checkedAt).toLocaleTimeString()}
                <Button variant="outline" size="sm" onClick={onCheckAgain}>
                  Check again
                </Button>
              </span>
            ) : null}
          </div>
        ) : null}
      </CardHeader>
      <CardContent>
        {!queued ? (
          <NotQueued />
        ) : delivery.unavailable ? (
          <p className="text-sm text-muted-foreground" role="status">
            Delivery status is unavailable right now.{polling ? ' Retrying…' : ''}
          </p>
        ) : delivery.jobs.length === 0 ? (
          <p className="text-sm text-muted-foreground">Preparing delivery jobs…</p>
        ) : (
          <>
            {stage === 'settled' && delivery.jobs.every((job) => job.status === 'queued') ? (
              <p className="mb-3 text-sm text-muted-foreground">
                Queued. Delivery to the stores starts after the release's review (usually 24 to 72 hours);
                this page does not need to stay open.
              </p>
            ) : null}
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
          </>
        )}
      </CardContent>
    </Card>
  );
}
