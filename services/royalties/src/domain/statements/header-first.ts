// Turns a reader (one async generator that learns the header, then yields batches of items) into a
// Statement: `header` settles as soon as the header is read, whether or not anyone iterates `items` yet,
// and `items` continues from the same position, so the file is read once. A whole-file refusal rejects
// `header` when it comes before the header was read, and is thrown by the iteration in every case.
import type { ReadItem, Statement, StatementHeader } from './line';
import { StatementRefused } from './line';

export type Reader = (
  setHeader: (header: StatementHeader) => void,
) => AsyncGenerator<ReadItem[], void, undefined>;

export function headerFirst(reader: Reader): Statement {
  let header: StatementHeader | undefined;
  const batches = reader((h) => {
    header ??= h;
  });
  let failure: { error: unknown } | null = null;
  let ended = false;
  const early: ReadItem[][] = [];

  // Drive the reader until it has named the header; items it yields before that are kept for `items`.
  const untilHeader = (async () => {
    try {
      while (header === undefined) {
        const r = await batches.next();
        if (r.done) {
          ended = true;
          break;
        }
        early.push(r.value);
      }
    } catch (error) {
      failure = { error };
      ended = true;
    }
  })();

  const headerPromise = untilHeader.then(() => {
    if (failure) throw failure.error;
    if (!header) throw new StatementRefused('The file is empty.');
    return header;
  });
  // Callers that only iterate `items` get the refusal there; this must not also be an unhandled rejection.
  headerPromise.catch(() => {});

  let used = false;
  let started = false;
  /** The next batch of items, or null at the end; an await per batch, not per item. */
  const nextBatch = async (): Promise<ReadItem[] | null> => {
    if (!started) {
      started = true;
      await untilHeader;
      if (failure) throw failure.error;
    }
    for (;;) {
      const kept = early.shift();
      if (kept) return kept;
      if (ended) return null;
      const r = await batches.next();
      if (r.done) {
        ended = true;
        return null;
      }
      if (r.value.length > 0) return r.value;
    }
  };
  const stop = async () => {
    ended = true;
    await batches.return();
  };
  const once = () => {
    if (used) throw new Error('A statement can be iterated once.');
    used = true;
  };

  const items: AsyncIterable<ReadItem> = {
    [Symbol.asyncIterator](): AsyncIterator<ReadItem> {
      once();
      let batch: ReadItem[] = [];
      let i = 0;
      return {
        async next(): Promise<IteratorResult<ReadItem>> {
          while (i >= batch.length) {
            const b = await nextBatch();
            if (!b) return { done: true, value: undefined };
            batch = b;
            i = 0;
          }
          const value = batch[i]!;
          i += 1;
          return { done: false, value };
        },
        async return(): Promise<IteratorResult<ReadItem>> {
          await stop();
          return { done: true, value: undefined };
        },
      };
    },
  };
  const inBatches: AsyncIterable<ReadItem[]> = {
    [Symbol.asyncIterator](): AsyncIterator<ReadItem[]> {
      once();
      return {
        async next(): Promise<IteratorResult<ReadItem[]>> {
          const b = await nextBatch();
          return b ? { done: false, value: b } : { done: true, value: undefined };
        },
        async return(): Promise<IteratorResult<ReadItem[]>> {
          await stop();
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { header: headerPromise, items, batches: inBatches };
}
