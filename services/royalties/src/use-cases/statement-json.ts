// An import and the unmatched queue as the REST contract shows them (proto/api/royalties.ts).
import type { StatementImport, UnmatchedList } from '@omni/proto/api';
import { formatAmount } from '../domain/money';
import type { ImportDoc } from '../store/imports';
import type { ShownStatus, UnmatchedGroupDoc, UnmatchedSummary } from '../store/unmatched';
import { reconcile } from './run-imports';

export function importJson(imp: ImportDoc): StatementImport {
  const chunks = imp.checkpoint.chunks;
  const progress =
    imp.state === 'done'
      ? 1
      : imp.state === 'publishing'
        ? 0.9 + (chunks ? (0.1 * imp.published) / chunks : 0.1)
        : imp.bytes
          ? (0.9 * imp.bytesRead) / imp.bytes
          : 0;
  return {
    id: imp._id,
    source: imp.source,
    fileName: imp.fileName,
    state: imp.state,
    progress: Math.min(1, Math.round(progress * 1000) / 1000),
    bytes: imp.bytes,
    lines: imp.lines,
    reconciliation: reconcile(imp.sums),
    period: imp.periodStart && imp.periodEnd ? { start: imp.periodStart, end: imp.periodEnd } : null,
    reportedAt: imp.reportedAt,
    sender: imp.sender,
    messageId: imp.messageId,
    refusal: imp.refusal,
    refusedLines: imp.refusedLines,
    via: imp.via,
    createdAt: imp.createdAt,
    finishedAt: imp.finishedAt,
  };
}

/**
 * The queue from its summary (store/unmatched.ts): open groups first, the biggest amount first, at most
 * LIST_LIMIT of each status; `counts` says how many groups there are of each, `open` and `amount` are every
 * open line's. A group being resolved says so (`resolving`).
 */
export function unmatchedJson(summary: UnmatchedSummary): UnmatchedList {
  const order = { open: 0, attached: 1, not_ours: 2, staged: 3 } as const;
  const resolving = new Map(summary.resolving.map((r) => [r._id, r]));
  const groups = summary.groups
    .filter((g): g is UnmatchedGroupDoc & { status: ShownStatus } => g.status !== 'staged')
    .sort((a, b) => order[a.status] - order[b.status] || (b.rank > a.rank ? 1 : b.rank < a.rank ? -1 : 0))
    .map((g) => {
      const r = g.status === 'open' ? resolving.get(g.identifier) : undefined;
      return {
        identifier: g.identifier,
        kind: g.kind,
        lines: g.lines,
        quantity: g.quantity,
        amount: formatAmount(BigInt(g.amount)),
        title: g.title,
        artist: g.artist,
        stores: g.stores,
        imports: g.imports,
        status: g.status,
        ...(r ? { resolving: { action: r.action, to: r.to } } : {}),
      };
    });
  return {
    groups,
    open: summary.totals.open.lines,
    amount: formatAmount(BigInt(summary.totals.open.amount)),
    counts: {
      open: summary.totals.open.groups,
      attached: summary.totals.attached.groups,
      not_ours: summary.totals.not_ours.groups,
    },
  };
}
