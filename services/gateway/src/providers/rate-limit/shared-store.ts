// Rate-limit counters in the documents store (MongoDB in a cluster), so every gateway replica counts
// against one budget. One document per key and window: an upsert with $inc counts a hit atomically.
// Ended windows are deleted in the background, at most once a minute per process.
import { type Doc, type DocumentStore, DuplicateKeyError } from '@omni/platform';
import { type RateLimitStore, windowStart } from './rate-limit';

interface WindowDoc extends Doc {
  count: number;
  /** When the window ends (epoch ms); the document is garbage after that. */
  resetsAt: number;
}

const SWEEP_EVERY_MS = 60_000;

export function documentRateLimitStore(
  documents: DocumentStore,
  options: { collection?: string; now?: () => number } = {},
): RateLimitStore {
  const now = options.now ?? Date.now;
  const windows = documents.collection<WindowDoc>(options.collection ?? 'rate_limit_windows', {
    indexes: [{ fields: { resetsAt: 1 } }],
  });
  let lastSweep = now();

  const count = (id: string, resetsAt: number) =>
    windows.findOneAndUpdate(
      { _id: id },
      { $inc: { count: 1 }, $setOnInsert: { resetsAt } },
      { upsert: true, returnDocument: 'after' },
    );

  return {
    async hit(key, windowMs) {
      const t = now();
      const start = windowStart(t, windowMs);
      const resetsAt = start + windowMs;
      const id = `${key}@${start}`;
      let doc: WindowDoc | null;
      try {
        doc = await count(id, resetsAt);
      } catch (err) {
        // Two first hits racing to insert the same window: MongoDB lets one upsert win and fails the
        // other with a duplicate key; the document exists now, so counting again is an update.
        if (!(err instanceof DuplicateKeyError)) throw err;
        doc = await count(id, resetsAt);
      }
      if (t - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = t;
        void windows.deleteMany({ resetsAt: { $lte: t } }).catch(() => undefined);
      }
      return { count: doc?.count ?? 1, resetsAt };
    },
  };
}
