// `npm run bench:royalties`: statement import speed and memory, and the /app figures with a large ledger.
//
// 1. A generated DDEX DSR (FinancialReportingToRecordCompaniesProfileSRB, written by the store simulator's
//    own writer: tests/bench/royalties/dsr-file.ts) of BENCH_ROYALTIES_LINES lines (default 1,000,000) for
//    a catalogue of 1,000 artists × 10 recordings, one of 10,000 lines and one of twice the lines.
// 2. The floor: a plain streaming parse of the same file (read, split on tabs), in a process of its own.
// 3. The import: royalties' own ImportRunner on the embedded SQLite store (spool, read, match, pages,
//    publish, month sums), in a process of its own so its peak RSS is the import's; catalog is answered
//    from the catalogue in memory (the import asks it once per code); the file is read and parsed by the
//    import's statement-reader worker, as in the service. The same for the 10,000-line file (the floor
//    and both imports run three times, in turn, and their medians are the figures):
//    the goal is a peak RSS within 50 MB of it (memory flat whatever the size) and ≥ 0.5 of the floor's
//    lines per second. And for the file twice as long: past a chunk (200,000 lines), a longer file should
//    cost no more memory.
// Every child runs bundled by esbuild as the server is, not through tsx's on-the-fly transform.
// 4. The /app figures (earningsSummary, what GET /api/dashboard asks) with BENCH_ROYALTIES_LEDGER_LINES
//    (default 10,000,000) ledger lines written through the ledger's own writes: p99 over 2,000 artists,
//    goal < 50 ms; and /app/analytics' p99 for comparison.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeBenchDsr } from './royalties/dsr-file';

const LINES = Number(process.env.BENCH_ROYALTIES_LINES ?? 1_000_000);
const SMALL = 10_000;
/** Runs of the floor and of the large and small imports (an odd number: the median is one of them). */
const ROUNDS = 3;
const here = resolve(__dirname, 'royalties');
const root = resolve(__dirname, '../..');
let bundles = '';

/**
 * The children run bundled by esbuild as the server is (scripts/build-server.mjs: the product people
 * start is dist/omni/main.cjs, its workers beside it), not through tsx's on-the-fly transform.
 */
async function bundleChildren(dir: string) {
  const { BUNDLE_OPTIONS, WORKERS } = (await import(join(root, 'scripts/build-server.mjs'))) as {
    BUNDLE_OPTIONS: object;
    WORKERS: Record<string, string>;
  };
  const { build } = await import('esbuild');
  const children = ['parse-child', 'import-child', 'dashboard-child'];
  await build({
    ...BUNDLE_OPTIONS,
    absWorkingDir: root,
    entryPoints: {
      ...Object.fromEntries(children.map((c) => [c, join(here, `${c}.ts`)])),
      ...WORKERS,
    },
    outdir: dir,
    outExtension: { '.js': '.cjs' },
  });
  bundles = dir;
}

function child<T>(script: string, args: string[] = [], node: string[] = []): T {
  const run = spawnSync(
    process.execPath,
    [...node, '--expose-gc', join(bundles, script.replace(/\.ts$/, '.cjs')), ...args],
    {
      env: process.env,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (run.status !== 0) throw new Error(`${script} failed (${run.status})`);
  const last = run.stdout.trim().split('\n').at(-1)!;
  return JSON.parse(last) as T;
}

interface Import {
  ms: number;
  state: string;
  lines: number;
  imported: number;
  balanced: boolean;
  peakRssMb: number;
  peakHeapMb: number;
  /** RSS when the import starts: the file was received into the spool first, in the same process. */
  startRssMb: number;
}
interface Parse {
  ms: number;
  lines: number;
  peakRssMb: number;
}

const perSecond = (lines: number, ms: number) => Math.round((lines / ms) * 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The run whose `key` is the median (its other figures printed with it). */
const medianBy = <T>(runs: T[], key: (r: T) => number): T => {
  const m = median(runs.map(key));
  return runs.find((r) => key(r) === m)!;
};
const medianRss = (runs: Import[]) => median(runs.map((r) => r.peakRssMb));
const mbs = (runs: Import[]) => runs.map((r) => r.peakRssMb.toFixed(0)).join(', ');
const fmt = (n: number) => n.toLocaleString('en-US');

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-dsr-'));
  try {
    // Under the repository, so that the bundles' packages resolve from its node_modules.
    await bundleChildren(join(root, 'dist/bench/royalties'));
    const big = join(dir, 'DSR_OMNI_BENCH_Bench_2026-09_WW_1of1_20261115T100000.tsv');
    const small = join(dir, 'DSR_OMNI_BENCH_Bench_2026-09_WW_1of1_20261115T100001.tsv');
    const double = join(dir, 'DSR_OMNI_BENCH_Bench_2026-09_WW_1of1_20261115T100002.tsv');
    let t = performance.now();
    await writeBenchDsr(big, LINES);
    await writeBenchDsr(small, SMALL);
    await writeBenchDsr(double, LINES * 2);
    console.log(
      `generated ${fmt(LINES)} lines (${(statSync(big).size / 2 ** 20).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    // V8 sizes its heap to the machine and lets garbage wait: the live heap of an import stays flat (one
    // chunk), but its peak RSS mostly measures when the collector ran. The same imports with the heap a
    // service would be given (128 MB of old space) show what the import itself holds.
    const capped = ['--max-old-space-size=128'];
    // Every run ROUNDS times, a round of each in turn, each figure their median: one process's peak RSS
    // varies by ±10 MB with when its collector ran.
    const parses: Parse[] = [];
    const bigs: Import[] = [];
    const smalls: Import[] = [];
    // Twice the file: memory flat whatever the size means this costs no more than the large one.
    const doubles: Import[] = [];
    const bigsCapped: Import[] = [];
    const smallsCapped: Import[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      parses.push(child<Parse>('parse-child.ts', [big]));
      bigs.push(child<Import>('import-child.ts', [big]));
      smalls.push(child<Import>('import-child.ts', [small]));
      doubles.push(child<Import>('import-child.ts', [double]));
      bigsCapped.push(child<Import>('import-child.ts', [big], capped));
      smallsCapped.push(child<Import>('import-child.ts', [small], capped));
    }
    const parse = medianBy(parses, (p) => p.ms);
    const importBig = medianBy(bigs, (r) => r.ms);
    const importSmall = medianBy(smalls, (r) => r.ms);
    const importDouble = medianBy(doubles, (r) => r.ms);
    const bigCapped = medianBy(bigsCapped, (r) => r.ms);
    const bigRss = medianRss(bigs);
    const smallRss = medianRss(smalls);
    const doubleRss = medianRss(doubles);
    const bigCappedRss = medianRss(bigsCapped);
    const smallCappedRss = medianRss(smallsCapped);
    for (const [name, r, n] of [
      ...bigs.map((r) => ['large', r, LINES] as const),
      ...smalls.map((r) => ['small', r, SMALL] as const),
      ...doubles.map((r) => ['double', r, LINES * 2] as const),
      ...bigsCapped.map((r) => ['large (128 MB heap)', r, LINES] as const),
      ...smallsCapped.map((r) => ['small (128 MB heap)', r, SMALL] as const),
    ] as const)
      if (r.state !== 'done' || r.imported !== n || !r.balanced)
        throw new Error(`the ${name} import did not import every line: ${JSON.stringify(r)}`);
    const parseRate = perSecond(parse.lines, parse.ms);
    const importRate = perSecond(importBig.lines, importBig.ms);
    console.log(
      `\nstatement import (DDEX DSR, FinancialReportingToRecordCompaniesProfileSRB); parse and imports: median of ${ROUNDS} runs`,
    );
    console.log(
      `  plain streaming parse    ${fmt(parseRate)} lines/s  (${(parse.ms / 1000).toFixed(1)} s, peak RSS ${parse.peakRssMb.toFixed(0)} MB)`,
    );
    console.log(
      `  import, ${fmt(LINES)} lines  ${fmt(importRate)} lines/s  (${(importBig.ms / 1000).toFixed(1)} s, peak RSS ${bigRss.toFixed(0)} MB; runs ${mbs(bigs)})`,
    );
    console.log(`  import, ${fmt(SMALL)} lines     peak RSS ${smallRss.toFixed(0)} MB; runs ${mbs(smalls)}`);
    console.log(
      `  import, ${fmt(LINES * 2)} lines  ${fmt(perSecond(importDouble.lines, importDouble.ms))} lines/s, peak RSS ${doubleRss.toFixed(0)} MB (${(doubleRss - bigRss).toFixed(0)} MB over the ${fmt(LINES)}-line import; runs ${mbs(doubles)})`,
    );
    console.log(`  ratio import/parse        ${(importRate / parseRate).toFixed(2)}  (goal ≥ 0.5)`);
    console.log(`  RSS over the small import ${(bigRss - smallRss).toFixed(0)} MB  (goal ≤ 50 MB)`);
    console.log(
      `  peak heap, large / small  ${importBig.peakHeapMb.toFixed(0)} / ${importSmall.peakHeapMb.toFixed(0)} MB`,
    );
    // Receiving the file leaves malloc's arena larger (its read buffers), before the import starts.
    console.log(
      `  RSS at the import's start, large / small  ${importBig.startRssMb.toFixed(0)} / ${importSmall.startRssMb.toFixed(0)} MB (after receiving the file)`,
    );
    console.log(
      `  with a 128 MB heap: ${fmt(perSecond(bigCapped.lines, bigCapped.ms))} lines/s, peak RSS ${bigCappedRss.toFixed(0)} MB vs ${smallCappedRss.toFixed(0)} MB small (${(bigCappedRss - smallCappedRss).toFixed(0)} MB over; goal ≤ 50 MB)`,
    );

    t = performance.now();
    const dash = child<{
      buildMs: number;
      lines: number;
      p50Ms: number;
      p99Ms: number;
      analyticsP99Ms: number;
    }>('dashboard-child.ts');
    console.log(
      `\n/app figures with ${fmt(dash.lines)} ledger lines (written in ${(dash.buildMs / 1000).toFixed(0)} s)`,
    );
    console.log(
      `  dashboard earnings  p50 ${dash.p50Ms.toFixed(2)} ms  p99 ${dash.p99Ms.toFixed(2)} ms  (goal p99 < 50 ms)`,
    );
    console.log(`  analytics (one artist's pages)  p99 ${dash.analyticsP99Ms.toFixed(1)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
