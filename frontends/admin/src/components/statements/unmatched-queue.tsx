import type { ResolveUnmatchedBody } from '@omni/proto/api';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
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
} from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, Link2 } from 'lucide-react';
import { useState } from 'react';
import { LIST_KEY, UNMATCHED_KEY, useUnmatched } from '../../hooks/use-statements';
import { formatCount, formatUsd } from '../../lib/statement-formats';
import { resolveUnmatched } from '../../lib/statements-api';
import { Pager, pageOf } from './pager';
import { AttachDialog, NotOursDialog } from './resolve-dialogs';
import { identifierLabel, storeName, type UnmatchedGroup } from './unmatched-words';

const PAGE_SIZE = 25;
const COLUMNS = 7;
type Filter = UnmatchedGroup['status'];
const FILTERS: { value: Filter; label: string; empty: string }[] = [
  {
    value: 'open',
    label: 'Open',
    empty: 'Nothing is waiting: every line of every statement found its recording.',
  },
  { value: 'attached', label: 'Attached', empty: 'No lines have been attached to a recording yet.' },
  { value: 'not_ours', label: 'Not ours', empty: 'Nothing has been marked as not ours.' },
];
const STATUS_BADGE: Record<Filter, { label: string; variant: 'secondary' | 'outline' | 'default' }> = {
  open: { label: 'Open', variant: 'secondary' },
  attached: { label: 'Attached', variant: 'default' },
  not_ours: { label: 'Not ours', variant: 'outline' },
};

/**
 * The lines no Omni recording or release carries, grouped by identifier (ISRC, else UPC): how many, what
 * they are worth, what the stores call them. Each open group is attached to the right recording or marked
 * as not ours, after a dialog that says what will happen.
 */
export function UnmatchedQueue({
  fileNames,
  onOpenImport,
}: {
  /** Import id → file name, to name the imports a group's lines came from. */
  fileNames: ReadonlyMap<string, string>;
  onOpenImport: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const queue = useUnmatched();
  const [filter, setFilter] = useState<Filter>('open');
  const [page, setPage] = useState(0);
  const [attaching, setAttaching] = useState<UnmatchedGroup | null>(null);
  const [refusing, setRefusing] = useState<UnmatchedGroup | null>(null);
  const groups = queue.data?.groups ?? [];
  const rows = groups.filter((g) => g.status === filter);
  const shown = pageOf(rows, page, PAGE_SIZE);
  // The service lists the biggest few hundred groups of each status and counts them all (`counts`).
  const counts = Object.fromEntries(
    FILTERS.map((f) => [
      f.value,
      queue.data?.counts?.[f.value] ?? groups.filter((g) => g.status === f.value).length,
    ]),
  ) as Record<Filter, number>;
  const hidden = counts[filter] - rows.length;

  async function resolve(body: ResolveUnmatchedBody, group: UnmatchedGroup) {
    const refresh = () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: UNMATCHED_KEY }),
        queryClient.invalidateQueries({ queryKey: LIST_KEY }),
      ]);
    try {
      await resolveUnmatched(body);
    } catch (error) {
      // Someone may have resolved it meanwhile: the queue is read again, the dialog shows the server's words.
      void refresh();
      throw error;
    }
    setAttaching(null);
    setRefusing(null);
    toast.success(
      body.action === 'attach'
        ? `Attached ${identifierLabel(group)} to ${body.to}`
        : `Marked ${identifierLabel(group)} as not ours`,
      { id: `unmatched:${group.identifier}` },
    );
    await refresh();
  }

  return (
    <Card data-testid="unmatched-queue">
      <CardHeader className="gap-2 sm:flex-row sm:items-start sm:justify-between sm:space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Unmatched lines</CardTitle>
          <CardDescription>
            Sales whose ISRC or UPC no Omni recording or release carries. Attach them to the recording they
            belong to, or mark them as not ours.
          </CardDescription>
        </div>
        {queue.data ? (
          <div
            className="shrink-0 rounded-md border bg-muted/40 px-3 py-2 sm:text-right"
            data-testid="waiting"
          >
            <p className="text-xl font-semibold tabular-nums">{formatUsd(queue.data.amount)}</p>
            <p className="text-xs text-muted-foreground">
              waiting in {formatCount(queue.data.open)} line{queue.data.open === 1 ? '' : 's'} under{' '}
              {formatCount(counts.open)} identifier{counts.open === 1 ? '' : 's'}
            </p>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="space-y-3">
        <Tabs
          value={filter}
          onValueChange={(value) => {
            setFilter(value as Filter);
            setPage(0);
          }}
        >
          <TabsList className="h-auto flex-wrap justify-start">
            {FILTERS.map((f) => (
              <TabsTrigger key={f.value} value={f.value}>
                {f.label} ({queue.data ? formatCount(counts[f.value]) : '…'})
              </TabsTrigger>
            ))}
          </TabsList>
          {/* One panel, the chosen tab's: Radix ties it to its trigger (aria-controls, aria-labelledby). */}
          <TabsContent value={filter} className="mt-3 space-y-3">
            {queue.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {queue.error.message}
              </p>
            ) : null}
            <div className="overflow-x-auto rounded-md border">
              <Table
                className="[&_td]:px-2 [&_td]:py-3 [&_th]:px-2 sm:[&_td]:px-3 sm:[&_th]:px-3"
                aria-label="Unmatched lines by identifier"
              >
                <TableHeader>
                  <TableRow>
                    <TableHead>Identifier</TableHead>
                    <TableHead className="hidden min-w-40 md:table-cell">What the store calls it</TableHead>
                    <TableHead className="text-right">Lines</TableHead>
                    <TableHead className="hidden text-right lg:table-cell">Quantity</TableHead>
                    <TableHead className="text-right">Amount</TableHead>
                    <TableHead className="hidden lg:table-cell">Stores · imports</TableHead>
                    {/* No status column: a tab holds one status, and a resolved row says it where its actions were
                        (beside the CMS sidebar at 1280 px the eighth column pushed the actions out of view). */}
                    <TableHead className="text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {queue.isPending ? (
                    <TableRow>
                      <TableCell colSpan={COLUMNS} className="text-muted-foreground">
                        Loading unmatched lines…
                      </TableCell>
                    </TableRow>
                  ) : rows.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={COLUMNS} className="text-muted-foreground">
                        {FILTERS.find((f) => f.value === filter)?.empty}
                      </TableCell>
                    </TableRow>
                  ) : (
                    shown.rows.map((group) => (
                      <TableRow
                        key={group.identifier || '(none)'}
                        data-testid="unmatched-row"
                        data-identifier={group.identifier}
                      >
                        <TableCell className="max-w-[9rem] sm:max-w-none">
                          <p className="text-xs font-medium uppercase text-muted-foreground">
                            {group.kind === 'none' ? 'No identifier' : group.kind}
                          </p>
                          <p className="break-all font-mono text-xs sm:whitespace-nowrap sm:text-sm">
                            {group.identifier || '—'}
                          </p>
                          <p className="mt-1 break-words text-xs md:hidden">{storeName(group)}</p>
                        </TableCell>
                        <TableCell className="hidden md:table-cell">
                          <p className="font-medium">{group.title || '—'}</p>
                          <p className="text-xs text-muted-foreground">{group.artist || '—'}</p>
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{formatCount(group.lines)}</TableCell>
                        <TableCell className="hidden text-right tabular-nums lg:table-cell">
                          {formatCount(group.quantity)}
                        </TableCell>
                        <TableCell className="whitespace-nowrap text-right tabular-nums">
                          {formatUsd(group.amount)}
                        </TableCell>
                        <TableCell className="hidden lg:table-cell">
                          <p className="text-xs">{group.stores.join(', ') || '—'}</p>
                          <ul className="text-xs text-muted-foreground">
                            {group.imports.slice(0, 2).map((id) => (
                              <li key={id} className="max-w-[12rem]">
                                <button
                                  type="button"
                                  className="block max-w-full truncate text-left underline-offset-4 hover:underline"
                                  title={fileNames.get(id) ?? id}
                                  onClick={() => onOpenImport(id)}
                                >
                                  {fileNames.get(id) ?? id}
                                </button>
                              </li>
                            ))}
                            {group.imports.length > 2 ? (
                              <li>and {formatCount(group.imports.length - 2)} more</li>
                            ) : null}
                          </ul>
                        </TableCell>
                        <TableCell>
                          {group.status === 'open' && group.resolving ? (
                            <div className="text-right">
                              <Badge variant="outline" className="whitespace-nowrap">
                                {group.resolving.action === 'attach'
                                  ? `Attaching to ${group.resolving.to}…`
                                  : 'Marking not ours…'}
                              </Badge>
                            </div>
                          ) : group.status === 'open' ? (
                            <div className="ml-auto flex w-fit flex-col gap-2 [&>button]:justify-start">
                              <Button
                                size="sm"
                                variant="outline"
                                onClick={() => setAttaching(group)}
                                disabled={!group.identifier}
                                aria-label={`Attach ${identifierLabel(group)} to a recording`}
                              >
                                <Link2 aria-hidden="true" />
                                <span className="hidden sm:inline">Attach</span>
                              </Button>
                              <Button
                                size="sm"
                                variant="outline"
                                onClick={() => setRefusing(group)}
                                disabled={!group.identifier}
                                aria-label={`${identifierLabel(group)} is not ours`}
                              >
                                <Ban aria-hidden="true" />
                                <span className="hidden sm:inline">Not ours</span>
                              </Button>
                            </div>
                          ) : (
                            <div className="text-right">
                              <Badge
                                variant={STATUS_BADGE[group.status].variant}
                                className="whitespace-nowrap"
                              >
                                {STATUS_BADGE[group.status].label}
                              </Badge>
                            </div>
                          )}
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </div>
            {hidden > 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="unmatched-capped">
                The {formatCount(rows.length)} biggest amounts of {formatCount(counts[filter])} identifiers
                are listed; the others show as these are resolved.
              </p>
            ) : null}
            <Pager
              label="unmatched lines"
              page={shown.page}
              pages={shown.pages}
              size={PAGE_SIZE}
              total={rows.length}
              onPage={setPage}
            />
          </TabsContent>
        </Tabs>
      </CardContent>
      <AttachDialog
        group={attaching}
        onCancel={() => setAttaching(null)}
        onConfirm={(body) => (attaching ? resolve(body, attaching) : Promise.resolve())}
      />
      <NotOursDialog
        group={refusing}
        onCancel={() => setRefusing(null)}
        onConfirm={(body) => (refusing ? resolve(body, refusing) : Promise.resolve())}
      />
    </Card>
  );
}
