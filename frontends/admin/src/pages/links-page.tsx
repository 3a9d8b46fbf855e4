import type { LinkStatus, UploadLink } from '@omni/proto/api';
import {
  Badge,
  Button,
  formatTable,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  toast,
  useDocumentTitle,
} from '@omni/ui';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, Copy } from 'lucide-react';
import { GenerateLinkDialog } from '../components/generate-link-dialog';
import { fetchLinks, revokeLink } from '../lib/cms-api';
import { knownLinkUrl } from '../lib/link-urls';

const STATUS_VARIANT: Record<LinkStatus, 'default' | 'secondary' | 'destructive' | 'outline'> = {
  active: 'default',
  revoked: 'destructive',
  expired: 'secondary',
  'used up': 'outline',
};

/** /admin/links: 'Contributor Links' — every link, newest first, with copy and revoke. */
export default function LinksPage() {
  useDocumentTitle('Contributor Links');
  const links = useInfiniteQuery({
    queryKey: ['cms', 'links'],
    queryFn: ({ pageParam }) => fetchLinks(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const rows = links.data?.pages.flatMap((page) => page.links) ?? [];

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-4 md:p-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Contributor Links</h1>
          <p className="text-sm text-muted-foreground">
            Upload links let people outside Omni submit files for review.
          </p>
        </div>
        <GenerateLinkDialog />
      </div>
      {links.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {links.error.message}
        </p>
      ) : null}
      <div className="overflow-x-auto rounded-md border">
        {/* Narrower cells on phones, so every column, the actions included, fits 375 px. */}
        <Table className="[&_td]:px-2 [&_th]:px-2 sm:[&_td]:px-4 sm:[&_th]:px-4">
          <TableHeader>
            <TableRow>
              <TableHead>Page</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Uses</TableHead>
              <TableHead>Expires</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {links.isPending ? (
              <TableRow>
                <TableCell colSpan={5} className="text-muted-foreground">
                  Loading links…
                </TableCell>
              </TableRow>
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={5} className="text-muted-foreground">
                  No upload links yet.
                </TableCell>
              </TableRow>
            ) : (
              rows.map((link) => <LinkRow key={link.id} link={link} />)
            )}
          </TableBody>
        </Table>
      </div>
      {links.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => links.fetchNextPage()} disabled={links.isFetchingNextPage}>
            {links.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function LinkRow({ link }: { link: UploadLink }) {
  const queryClient = useQueryClient();
  const url = knownLinkUrl(link.id);
  const revoke = useMutation({
    mutationFn: () => revokeLink(link.id),
    onSuccess: async () => {
      toast.success('Link revoked', { id: `revoke:${link.id}` });
      await queryClient.invalidateQueries({ queryKey: ['cms', 'links'] });
    },
    onError: (error) => toast.error(error.message || 'Failed to revoke link', { id: `revoke:${link.id}` }),
  });

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied to clipboard!', { id: `copy:${link.id}` });
    } catch {
      toast.error('Could not copy the link. Allow clipboard access and try again.', {
        id: `copy:${link.id}`,
      });
    }
  }

  return (
    <TableRow data-testid="link-row" data-link-id={link.id}>
      <TableCell className="font-medium">{link.pageTitle || link.pageSlug}</TableCell>
      <TableCell>
        <Badge variant={STATUS_VARIANT[link.status]} className="whitespace-nowrap">
          {link.status}
        </Badge>
      </TableCell>
      <TableCell className="tabular-nums">
        {link.uses} / {link.maxUses}
      </TableCell>
      <TableCell className="sm:whitespace-nowrap">{formatTable(link.expiresAt)}</TableCell>
      <TableCell>
        <div className="flex flex-col items-end gap-2 sm:flex-row sm:justify-end">
          {/* The token is shown once: only links created in this tab can be copied again. */}
          <span title={url ? undefined : 'Shown once, when the link was created'}>
            <Button
              variant="outline"
              size="sm"
              onClick={copy}
              disabled={!url}
              aria-label={`Copy link for ${link.pageTitle || link.pageSlug}`}
            >
              <Copy aria-hidden="true" />
              <span className="hidden sm:inline">Copy</span>
            </Button>
          </span>
          {link.status === 'active' ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => revoke.mutate()}
              disabled={revoke.isPending}
              aria-label={`Revoke link for ${link.pageTitle || link.pageSlug}`}
            >
              <Ban aria-hidden="true" />
              <span className="hidden sm:inline">Revoke</span>
            </Button>
          ) : null}
        </div>
      </TableCell>
    </TableRow>
  );
}
