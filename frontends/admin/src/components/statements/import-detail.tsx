import type { StatementImport } from '@omni/proto/api';
import { Button, Card, CardContent, CardHeader, formatTable } from '@omni/ui';
import { X } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { useStatementImport } from '../../hooks/use-statements';
import {
  formatBytes,
  formatCount,
  formatDay,
  formatPeriod,
  formatUsd,
  isActive,
  sourceLabel,
} from '../../lib/statement-formats';
import { ImportProgress, ReconciliationSummary } from './import-facts';
import { VIA_LABEL } from './imports-table';
import { StateBadge } from './state-badge';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd className="mt-0.5 break-words text-sm">{children}</dd>
    </div>
  );
}

/**
 * One import, everything about it: where it came from, the period, the DSR's sender and MessageId, its
 * progress while it moves (read every second), the lines and the money by outcome, why a refused file was
 * refused, and the first refused lines with the file's line numbers.
 */
export function ImportDetail({
  id,
  placeholder,
  onClose,
}: {
  id: string;
  /** The list's copy of the import, shown until its own answer arrives. */
  placeholder?: StatementImport;
  onClose: () => void;
}) {
  const query = useStatementImport(id, placeholder);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening an import (a row, the duplicate notice) brings the panel into view and reading position.
  useEffect(() => {
    if (!id) return;
    heading.current?.focus({ preventScroll: true });
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    heading.current?.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  }, [id]);
  const item = query.data;

  return (
    <Card
      id="statement-detail"
      aria-labelledby="statement-detail-title"
      data-testid="import-detail"
      className="scroll-mt-16"
    >
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-1">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Import</p>
          <h2
            id="statement-detail-title"
            ref={heading}
            tabIndex={-1}
            className="break-all text-lg font-semibold leading-tight focus:outline-none"
          >
            {item?.fileName ?? 'Loading…'}
          </h2>
          {item ? <StateBadge state={item.state} /> : null}
        </div>
        <Button variant="ghost" size="icon" onClick={onClose} aria-label="Close the import's details">
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent className="space-y-5">
        {query.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {query.error.message}
          </p>
        ) : !item ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : (
          <>
            {item.state === 'refused' ? (
              <div
                role="alert"
                className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm"
              >
                <p className="font-semibold text-destructive">This file was refused; nothing was imported.</p>
                {item.refusal ? (
                  <p className="mt-1" data-testid="refusal">
                    {item.refusal}
                  </p>
                ) : null}
              </div>
            ) : null}
            {isActive(item.state) ? (
              <ImportProgress item={item} label={`Import progress of ${item.fileName}`} />
            ) : null}
            <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <Fact term="Format">{sourceLabel(item.source)}</Fact>
              <Fact term="Came in by">{VIA_LABEL[item.via]}</Fact>
              <Fact term="Size">{formatBytes(item.bytes)}</Fact>
              <Fact term="Sale period">{formatPeriod(item.period)}</Fact>
              <Fact term="Reported">{item.reportedAt ? formatDay(item.reportedAt) : '—'}</Fact>
              <Fact term="Received">{formatTable(item.createdAt)}</Fact>
              <Fact term="Finished">{item.finishedAt ? formatTable(item.finishedAt) : '—'}</Fact>
              {item.sender !== null || item.source === 'dsr' ? (
                <Fact term="Sender">{item.sender ?? '—'}</Fact>
              ) : null}
              {item.messageId !== null || item.source === 'dsr' ? (
                <Fact term="MessageId">
                  <span className="font-mono text-xs">{item.messageId ?? '—'}</span>
                </Fact>
              ) : null}
              <Fact term="Import id">
                <span className="font-mono text-xs">{item.id}</span>
              </Fact>
            </dl>
            <section aria-labelledby="statement-detail-lines" className="space-y-2">
              <h3 id="statement-detail-lines" className="text-sm font-semibold">
                Lines and money
              </h3>
              <div className="rounded-md border sm:max-w-xl">
                <table
                  className="w-full text-xs sm:text-sm [&_td]:whitespace-nowrap [&_td]:px-2 [&_th]:px-2 sm:[&_td]:px-3 sm:[&_th]:px-3"
                  data-testid="outcomes"
                >
                  <thead className="border-b text-left text-muted-foreground">
                    <tr>
                      <th scope="col" className="py-2 font-medium">
                        Outcome
                      </th>
                      <th scope="col" className="py-2 text-right font-medium">
                        Lines
                      </th>
                      <th scope="col" className="py-2 text-right font-medium">
                        USD
                      </th>
                    </tr>
                  </thead>
                  <tbody className="tabular-nums [&_tr]:border-b">
                    <tr>
                      <th scope="row" className="py-2 text-left font-normal">
                        Imported
                      </th>
                      <td className="py-2 text-right">{formatCount(item.lines.imported)}</td>
                      <td className="py-2 text-right">
                        {formatUsd(item.reconciliation.imported, { exact: true })}
                      </td>
                    </tr>
                    <tr>
                      <th scope="row" className="py-2 text-left font-normal">
                        Unmatched (waiting)
                      </th>
                      <td className="py-2 text-right">{formatCount(item.lines.unmatched)}</td>
                      <td className="py-2 text-right">
                        {formatUsd(item.reconciliation.unmatched, { exact: true })}
                      </td>
                    </tr>
                    <tr>
                      <th scope="row" className="py-2 text-left font-normal">
                        Refused
                      </th>
                      <td className="py-2 text-right">{formatCount(item.lines.refused)}</td>
                      <td className="py-2 text-right">
                        {formatUsd(item.reconciliation.refused, { exact: true })}
                      </td>
                    </tr>
                    <tr className="border-b-0 font-semibold">
                      <th scope="row" className="py-2 text-left">
                        The file
                      </th>
                      <td className="py-2 text-right">{formatCount(item.lines.total)}</td>
                      <td className="py-2 text-right">
                        {formatUsd(item.reconciliation.file, { exact: true })}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </div>
              <ReconciliationSummary item={item} />
            </section>
            {item.refusedLines.length > 0 ? (
              <section aria-labelledby="statement-detail-refused" className="space-y-2">
                <h3 id="statement-detail-refused" className="text-sm font-semibold">
                  Refused lines
                  {item.lines.refused > item.refusedLines.length
                    ? ` (the first ${formatCount(item.refusedLines.length)} of ${formatCount(item.lines.refused)})`
                    : ''}
                </h3>
                <ul className="divide-y rounded-md border text-sm" data-testid="refused-lines">
                  {item.refusedLines.map((line) => (
                    <li key={line.lineNo} className="flex gap-3 px-3 py-2">
                      <span className="w-20 shrink-0 text-muted-foreground tabular-nums">
                        Line {formatCount(line.lineNo)}
                      </span>
                      <span className="min-w-0 break-words">{line.reason}</span>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
