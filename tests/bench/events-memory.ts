// `npm run bench:events`: what reopening the embedded event log costs as it grows. Writes a delivery-
// sized topic at two sizes, reopens it, and reports the heap the open log holds and how long the open
// (recovery scan) took. With a memory that does not grow with the log, the larger log holds about what
// the smaller one does; only the per-record index (a number per record) grows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedEventBus } from '../../services/platform/src/adapters/events-embedded';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:events does)');

async function measure(records: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-bench-events-'));
  const value = JSON.stringify({
    releaseId: crypto.randomUUID(),
    store: 'spotify',
    status: 'queued',
    note: 'x'.repeat(200),
  });
  try {
    let bus = createEmbeddedEventBus({ dataDir, fsync: false, partitions: 3 });
    for (let i = 0; i < records; i += 1000) {
      await bus.publish(
        'delivery.jobs',
        Array.from({ length: 1000 }, (_, j) => ({ key: `k${j}`, value })),
      );
    }
    await bus.close();
    gc!();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    bus = createEmbeddedEventBus({ dataDir, fsync: false });
    await bus.ensureTopics(['delivery.jobs']);
    const openMs = performance.now() - started;
    gc!();
    const held = process.memoryUsage().heapUsed - before;
    const dir = path.join(dataDir, 'events', 'topics', 'delivery.jobs');
    const logBytes = fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
    await bus.close();
    return { records, logMB: logBytes / 1e6, heldMB: held / 1e6, openMs };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  const rows = [await measure(50_000), await measure(300_000)];
  console.log('\nEmbedded event log reopened — heap held by the open log, and the open time\n');
  console.log('| records | log MB | heap held MB | open ms |');
  console.log('|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.records} | ${r.logMB.toFixed(1)} | ${r.heldMB.toFixed(1)} | ${Math.round(r.openMs)} |`,
    );
  }
  const [small, large] = rows as [(typeof rows)[0], (typeof rows)[0]];
  console.log(
    `\nheap held per MB of log: ${(small.heldMB / small.logMB).toFixed(3)} → ${(large.heldMB / large.logMB).toFixed(3)} (falls as the log grows when memory is bounded)\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
