// Estimated daily streams from stores' trend reports, kept apart from the ledger: estimates are not money
// and are replaced when a store sends a day again. The only reader and writer of `trend_days` and
// `trend_files` (the files already read, by SHA-256).
import type { Doc, DocumentStore } from '@omni/platform';

export const TREND_DAYS = 'trend_days';
export const TREND_FILES = 'trend_files';

export interface TrendDayDoc extends Doc {
  ownerId: string;
  date: string;
  store: string;
  territory: string;
  releaseId: string;
  trackId: string;
  streams: number;
  updatedAt: string;
}

interface TrendFileDoc extends Doc {
  name: string;
  rows: number;
  unknown: number;
  importedAt: string;
}

export class TrendsRepository {
  readonly days;
  readonly files;

  constructor(private readonly store: DocumentStore) {
    this.days = store.collection<TrendDayDoc>(TREND_DAYS, { indexes: [{ fields: { ownerId: 1, date: 1 } }] });
    this.files = store.collection<TrendFileDoc>(TREND_FILES);
  }

  async seen(sha256: string) {
    return (await this.files.findById(sha256)) !== null;
  }

  /** A day's figure replaces the one sent before for the same store, territory and track. */
  async put(rows: Omit<TrendDayDoc, '_id' | 'updatedAt'>[]) {
    const now = new Date().toISOString();
    if (rows.length === 0) return;
    // One transaction for the batch: each write on its own would wait for its own disk flush.
    await this.store.transaction(async (scope) => {
      const days = scope.collection<TrendDayDoc>(TREND_DAYS);
      for (const r of rows)
        await days.updateOne(
          { _id: `${r.ownerId}|${r.date}|${r.store}|${r.territory}|${r.trackId}` },
          { $set: { ...r, updatedAt: now } },
          { upsert: true },
        );
    });
  }

  record(sha256: string, name: string, rows: number, unknown: number) {
    return this.files.updateOne(
      { _id: sha256 },
      { $set: { name, rows, unknown, importedAt: new Date().toISOString() } },
      { upsert: true },
    );
  }

  ofOwner(ownerId: string, from?: string, to?: string) {
    const date: Record<string, string> = {};
    if (from) date.$gte = from;
    if (to) date.$lte = to;
    return this.days.find(Object.keys(date).length ? { ownerId, date } : { ownerId });
  }
}
