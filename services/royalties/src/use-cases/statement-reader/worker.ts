// The statement-reader worker: reads a spooled statement (domain/statements) and hands its items over in
// chunks grouped by code (domain/import-chunk.ts). Parsing a million-line file is most of an import's CPU;
// here it runs beside the service's thread, which keeps answering requests and writes the chunks it is
// handed (use-cases/run-imports.ts). Started per file by ./client.ts.
import { stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { ChunkBuilder } from '../../domain/import-chunk';
import { transferables } from '../../domain/import-columns';
import { StatementRefused } from '../../domain/statements/line';
import { readStatement } from '../../domain/statements/read-statement';
import { openCounted } from '../../providers/spool/local';
import type { FromWorker, ReadRequest, ToWorker } from './protocol';

const port = parentPort;
if (!port) throw new Error('the statement reader runs as a worker thread');
const send = (message: FromWorker) =>
  // A chunk's columns move to the import's thread rather than being copied.
  port.postMessage(message, message.t === 'chunk' ? transferables(message.chunk.columns) : []);

const builder = new ChunkBuilder();

// A chunk is handed over once the one before it has come back written (its columns are this one's
// successor's): at most one chunk is being filled and one written, whatever the file's size.
let waiting: (() => void) | null = null;
const take = async () => {
  while (!builder.free) await new Promise<void>((resolve) => (waiting = resolve));
  return builder.take();
};

async function read(req: ReadRequest) {
  let bytesRead = 0;
  let seen = 0;
  const statement = readStatement(req.source, () => openCounted(req.path, (n) => (bytesRead += n)));
  try {
    const { size: fileBytes } = await stat(req.path);
    send({ t: 'header', header: await statement.header });
    // The first chunks are smaller (1/8 of the size, then doubling): the import's thread starts writing
    // while the rest is read, instead of waiting for a whole chunk first.
    let size = Math.max(1, Math.floor(req.chunkItems / 8));
    // The lines in the bytes not read yet, at the bytes a line has taken so far (read runs ahead of the
    // lines, so this errs low).
    builder.expect(req.chunkItems, () =>
      bytesRead > 0 ? Math.floor((seen * Math.max(0, fileBytes - bytesRead)) / bytesRead) : 0,
    );
    for await (const batch of statement.batches) {
      for (const item of batch) {
        seen += 1;
        const lineNo = item.kind === 'line' ? item.line.lineNo : item.lineNo;
        if (lineNo <= req.resumeAfter) continue;
        builder.add(item);
        if (builder.size >= size || builder.recordings >= req.chunkRecordings || builder.full) {
          size = Math.min(req.chunkItems, size * 2);
          send({ t: 'chunk', chunk: await take(), bytesRead });
        }
      }
    }
    if (builder.size > 0) send({ t: 'chunk', chunk: await take(), bytesRead });
    send({ t: 'end', bytesRead });
  } catch (err) {
    if (err instanceof StatementRefused) send({ t: 'refused', message: err.message });
    else send({ t: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.t === 'spare') {
    builder.spare(message.columns);
    waiting?.();
    waiting = null;
  } else void read(message);
});
