import type { StatementImport } from '@omni/proto/api';
import { cn, Progress } from '@omni/ui';
import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { formatCount, formatUsd, isActive, STATE_LABEL, toNano } from '../../lib/statement-formats';

/** The import's own progress (0..1 of the file read, then of the chunks published) and its live counts. */
export function ImportProgress({ item, label }: { item: StatementImport; label: string }) {
  const percent = Math.max(0, Math.min(100, Math.floor(item.progress * 100)));
  return (
    <div className="space-y-1.5" data-testid="import-progress">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">
          {STATE_LABEL[item.state]}
          {item.state === 'queued' || item.state === 'receiving' ? '…' : ` ${percent}%`}
        </span>
        <span className="text-xs text-muted-foreground tabular-nums">
          {formatCount(item.lines.total)} line{item.lines.total === 1 ? '' : 's'} so far
        </span>
      </div>
      <Progress value={percent} aria-label={label} />
      <LineCounts item={item} />
    </div>
  );
}

/**
 * "1,180 imported · 20 unmatched · 4 refused" (one under the other when `stacked`), unmatched and refused
 * coloured when there are any.
 */
export function LineCounts({
  item,
  stacked = false,
  className,
}: {
  item: StatementImport;
  stacked?: boolean;
  className?: string;
}) {
  const { total, imported, unmatched, refused } = item.lines;
  const parts = [
    { key: 'imported', text: `${formatCount(imported)} imported`, tone: undefined },
    {
      key: 'unmatched',
      text: `${formatCount(unmatched)} unmatched`,
      tone: unmatched > 0 ? 'font-medium text-amber-700 dark:text-amber-400' : undefined,
    },
    {
      key: 'refused',
      text: `${formatCount(refused)} refused`,
      tone: refused > 0 ? 'font-medium text-destructive' : undefined,
    },
  ];
  return (
    <p className={cn('text-xs text-muted-foreground tabular-nums', className)} data-testid="line-counts">
      <span className="sr-only">{formatCount(total)} lines: </span>
      {parts.map((part, index) => (
        <span key={part.key} className={cn('whitespace-nowrap', stacked && 'block', part.tone)}>
          {part.text}
          {index < parts.length - 1 ? <span className={cn(stacked && 'sr-only')}> · </span> : null}
        </span>
      ))}
    </p>
  );
}

/**
 * The check every file gets: imported + unmatched + refused = the file's total, in USD. A ✓ when the
 * service says they add up to the nano-dollar; the difference, plainly, when they do not. While the import
 * runs the parts are still being counted.
 */
export function ReconciliationSummary({
  item,
  compact = false,
}: {
  item: StatementImport;
  compact?: boolean;
}) {
  const r = item.reconciliation;
  if (isActive(item.state)) {
    return <p className="text-xs text-muted-foreground">Counting…</p>;
  }
  if (item.state === 'refused') {
    return <p className="text-xs text-muted-foreground">Nothing imported</p>;
  }
  const parts = toNano(r.imported) + toNano(r.unmatched) + toNano(r.refused);
  const difference = toNano(r.file) - parts;
  return (
    <div className={cn('space-y-0.5', compact && 'min-w-44')} data-testid="reconciliation">
      <p className="font-medium tabular-nums">
        {formatUsd(r.file)}{' '}
        {r.balanced ? (
          <span className="inline-flex items-center gap-1 whitespace-nowrap text-xs font-medium text-emerald-700 dark:text-emerald-400">
            <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
            balanced
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 whitespace-nowrap text-xs font-semibold text-destructive">
            <AlertTriangle className="h-3.5 w-3.5" aria-hidden="true" />
            does not balance
          </span>
        )}
      </p>
      <p className="text-xs text-muted-foreground tabular-nums">
        = {formatUsd(r.imported, { sign: false })} imported + {formatUsd(r.unmatched, { sign: false })}{' '}
        unmatched + {formatUsd(r.refused, { sign: false })} refused
      </p>
      {r.balanced ? null : (
        <p className="text-xs font-medium text-destructive" role={compact ? undefined : 'alert'}>
          The parts come to {formatUsd(parts, { exact: true })}, the file to{' '}
          {formatUsd(r.file, { exact: true })}:{' '}
          {formatUsd(difference < 0n ? -difference : difference, { exact: true })}{' '}
          {difference < 0n ? 'too much' : 'missing'}.
        </p>
      )}
    </div>
  );
}

/** The check in a word, for narrow rows: "✓ $1,234.57" or "⚠ does not balance". */
export function BalanceMark({ item, className }: { item: StatementImport; className?: string }) {
  if (isActive(item.state) || item.state === 'refused') return null;
  return item.reconciliation.balanced ? (
    <p className={cn('text-xs text-emerald-700 tabular-nums dark:text-emerald-400', className)}>
      <CheckCircle2 className="mr-1 inline h-3 w-3 align-[-2px]" aria-hidden="true" />
      {formatUsd(item.reconciliation.file)}
      <span className="sr-only"> balanced</span>
    </p>
  ) : (
    <p className={cn('text-xs font-semibold text-destructive', className)}>
      <AlertTriangle className="mr-1 inline h-3 w-3 align-[-2px]" aria-hidden="true" />
      does not balance
    </p>
  );
}
