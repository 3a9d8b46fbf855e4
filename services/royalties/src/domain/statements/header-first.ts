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
  const items: AsyncIterable<ReadItem> = {
    [Symbol.asyncIterator](): AsyncIterator<ReadItem> {
      if (used) throw new Error('A statement can be iterated once.');
      used = true;
      let batch: ReadItem[] = [];
      let i = 0;
      let started = false;
      return {
        async next(): Promise<IteratorResult<ReadItem>> {
          if (!started) {
            started = true;
            await untilHeader;
            if (failure) throw failure.error;
          }
          // An await per batch, not per item: the items of one chunk of the file are already parsed.
          while (i >= batch.length) {
            const kept = early.shift();
            if (kept) batch = kept;
            else if (ended) return { done: true, value: undefined };
            else {
              const r = await batches.next();
              if (r.done) {
                ended = true;
                return { done: true, value: undefined };
              }
              batch = r.value;
            }
            i = 0;
          }
          const value = batch[i]!;
          i += 1;
          return { done: false, value };
        },
        async return(): Promise<IteratorResult<ReadItem>> {
          ended = true;
          await batches.return();
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { header: headerPromise, items };
}
