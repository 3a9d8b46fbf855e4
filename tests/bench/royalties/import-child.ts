// One statement import in a process of its own (so its peak RSS is the import's): the royalties service's
// own repositories, spool and ImportRunner on the embedded SQLite store, catalog answered from the bench's
// catalogue. Prints one JSON line: {ms, lines, imported, unmatched, peakRssMb, startRssMb}.
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { Spool } from '../../../services/royalties/src/providers/spool/local';
import { ImportsRepository } from '../../../services/royalties/src/store/imports';
import { LedgerRepository } from '../../../services/royalties/src/store/ledger';
import { RecordingsRepository } from '../../../services/royalties/src/store/recordings';
import { UnmatchedRepository } from '../../../services/royalties/src/store/unmatched';
import { Matcher } from '../../../services/royalties/src/use-cases/match-lines';
import { ImportRunner } from '../../../services/royalties/src/use-cases/run-imports';
import { readInWorker } from '../../../services/royalties/src/use-cases/statement-reader/client';
import { fakeCatalog } from './catalogue';

async function main() {
  const file = process.argv[2]!;
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-bench-royalties-'));
  const logger = createLogger('bench', {});
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  const documents = createSqliteDocumentStore({ dataDir, logger });
  await documents.ready();
  const imports = new ImportsRepository(documents);
  const ledger = new LedgerRepository(documents, (ids) => imports.publishedOf(ids));
  const unmatched = new UnmatchedRepository(documents);
  const recordings = new RecordingsRepository(documents);
  const spool = new Spool(dataDir);
  await spool.ready();
  const catalog = fakeCatalog();
  const runner = new ImportRunner({
    read: readInWorker,
    documents,
    imports,
    ledger,
    unmatched,
    spool,
    matcher: () => new Matcher(catalog as never, recordings),
    logger,
  });
  const imp = await imports.open({ source: 'dsr', fileName: 'bench.tsv', via: 'upload', createdBy: 'bench' });
  const { sha256, bytes } = await spool.write(imp._id, createReadStream(file), 2 ** 40);
  await imports.received(imp._id, sha256, bytes);
  global.gc?.();
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const started = performance.now();
  runner.kick();
  await runner.idle();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const done = (await imports.get(imp._id))!;
  await documents.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({
      ms,
      state: done.state,
      refusal: done.refusal,
      lines: done.lines.total,
      imported: done.lines.imported,
      unmatched: done.lines.unmatched,
      balanced:
        BigInt(done.sums.imported) + BigInt(done.sums.unmatched) + BigInt(done.sums.refused) ===
        BigInt(done.sums.file),
      peakRssMb: peak / 2 ** 20,
      peakHeapMb: peakHeap / 2 ** 20,
      startRssMb: startRss / 2 ** 20,
    })}\n`,
  );
}

void main();
