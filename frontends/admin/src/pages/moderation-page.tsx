import { ASSET_STATUSES, type AssetStatus, type CmsAsset, rejectBody } from '@omni/proto/api';
import {
  Button,
  formatTable,
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
  toast,
  useDocumentTitle,
} from '@omni/ui';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { AssetKindIcon } from '../components/asset-kind-icon';
import { MediaPreviewDialog } from '../components/media-preview-dialog';
import { RejectDialog } from '../components/reject-dialog';
import { fetchAssets, publishAsset, rejectAsset } from '../lib/cms-api';

const TAB_LABEL: Record<AssetStatus, string> = {
  pending: 'Pending',
  published: 'Published',
  rejected: 'Rejected',
};
const EMPTY: Record<AssetStatus, string> = {
  pending: 'Nothing is waiting for review.',
  published: 'Nothing is published yet.',
  rejected: 'Nothing has been rejected.',
};

/** /admin/moderation: 'Moderation Queue' — one tab per status with its count, paged with 'Load more'. */
export default function ModerationPage() {
  useDocumentTitle('Moderation Queue');
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AssetStatus>('pending');
  const [rejecting, setRejecting] = useState<CmsAsset | null>(null);
  const assets = useInfiniteQuery({
    queryKey: ['cms', 'assets', status],
    queryFn: ({ pageParam }) => fetchAssets(status, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const rows = assets.data?.pages.flatMap((page) => page.assets) ?? [];
  // The newest page knows the counts best (a decision made since the first page moves them).
  const latestCounts = assets.data?.pages.at(-1)?.counts;
  // While another tab loads, keep showing the counts we had rather than '…'.
  const knownCounts = useRef(latestCounts);
  if (latestCounts) knownCounts.current = latestCounts;
  const counts = latestCounts ?? knownCounts.current;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['cms', 'assets'] });

  const approve = useMutation({
    mutationFn: (asset: CmsAsset) => publishAsset(asset.id),
    onSuccess: async (asset) => {
      toast.success('Asset published', { id: `moderate:${asset.id}` });
      await refresh();
    },
    onError: async (error, asset) => {
      toast.error(error.message, { id: `moderate:${asset.id}` });
      await refresh();
    },
  });

  async function confirmRejection(reason: string) {
    if (!rejecting) return;
    const asset = rejecting;
    try {
      await rejectAsset(asset.id, reason);
      toast.success('Asset rejected', { id: `moderate:${asset.id}` });
      setRejecting(null);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Failed to reject the asset', {
        id: `moderate:${asset.id}`,
      });
      throw error;
    } finally {
      await refresh();
    }
  }

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-4 md:p-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Moderation Queue</h1>
        <p className="text-sm text-muted-foreground">
          Play or view each submission, then approve or reject it.
        </p>
      </div>
      <Tabs value={status} onValueChange={(value) => setStatus(value as AssetStatus)}>
        <TabsList className="h-auto flex-wrap justify-start">
          {ASSET_STATUSES.map((tab) => (
            <TabsTrigger key={tab} value={tab}>
              {TAB_LABEL[tab]} ({counts ? counts[tab] : '…'})
            </TabsTrigger>
          ))}
        </TabsList>
        {assets.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {assets.error.message}
          </p>
        ) : null}
        {/* One panel, the chosen tab's: Radix ties it to its trigger (aria-controls, aria-labelledby). */}
        <TabsContent value={status} className="mt-4 overflow-x-auto rounded-md border">
          {/* Narrower cells on phones, so every column, the actions included, fits 375 px. */}
          <Table className="[&_td]:px-2 [&_th]:px-2 sm:[&_td]:px-4 sm:[&_th]:px-4">
            <TableHeader>
              <TableRow>
                <TableHead className="w-12">Type</TableHead>
                <TableHead>Title</TableHead>
                <TableHead>Page</TableHead>
                <TableHead>Submitted</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {assets.isPending ? (
                <TableRow>
                  <TableCell colSpan={5} className="text-muted-foreground">
                    Loading…
                  </TableCell>
                </TableRow>
              ) : rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={5} className="text-muted-foreground">
                    {EMPTY[status]}
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((asset) => (
                  <TableRow key={asset.id} data-testid="asset-row" data-asset-id={asset.id}>
                    <TableCell>
                      <AssetKindIcon kind={asset.kind} />
                    </TableCell>
                    <TableCell className="font-medium">
                      {asset.title || 'Untitled'}
                      {asset.rejectionReason ? (
                        <p className="text-xs font-normal text-muted-foreground">
                          Reason: {asset.rejectionReason}
                        </p>
                      ) : null}
                    </TableCell>
                    <TableCell>{asset.pageTitle || asset.pageSlug}</TableCell>
                    <TableCell className="min-w-24 sm:whitespace-nowrap">
                      {formatTable(asset.createdAt)}
                    </TableCell>
                    <TableCell>
                      <div className="flex flex-col items-end gap-2 sm:flex-row sm:justify-end">
                        <MediaPreviewDialog asset={asset} />
                        {asset.status === 'pending' ? (
                          <>
                            <Button
                              size="sm"
                              onClick={() => approve.mutate(asset)}
                              disabled={approve.isPending && approve.variables?.id === asset.id}
                              aria-label={`Approve ${asset.title || 'Untitled'}`}
                            >
                              <Check aria-hidden="true" />
                              <span className="hidden sm:inline">Approve</span>
                            </Button>
                            <Button
                              size="sm"
                              variant="destructive"
                              onClick={() => setRejecting(asset)}
                              aria-label={`Reject ${asset.title || 'Untitled'}`}
                            >
                              <X aria-hidden="true" />
                              <span className="hidden sm:inline">Reject</span>
                            </Button>
                          </>
                        ) : null}
                      </div>
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TabsContent>
      </Tabs>
      {assets.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="outline"
            onClick={() => assets.fetchNextPage()}
            disabled={assets.isFetchingNextPage}
          >
            {assets.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
      <RejectDialog
        title={rejecting ? rejecting.title : null}
        schema={rejectBody}
        maxLength={2000}
        heading="Reject Asset"
        description={(title) => `Tell the contributor why “${title}” is not published.`}
        confirmLabel="Confirm Rejection"
        idPrefix="reject"
        onCancel={() => setRejecting(null)}
        onConfirm={confirmRejection}
      />
    </div>
  );
}
