// Queries no index narrows read the whole collection: fine for a table of settings, a cost that grows with
// every document for anything else. Each one is reported to the listeners here (the architecture test
// listens while it drives the product and flags the ones nobody accepted); with no listener it costs a check.
import type { Filter, Sort } from '../../ports/documents';

export interface ScanReport {
  collection: string;
  /** The filter's shape, values left out: `status $in, dueAt $lte, $or(…)`. */
  filter: string;
  sort: string;
}

const listeners = new Set<(scan: ScanReport) => void>();

/** Calls `listener` for every scan from now on, in this process; returns how to stop. */
export function watchScans(listener: (scan: ScanReport) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function scanning(): boolean {
  return listeners.size > 0;
}

function shapeOf(filter: Filter): string {
  return Object.entries(filter)
    .map(([key, condition]) => {
      if (key === '$or' || key === '$and')
        return `${key}(${(condition as Filter[]).map(shapeOf).join(' | ')})`;
      const operators =
        typeof condition === 'object' && condition !== null && !Array.isArray(condition)
          ? Object.keys(condition).filter((k) => k.startsWith('$'))
          : [];
      return operators.length > 0 ? `${key} ${operators.join(' ')}` : key;
    })
    .join(', ');
}

export function reportScan(collection: string, filter: Filter, sort: Sort | undefined): void {
  const report: ScanReport = {
    collection,
    filter: shapeOf(filter),
    sort: Object.entries(sort ?? {})
      .map(([path, direction]) => `${path} ${direction}`)
      .join(', '),
  };
  for (const listener of listeners) listener(report);
}
