import {
  REJECTION_REASON_MAX,
  REVIEW_STATUSES,
  type ReviewQueueItem,
  type ReviewStatus,
  rejectReleaseBody,
} from '@omni/proto/api';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  formatAgo,
  formatTable,
  ReviewFindings,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
  useDocumentTitle,
} from '@omni/ui';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, RotateCcw, X } from 'lucide-react';
import { useState } from 'react';
import { MatchEvidencePanel } from '../components/match-evidence/match-evidence-panel';
import { RejectDialog } from '../components/reject-dialog';
import { RightsProofs } from '../components/rights-proofs';
import {
  approveRelease,
  fetchDeadLetters,
  fetchReviewQueue,
  rejectRelease,
  replayDelivery,
} from '../lib/delivery-api';

const TAB_LABEL: Record<ReviewStatus, string> = {
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Rejected',
};
const EMPTY: Record<ReviewStatus, string> = {
  in_review: 'No release is waiting for review.',
  approved: 'No release has been approved yet.',
  rejected: 'No release has been rejected.',
};
const TYPE_LABEL: Record<string, string> = { single: 'Single', ep: 'EP', album: 'Album' };

function QueueItem({
  item,
  onApprove,
  approving,
  onReject,
}: {
  item: ReviewQueueItem;
  onApprove: () => void;
  approving: boolean;
  onReject: () => void;
}) {
  const { review } = item;
  return (
    <li
      className="flex flex-col gap-3 border-b p-4 last:border-b-0 sm:flex-row"
      data-testid="review-item"
      data-release-id={item.releaseId}
    >
      {item.artworkUrl ? (
        <img
          src={item.artworkUrl}
          alt={`Cover artwork of ${item.title}`}
          className="h-20 w-20 shrink-0 rounded-md border object-cover"
        />
      ) : (
        <div className="flex h-20 w-20 shrink-0 items-center justify-center rounded-md border bg-muted text-xs text-muted-foreground">
          No art
        </div>
      )}
      <div className="min-w-0 flex-1 space-y-2">
        <div>
          <p className="font-semibold">{item.title}</p>
          <p className="text-sm">{item.artistName}</p>
          <p className="text-xs text-muted-foreground">
            {TYPE_LABEL[item.releaseType] ?? item.releaseType} · UPC{' '}
            <span className="font-mono">{item.upc || 'pending'}</span> · {item.storeCount} store
            {item.storeCount === 1 ? '' : 's'} ·{' '}
            <time dateTime={item.submittedAt} title={formatTable(item.submittedAt)}>
              submitted {formatAgo(item.submittedAt)}
            </time>
          </p>
        </div>
        {item.changes.length > 0 ? <VersionChanges version={item.version} changes={item.changes} /> : null}
        {review.findings.length > 0 ? (
          <ReviewFindings findings={review.findings} />
        ) : (
          <p className="text-xs text-muted-foreground">The automatic store checks found nothing.</p>
        )}
        {review.findings.map((f) =>
          f.match ? (
            <MatchEvidencePanel
              key={`${f.match.releaseId}:${f.match.track}`}
              releaseId={item.releaseId}
              match={f.match}
            />
          ) : null,
        )}
        <RightsProofs proofs={review.proofs} />
        {review.status === 'rejected' && review.reason ? (
          <p className="text-sm">
            <span className="font-medium">Reason:</span> {review.reason}
          </p>
        ) : null}
      </div>
      {review.status === 'in_review' ? (
        <div className="flex shrink-0 gap-2 sm:flex-col">
          <Button size="sm" onClick={onApprove} disabled={approving} aria-label={`Approve ${item.title}`}>
            <Check aria-hidden="true" />
            Approve
          </Button>
          <Button size="sm" variant="destructive" onClick={onReject} aria-label={`Reject ${item.title}`}>
            <X aria-hidden="true" />
            Reject
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** What the artist changed since the version the stores have (or had): the edit is what needs judging. */
function VersionChanges({
  version,
  changes,
}: {
  version: number | null;
  changes: ReviewQueueItem['changes'];
}) {
  return (
    <div className="rounded-md border bg-muted/40 p-2 text-sm" data-testid="version-changes">
      <p className="font-medium">
        Changed in version {version ?? '?'} ({changes.length} change{changes.length === 1 ? '' : 's'})
      </p>
      <ul className="mt-1 space-y-0.5">
        {changes.map((c) => (
          <li key={c.field} className="break-words">
            <span className="text-muted-foreground">{c.label}:</span>{' '}
            <del className="text-destructive">{c.before || '(empty)'}</del> →{' '}
            <ins className="text-emerald-700 no-underline dark:text-emerald-400">{c.after || '(empty)'}</ins>
          </li>
        ))}
      </ul>
    </div>
  );
}

function FailedDeliveries() {
  const queryClient = useQueryClient();
  const deadLetters = useQuery({ queryKey: ['delivery', 'dead-letters'], queryFn: fetchDeadLetters });
  const replay = useMutation({
    mutationFn: ({ releaseId, target }: { releaseId: string; target: string }) =>
      replayDelivery(releaseId, target),
    onSuccess: (message) => toast.success(message),
    onError: (error) => toast.error(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['delivery', 'dead-letters'] }),
  });
  const items = deadLetters.data ?? [];
  return (
    <Card data-testid="failed-deliveries">
      <CardHeader>
        <CardTitle>Failed deliveries</CardTitle>
        <p className="text-sm text-muted-foreground">
          Deliveries whose retries are used up. Fix the cause (a store's credentials, its endpoint), then
          replay.
        </p>
      </CardHeader>
      <CardContent>
        {deadLetters.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {deadLetters.error.message}
          </p>
        ) : deadLetters.isPending ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No failed deliveries.</p>
        ) : (
          <ul className="divide-y rounded-md border">
            {items.map((d) => (
              <li
                key={`${d.releaseId}:${d.target}`}
                className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-center"
                data-testid="dead-letter"
              >
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    {d.storeName || d.target}{' '}
                    <span className="font-mono text-xs text-muted-foreground">{d.releaseId}</span>
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {d.jobKind} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'} ·{' '}
                    {formatTable(d.failedAt)}
                  </p>
                  {d.reason ? <p className="break-words text-xs text-destructive">{d.reason}</p> : null}
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={replay.isPending}
                  onClick={() => replay.mutate({ releaseId: d.releaseId, target: d.target })}
                  aria-label={`Replay delivery to ${d.storeName || d.target}`}
                >
                  <RotateCcw aria-hidden="true" />
                  Replay
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/releases: 'Release Review' — releases waiting for a person after the automatic store checks. */
export default function ReleaseReviewPage() {
  useDocumentTitle('Release Review');
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ReviewStatus>('in_review');
  const [rejecting, setRejecting] = useState<ReviewQueueItem | null>(null);
  const queue = useInfiniteQuery({
    queryKey: ['delivery', 'reviews', status],
    queryFn: ({ pageParam }) => fetchReviewQueue(status, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = queue.data?.pages.flatMap((page) => page.items) ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['delivery', 'reviews'] });

  const approve = useMutation({
    mutationFn: (item: ReviewQueueItem) => approveRelease(item.releaseId),
    onSuccess: (message, item) => toast.success(message, { id: `review:${item.releaseId}` }),
    onError: (error, item) => toast.error(error.message, { id: `review:${item.releaseId}` }),
    onSettled: refresh,
  });

  async function confirmRejection(reason: string) {
    if (!rejecting) return;
    const item = rejecting;
    try {
      toast.success(await rejectRelease(item.releaseId, reason), { id: `review:${item.releaseId}` });
      setRejecting(null);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The release could not be rejected.', {
        id: `review:${item.releaseId}`,
      });
      throw error;
    } finally {
      await refresh();
    }
  }

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-4 md:p-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Release Review</h1>
        <p className="text-sm text-muted-foreground">
          Check each release the automatic store checks passed, then approve it for delivery or reject it with
          a reason the artist can act on.
        </p>
      </div>
      <Tabs value={status} onValueChange={(value) => setStatus(value as ReviewStatus)}>
        <TabsList className="h-auto flex-wrap justify-start">
          {REVIEW_STATUSES.map((tab) => (
            <TabsTrigger key={tab} value={tab}>
              {TAB_LABEL[tab]}
            </TabsTrigger>
          ))}
        </TabsList>
        {queue.isError ? (
          <p role="alert" className="mt-4 text-sm text-destructive">
            {queue.error.message}
          </p>
        ) : null}
        <TabsContent value={status} className="mt-4 rounded-md border">
          {queue.isPending ? (
            <p className="p-4 text-sm text-muted-foreground">Loading…</p>
          ) : items.length === 0 ? (
            <p className="p-4 text-sm text-muted-foreground">{EMPTY[status]}</p>
          ) : (
            <ul>
              {items.map((item) => (
                <QueueItem
                  key={item.releaseId}
                  item={item}
                  onApprove={() => approve.mutate(item)}
                  approving={approve.isPending && approve.variables?.releaseId === item.releaseId}
                  onReject={() => setRejecting(item)}
                />
              ))}
            </ul>
          )}
        </TabsContent>
      </Tabs>
      {queue.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => queue.fetchNextPage()} disabled={queue.isFetchingNextPage}>
            {queue.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
      <FailedDeliveries />
      <RejectDialog
        title={rejecting ? rejecting.title : null}
        schema={rejectReleaseBody}
        maxLength={REJECTION_REASON_MAX}
        heading="Reject Release"
        description={(title) =>
          `Tell the artist what to fix in “${title}”. They see your words as you write them.`
        }
        confirmLabel="Reject Release"
        idPrefix="reject-release"
        onCancel={() => setRejecting(null)}
        onConfirm={confirmRejection}
      />
    </div>
  );
}
