// An import and the unmatched queue as the REST contract shows them (proto/api/royalties.ts).
import type { StatementImport } from '@omni/proto/api';
import { formatAmount } from '../domain/money';
import type { ImportDoc } from '../store/imports';
import type { UnmatchedDoc } from '../store/unmatched';
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

/** Waiting lines grouped by identifier: open groups first, the biggest amount first. */
export function unmatchedJson(lines: readonly UnmatchedDoc[]) {
  const groups = new Map<
    string,
    {
      identifier: string;
      kind: UnmatchedDoc['kind'];
      lines: number;
      quantity: number;
      amount: bigint;
      title: string;
      artist: string;
      stores: Set<string>;
      imports: Set<string>;
      status: 'open' | 'attached' | 'not_ours';
    }
  >();
  let openCount = 0;
  let openAmount = 0n;
  for (const d of lines) {
    if (d.status === 'staged') continue;
    const key = `${d.status}|${d.identifier}`;
    const g = groups.get(key) ?? {
      identifier: d.identifier,
      kind: d.kind,
      lines: 0,
      quantity: 0,
      amount: 0n,
      title: d.line.title,
      artist: d.line.artist,
      stores: new Set<string>(),
      imports: new Set<string>(),
      status: d.status,
    };
    g.lines += 1;
    g.quantity += d.line.quantity;
    g.amount += BigInt(d.line.amountAcct);
    g.stores.add(d.line.store);
    g.imports.add(d.importId);
    groups.set(key, g);
    if (d.status === 'open') {
      openCount += 1;
      openAmount += BigInt(d.line.amountAcct);
    }
  }
  const order = { open: 0, attached: 1, not_ours: 2 } as const;
  return {
    groups: [...groups.values()]
      .sort(
        (a, b) =>
          order[a.status] - order[b.status] || (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0),
      )
      .map((g) => ({
        ...g,
        amount: formatAmount(g.amount),
        stores: [...g.stores].sort(),
        imports: [...g.imports],
      })),
    open: openCount,
    amount: formatAmount(openAmount),
  };
}
