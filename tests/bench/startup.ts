// `node --import tsx tests/bench/startup.ts`: start-up time (spawn → the banner "Omni is running", printed once
// every started service answers; a service alone has no gateway to ask /healthz of) and resident
// memory once ready, for one service alone (cms) and for all, started two ways in the same run:
//   built   — the one entry, `node dist/omni/main.cjs` (what npm start, the image and the chart run);
//   sources — the old way, `node --import tsx --import register.ts services/omni/src/main.ts` (TypeScript
//             compiled at start), kept as the baseline.
// Alternates the two, BENCH_STARTUP_RUNS times each (default 5); reports median and worst.
// Writes tests/.artifacts/bench-startup.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/process';
import { builtServerEntry } from '../support/server-entry';

const root = join(__dirname, '../..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);

const WAYS = {
  built: () => [builtServerEntry()],
  sources: () => [
    '--import',
    'tsx',
    '--import',
    './services/platform/src/telemetry/register.ts',
    'services/omni/src/main.ts',
  ],
};

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function once(way: keyof typeof WAYS, services: string): Promise<{ ms: number; rssMb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-startup-'));
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child: ChildProcess = spawn(process.execPath, [...WAYS[way](), `--services=${services}`], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HTTP_PORT: String(port),
      OMNI_RANDOM_PORTS: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d) => {
        out += d;
        if (out.includes('Omni is running')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${way} exited with ${code}`)));
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Resident memory once the start-up work has settled.
    await new Promise((r) => setTimeout(r, 2000));
    return { ms: Math.round(ms), rssMb: rssMb(child.pid ?? 0) };
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  builtServerEntry();
  const results: Record<string, { ms: number[]; rssMb: number[] }> = {};
  for (const services of ['cms', 'all']) {
    for (let i = 0; i < RUNS; i += 1) {
      for (const way of ['built', 'sources'] as const) {
        const key = `${services} ${way}`;
        const r = await once(way, services);
        results[key] ??= { ms: [], rssMb: [] };
        results[key].ms.push(r.ms);
        results[key].rssMb.push(r.rssMb);
      }
    }
  }
  const rows = Object.entries(results).map(([key, r]) => ({
    run: key,
    startMedianMs: median(r.ms),
    startWorstMs: Math.max(...r.ms),
    rssMedianMb: median(r.rssMb),
  }));
  console.table(rows);
  mkdirSync(join(root, 'tests/.artifacts'), { recursive: true });
  writeFileSync(
    join(root, 'tests/.artifacts/bench-startup.json'),
    JSON.stringify({ runs: RUNS, rows }, null, 2),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
