import type { StatementImport } from '@omni/proto/api';
import { formatTable, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@omni/ui';
import { useState } from 'react';
import { formatCount, formatDay, formatPeriod, sourceShort } from '../../lib/statement-formats';
import { BalanceMark, LineCounts, ReconciliationSummary } from './import-facts';
import { Pager, pageOf } from './pager';
import { StateBadge } from './state-badge';

const PAGE_SIZE = 20;
const COLUMNS = 5;

export const VIA_LABEL: Record<StatementImport['via'], string> = {
  upload: 'Upload',
  inbox: 'Store report folder',
};

/**
 * Every import, newest first, 20 to a page. A row opens the import's details. Below 768 px the source,
 * how it came, the period and the reporting date fold under the file's name.
 */
export function ImportsTable({
  imports,
  loading,
  error,
  selectedId,
  onOpen,
}: {
  imports: StatementImport[];
  loading: boolean;
  error: string | null;
  selectedId: string | null;
  onOpen: (id: string) => void;
}) {
  const [page, setPage] = useState(0);
  const shown = pageOf(imports, page, PAGE_SIZE);
  return (
    <div className="space-y-3">
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div className="overflow-x-auto rounded-md border">
        <Table
          className="[&_td]:px-2 [&_td]:py-3 [&_th]:px-2 sm:[&_td]:px-3 sm:[&_th]:px-3"
          aria-label="Statement imports"
        >
          <TableHeader>
            <TableRow>
              <TableHead>File</TableHead>
              <TableHead className="hidden lg:table-cell">Period</TableHead>
              <TableHead>State</TableHead>
              <TableHead className="text-right">Lines</TableHead>
              <TableHead className="hidden sm:table-cell">Reconciliation (USD)</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {loading ? (
              <TableRow>
                <TableCell colSpan={COLUMNS} className="text-muted-foreground">
                  Loading imports…
                </TableCell>
              </TableRow>
            ) : imports.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS} className="text-muted-foreground">
                  No statement imported yet. Import a store's report above.
                </TableCell>
              </TableRow>
            ) : (
              shown.rows.map((item) => (
                <TableRow
                  key={item.id}
                  data-testid="import-row"
                  data-import-id={item.id}
                  data-state={item.id === selectedId ? 'selected' : undefined}
                  aria-selected={item.id === selectedId}
                  className="cursor-pointer"
                  onClick={() => onOpen(item.id)}
                >
                  <TableCell className="min-w-40 max-w-[15rem] sm:min-w-52 lg:max-w-xs">
                    {/* The row opens on a click anywhere; the name is the button a keyboard reaches. */}
                    <button
                      type="button"
                      className="text-left font-medium [overflow-wrap:anywhere] hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      title="Open its details"
                      onClick={(event) => {
                        event.stopPropagation();
                        onOpen(item.id);
                      }}
                    >
                      {item.fileName}
                    </button>
                    <p className="text-xs text-muted-foreground">
                      {sourceShort(item.source)} · {VIA_LABEL[item.via]}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      <span className="sr-only">Received </span>
                      {formatTable(item.createdAt)}
                    </p>
                    {item.period ? (
                      <p className="text-xs text-muted-foreground lg:hidden">{formatPeriod(item.period)}</p>
                    ) : null}
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap lg:table-cell">
                    <p>{formatPeriod(item.period)}</p>
                    {item.reportedAt ? (
                      <p className="text-xs text-muted-foreground">reported {formatDay(item.reportedAt)}</p>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <StateBadge state={item.state} />
                  </TableCell>
                  <TableCell className="text-right">
                    <p className="font-medium tabular-nums">{formatCount(item.lines.total)}</p>
                    <LineCounts item={item} stacked className="hidden sm:block" />
                    <BalanceMark item={item} className="sm:hidden" />
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    <ReconciliationSummary item={item} compact />
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <Pager
        label="imports"
        page={shown.page}
        pages={shown.pages}
        size={PAGE_SIZE}
        total={imports.length}
        onPage={setPage}
      />
    </div>
  );
}
