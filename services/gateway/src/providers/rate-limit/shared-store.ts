// Rate-limit counters in the documents store (MongoDB in a cluster), so every gateway replica counts
// against one budget. One document per key and window: an upsert with $inc counts a hit atomically, and
// the previous window's document is read beside it (rate-limit.ts weighs it in). Windows no longer
// needed, even as the previous one, are deleted in the background, at most once a minute per process.
import { type Doc, type DocumentStore, DuplicateKeyError } from '@omni/platform';
import { type RateLimitStore, windowStart } from './rate-limit';

interface WindowDoc extends Doc {
  count: number;
  /** When the window ends (epoch ms). */
  resetsAt: number;
  /** When the next window ends too: the document is garbage after that. */
  keepUntil?: number;
}

/** Documents written before keepUntil existed are swept once their window is a day old. */
const LEGACY_SWEEP_AFTER_MS = 24 * 3600_000;

const SWEEP_EVERY_MS = 60_000;

export function documentRateLimitStore(
  documents: DocumentStore,
  options: { collection?: string; now?: () => number } = {},
): RateLimitStore {
  const now = options.now ?? Date.now;
  const windows = documents.collection<WindowDoc>(options.collection ?? 'rate_limit_windows', {
    indexes: [{ fields: { resetsAt: 1 } }, { fields: { keepUntil: 1 } }],
  });
  let lastSweep = now();

  const count = (id: string, resetsAt: number, keepUntil: number) =>
    windows.findOneAndUpdate(
      { _id: id },
      { $inc: { count: 1 }, $setOnInsert: { resetsAt, keepUntil } },
      { upsert: true, returnDocument: 'after' },
    );

  return {
    async hit(key, windowMs) {
      const t = now();
      const start = windowStart(t, windowMs);
      const resetsAt = start + windowMs;
      const id = `${key}@${start}`;
      const keepUntil = resetsAt + windowMs;
      const previous = windows.findOne({ _id: `${key}@${start - windowMs}` });
      // Awaited below; marked handled so a failed count does not leave it rejected unobserved.
      previous.catch(() => undefined);
      let doc: WindowDoc | null;
      try {
        doc = await count(id, resetsAt, keepUntil);
      } catch (err) {
        // Two first hits racing to insert the same window: MongoDB lets one upsert win and fails the
        // other with a duplicate key; the document exists now, so counting again is an update.
        if (!(err instanceof DuplicateKeyError)) throw err;
        doc = await count(id, resetsAt, keepUntil);
      }
      if (t - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = t;
        void windows.deleteMany({ keepUntil: { $lte: t } }).catch(() => undefined);
        void windows.deleteMany({ resetsAt: { $lte: t - LEGACY_SWEEP_AFTER_MS } }).catch(() => undefined);
      }
      return { count: doc?.count ?? 1, previous: (await previous)?.count ?? 0, start };
    },
  };
}
