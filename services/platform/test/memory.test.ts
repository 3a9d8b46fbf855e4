// Memory the process freed goes back to the system when asked (runtime/memory.ts), in a process of its own
// so its RSS is this test's: 64 KB buffers (below malloc's mmap threshold, as a received file's and a
// reader's are) are made and dropped, with a few kept between them so malloc cannot give the space back
// on its own; after a collection the RSS stays up until releaseFreedMemory, then comes down.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

const SCRIPT = `
const { releaseFreedMemory } = require(${JSON.stringify(join(__dirname, '../src/runtime/memory.ts'))});
const mb = () => process.memoryUsage().rss / 2 ** 20;
const kept = [];
let dropped = [];
for (let i = 0; i < 3000; i += 1) {
  const b = Buffer.allocUnsafeSlow(64 * 1024).fill(i & 0xff);
  if (i % 100 === 0) kept.push(b); else dropped.push(b);
}
dropped = null;
global.gc();
const before = mb();
const released = releaseFreedMemory();
const after = mb();
process.stdout.write(JSON.stringify({ before, after, released, kept: kept.length }));
`;

describe('releasing freed memory', () => {
  it('gives the free pages malloc kept back to the system (Linux, glibc)', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(run.stderr).toBe('');
    const { before, after, released } = JSON.parse(run.stdout) as Record<string, number | boolean>;
    expect(released).toBe(true);
    // ~190 MB were freed; most stayed resident until the trim.
    expect((before as number) - (after as number)).toBeGreaterThan(100);
  });
});
