// A measuring probe for benches, never loaded by Omni itself: a bench starts Omni through its one entry with
// NODE_OPTIONS="--expose-gc --import <this file>" and OMNI_HEAP_PROBE_DIR=<folder>. In each Node process
// of that start (start.mjs and the platform it launches), the main thread writes <pid>.argv; on SIGUSR2 it
// runs a full GC and writes <pid>.heap ({ at, heapUsed }). The bench signals the platform's process, not
// start.mjs, and reads the file: the heap after a full GC of a process it did not start in itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.OMNI_HEAP_PROBE_DIR;
const gc = globalThis.gc;
if (dir && isMainThread && typeof gc === 'function') {
  writeFileSync(join(dir, `${process.pid}.argv`), process.argv.join(' '));
  process.on('SIGUSR2', () => {
    gc();
    const sample = { at: Date.now(), heapUsed: process.memoryUsage().heapUsed };
    writeFileSync(join(dir, `${process.pid}.heap`), JSON.stringify(sample));
  });
}
