// `node --import tsx tests/bench/landing.ts`: the landing page (/) in headless Chromium through the
// real gateway, cold cache every run (a fresh browser context). Reports the largest contentful paint
// (median and worst of RUNS) and the JavaScript the page loads, split into the shell's own and the
// marketing remote's (the shell's split into its first chunk and what it loads lazily), both as
// transferred and gzipped (each fetched file gzipped here, level 9 like a
// static pre-compressor, so the figure does not depend on whether the gateway compresses).
// Targets (quality bar): LCP under 1 s; the shell's own JavaScript under 150 KB gzipped.
// Writes tests/.artifacts/landing-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { artifacts, launchBrowser } from '../support/browser';
import { startTestPlatform } from '../support/platform';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Run {
  lcpMs: number;
  lcpElement: string;
  scripts: { url: string; transferBytes: number }[];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main() {
  const platform = await startTestPlatform({ env: { LOG_LEVEL: 'error' } });
  const browser = await launchBrowser();
  const runs: Run[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // A new context has an empty HTTP cache: every run is a first visit.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${platform.url}/`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();
      // LCP is final once nothing larger paints; give late candidates a moment, then read it.
      await page.waitForTimeout(500);
      const run = await page.evaluate(
        () =>
          new Promise<Run>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries() as (PerformanceEntry & { element?: Element | null })[];
              const last = entries.at(-1);
              const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
                .filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
                .map((r) => ({ url: r.name, transferBytes: r.transferSize }));
              const element = last?.element;
              resolve({
                lcpMs: last?.startTime ?? Number.NaN,
                lcpElement: element
                  ? `${element.tagName.toLowerCase()}: ${element.textContent?.slice(0, 40)}`
                  : '?',
                scripts,
              });
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      runs.push(run);
      await context.close();
    }

    // Gzip what the browser fetched, grouped by owner (paths under /remotes/<name>/ are that remote's).
    const groups = new Map<string, { raw: number; gzip: number; transfer: number; files: number }>();
    // The shell's first chunk is what index.html names; the rest it loads lazily (react-query, toasts).
    const indexHtml = await (await fetch(`${platform.url}/`)).text();
    const seen = new Set<string>();
    for (const script of (runs[0] as Run).scripts) {
      if (seen.has(script.url)) continue;
      seen.add(script.url);
      const body = Buffer.from(await (await fetch(script.url)).arrayBuffer());
      const path = new URL(script.url).pathname;
      const remote = /\/remotes\/([^/]+)\//.exec(path)?.[1];
      const owner = remote ?? (indexHtml.includes(path) ? 'shell' : 'shell-lazy');
      const group = groups.get(owner) ?? { raw: 0, gzip: 0, transfer: 0, files: 0 };
      group.raw += body.length;
      group.gzip += gzipSync(body, { level: 9 }).length;
      group.transfer += script.transferBytes;
      group.files += 1;
      groups.set(owner, group);
    }

    const lcps = runs.map((r) => r.lcpMs);
    const result = {
      runs: RUNS,
      lcpMedianMs: Math.round(median(lcps)),
      lcpWorstMs: Math.round(Math.max(...lcps)),
      lcpElement: (runs[0] as Run).lcpElement,
      javascript: Object.fromEntries(groups),
    };
    console.log(`Landing page (/), ${RUNS} cold-cache loads through the gateway at ${platform.url}`);
    console.log(`  LCP median ${result.lcpMedianMs} ms, worst ${result.lcpWorstMs} ms (target < 1000 ms)`);
    console.log(`  LCP element: ${result.lcpElement}`);
    for (const [owner, g] of groups) {
      console.log(
        `  JS ${owner.padEnd(10)} ${String(g.files).padStart(2)} files  raw ${kb(g.raw).padStart(9)}  gzip ${kb(g.gzip).padStart(8)}  transferred ${kb(g.transfer)}`,
      );
    }
    const shell = groups.get('shell');
    if (shell) console.log(`  shell's own (initial) JS gzipped: ${kb(shell.gzip)} (target < 150 KB)`);
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'landing-bench.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await browser.close();
    await platform.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
