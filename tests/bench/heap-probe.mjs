// A measuring probe for benches, never loaded by Omni itself: a bench starts Omni through its one entry with
// NODE_OPTIONS="--expose-gc --import <this file>" and OMNI_HEAP_PROBE_DIR=<folder> (tests/bench/heap.ts). In
// each Node process of that start, the main thread writes <pid>.argv; on SIGUSR2 it writes <pid>.heap:
// { at, peak, heapUsed } — the highest heap seen since the last sample (checked every
// OMNI_HEAP_PROBE_PEAK_MS when set, else not tracked), then the heap after a full GC.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.OMNI_HEAP_PROBE_DIR;
const gc = globalThis.gc;
if (dir && isMainThread && typeof gc === 'function') {
  writeFileSync(join(dir, `${process.pid}.argv`), process.argv.join(' '));
  let peak = 0;
  const every = Number(process.env.OMNI_HEAP_PROBE_PEAK_MS ?? 0);
  if (every > 0) {
    setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, every).unref();
  }
  process.on('SIGUSR2', () => {
    const before = Math.max(peak, process.memoryUsage().heapUsed);
    gc();
    const heapUsed = process.memoryUsage().heapUsed;
    peak = heapUsed;
    writeFileSync(
      join(dir, `${process.pid}.heap`),
      JSON.stringify({ at: Date.now(), peak: before, heapUsed }),
    );
  });
}
