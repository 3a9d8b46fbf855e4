// The heap of Omni's own process, for benches that start it through its entry (tests/journeys/support/
// omni-process.ts) and so cannot read process.memoryUsage() of it: start Omni with `probe.env` in its
// environment, then `probe.sample()` asks the platform's process (SIGUSR2 to heap-probe.mjs) for the
// highest heap since the last sample and the heap after a full GC.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../journeys/support/omni-process';

export interface HeapSample {
  /** The highest heap used since the previous sample (tracked only with `peakEveryMs`). */
  peak: number;
  /** The heap used after a full GC. */
  heapUsed: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class HeapProbe {
  readonly dir = mkdtempSync(join(tmpdir(), 'omni-bench-heap-'));
  readonly env: Record<string, string>;

  constructor(options: { peakEveryMs?: number } = {}) {
    this.env = {
      NODE_OPTIONS: `--expose-gc --import ${join(__dirname, 'heap-probe.mjs')}`,
      OMNI_HEAP_PROBE_DIR: this.dir,
      ...(options.peakEveryMs ? { OMNI_HEAP_PROBE_PEAK_MS: String(options.peakEveryMs) } : {}),
    };
  }

  private pid(): number {
    const running = readdirSync(this.dir)
      .filter((f) => f.endsWith('.argv'))
      .map((f) => ({ pid: Number.parseInt(f, 10), argv: readFileSync(join(this.dir, f), 'utf8') }))
      // A build start.mjs ran first has exited: the platform is still running.
      .filter((p) => alive(p.pid));
    // start.mjs runs the platform in its own process; were it to start it as a child, the child is Omni.
    const platform = running.find((p) => !p.argv.includes('scripts/start.mjs')) ?? running[0];
    if (!platform) throw new Error(`No platform process reported to the heap probe in ${this.dir}`);
    return platform.pid;
  }

  async sample(): Promise<HeapSample> {
    const pid = this.pid();
    const file = join(this.dir, `${pid}.heap`);
    const asked = Date.now();
    process.kill(pid, 'SIGUSR2');
    return eventually(
      () => {
        if (!existsSync(file)) return undefined;
        const sample = JSON.parse(readFileSync(file, 'utf8')) as HeapSample & { at: number };
        return sample.at >= asked ? { peak: sample.peak, heapUsed: sample.heapUsed } : undefined;
      },
      `a heap sample from process ${pid}`,
      30_000,
      20,
    );
  }

  /** The heap after a full GC. */
  async heap(): Promise<number> {
    return (await this.sample()).heapUsed;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
