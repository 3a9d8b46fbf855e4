// The import's side of the statement-reader worker (./worker.ts): one worker per file, its header as a
// promise and its chunks as an async iterable. A refusal (the file's fault) is thrown as StatementRefused,
// like the readers throw it; the worker failing or dying is an Error, so the import is tried again later.
import { startTsWorker } from '@omni/platform';
import type { ImportChunk } from '../../domain/import-chunk';
import { transferables } from '../../domain/import-columns';
import { type StatementHeader, StatementRefused } from '../../domain/statements/line';
import { type FromWorker, READER_WORKER, type ReadRequest, type ToWorker } from './protocol';

export interface ChunkReader {
  header: Promise<StatementHeader>;
  chunks: AsyncIterable<{ chunk: ImportChunk; bytesRead: number }>;
  /** Stops the worker (the import stopping, or done). */
  close(): Promise<void>;
}

/**
 * The reader's young generation. It allocates fast and keeps little (a batch of lines, then their columns),
 * so V8 grew it to its 48 MB cap on a large file, each semi-space touched in full: capped at 24 MB (8 MB
 * semi-spaces), a 1,000,000-line import peaks ~15 MB lower at the same speed (bench:royalties; 12 MB
 * made it slower).
 */
const READER_YOUNG_GENERATION_MB = 24;

export function readInWorker(request: Omit<ReadRequest, 't'>): ChunkReader {
  const worker = startTsWorker(READER_WORKER.name, READER_WORKER.source, {
    resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
  });
  const queue: FromWorker[] = [];
  let wake: (() => void) | null = null;
  let gone: Error | null = null;
  const push = (m: FromWorker) => {
    queue.push(m);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (err) => {
    gone ??= new Error(`The statement reader failed: ${err.message}`);
    wake?.();
  });
  worker.on('exit', (code) => {
    gone ??= new Error(`The statement reader stopped (exit ${code}).`);
    wake?.();
  });
  const post = (m: ToWorker) => worker.postMessage(m, m.t === 'spare' ? transferables(m.columns) : []);
  post({ t: 'read', ...request });

  const next = async (): Promise<FromWorker> => {
    for (;;) {
      const m = queue.shift();
      if (m) return m;
      if (gone) throw gone;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const fail = (m: FromWorker): never => {
    if (m.t === 'refused') throw new StatementRefused(m.message);
    if (m.t === 'failed') throw new Error(`The statement could not be read: ${m.message}`);
    throw new Error(`The statement reader answered ${m.t} out of turn.`);
  };

  const header = next().then((m) => (m.t === 'header' ? m.header : fail(m)));
  header.catch(() => {});
  const close = async () => {
    gone ??= new Error('The statement reader was closed.');
    await worker.terminate();
  };

  const chunks: AsyncIterable<{ chunk: ImportChunk; bytesRead: number }> = {
    async *[Symbol.asyncIterator]() {
      await header;
      try {
        for (;;) {
          const m = await next();
          if (m.t === 'end') return;
          if (m.t !== 'chunk') fail(m);
          else {
            yield { chunk: m.chunk, bytesRead: m.bytesRead };
            // Written: its columns go back to be filled again; the worker hands the next chunk over only
            // then, so at most one chunk waits here whatever the file's size.
            if (!gone) post({ t: 'spare', columns: m.chunk.columns });
          }
        }
      } finally {
        await close();
      }
    },
  };
  return { header, chunks, close };
}
