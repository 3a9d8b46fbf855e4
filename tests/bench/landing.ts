// `node --import tsx tests/bench/landing.ts`: the landing page (/) in headless Chromium through the
// gateway of Omni started as `npm start` starts it (scripts/start.mjs, its own process), cold cache every
// run (a fresh browser context). Reports the largest contentful paint (median and worst of RUNS) and the JavaScript the page loads, split into the shell's own and the
// marketing remote's (the shell's split into its first chunk and what it loads lazily), both as
// transferred and gzipped (each fetched file gzipped here, level 9 like a
// static pre-compressor, so the figure does not depend on whether the gateway compresses).
// Targets (quality bar): LCP under 1 s; the shell's own JavaScript under 150 KB gzipped. Baseline in
// the same run: the same response with the build-time rendered markup removed (browser rendering only).
// Writes tests/.artifacts/landing-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { startOmni } from '../journeys/support/omni-process';
import { artifacts, launchBrowser } from '../support/browser';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Run {
  lcpMs: number;
  lcpElement: string;
  /** First contentful paint. */
  fcpMs: number;
  /** When the live page replaced the prerendered one (buttons and forms work from then on). */
  liveMs: number;
  scripts: { url: string; transferBytes: number }[];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

type Mode = 'prerendered' | 'client-only';

/**
 * One cold-cache load of /. 'prerendered' is the page exactly as the gateway serves it. 'client-only'
 * is the baseline the build-time rendering is judged against, in the same run: the same document with
 * the prerendered markup taken out, i.e. the page as the shell and the remote render it in the browser.
 * The baseline's document is answered from memory (no trip to the gateway), which if anything favours it.
 */
async function measure(browser: Browser, url: string, mode: Mode, clientOnlyHtml: string): Promise<Run> {
  // A new context has an empty HTTP cache: every run is a first visit.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    if (mode === 'client-only') {
      await page.route(url, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: clientOnlyHtml }),
      );
    }
    // Observers installed before the page's first byte: they see each LCP candidate while its element
    // is still in the document (the prerendered page is later replaced by the live one), and the
    // moment the live page took over.
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: { ms: number; element: string }[]; __liveMs?: number };
      w.__lcp = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
          const el = entry.element;
          w.__lcp.push({
            ms: entry.startTime,
            element: el ? `${el.tagName.toLowerCase()}: ${el.textContent?.slice(0, 40)}` : '?',
          });
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      // The live page has rendered once React's <main> is in #root.
      new MutationObserver((_records, observer) => {
        if (document.querySelector('#root main')) {
          w.__liveMs = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1, name: 'From the block to the blockchain' }).waitFor();
    await page.waitForFunction(() => (window as unknown as { __liveMs?: number }).__liveMs !== undefined);
    // LCP is final once nothing larger paints; give late candidates a moment, then read it.
    await page.waitForTimeout(500);
    return await page.evaluate(() => {
      const w = window as unknown as { __lcp: { ms: number; element: string }[]; __liveMs: number };
      const last = w.__lcp.at(-1);
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
        .map((r) => ({ url: r.name, transferBytes: r.transferSize }));
      return {
        lcpMs: last?.ms ?? Number.NaN,
        lcpElement: last?.element ?? '?',
        fcpMs: fcp?.startTime ?? Number.NaN,
        liveMs: w.__liveMs,
        scripts,
      };
    });
  } finally {
    await context.close();
  }
}

function summarise(runs: Run[]) {
  const lcps = runs.map((r) => r.lcpMs);
  return {
    lcpMedianMs: Math.round(median(lcps)),
    lcpWorstMs: Math.round(Math.max(...lcps)),
    lcpElement: (runs[0] as Run).lcpElement,
    fcpMedianMs: Math.round(median(runs.map((r) => r.fcpMs))),
    liveMedianMs: Math.round(median(runs.map((r) => r.liveMs))),
  };
}

async function main() {
  // Omni as `npm start` runs it (scripts/start.mjs, its own process), not inside this one.
  const platform = await startOmni({ name: 'bench-landing', env: { LOG_LEVEL: 'error' } });
  const browser = await launchBrowser();
  const runs: Record<Mode, Run[]> = { prerendered: [], 'client-only': [] };
  try {
    const served = await (await fetch(`${platform.url}/`)).text();
    const clientOnlyHtml = served.replace(
      /<div id="omni-prerender">[\s\S]*?<\/div><div id="root">/,
      '<div id="root">',
    );
    if (clientOnlyHtml === served) throw new Error('/ is not prerendered: is the marketing remote built?');
    // Interleaved, so a slow moment of the machine falls on both.
    for (let i = 0; i < RUNS; i++) {
      for (const mode of ['prerendered', 'client-only'] as const) {
        runs[mode].push(await measure(browser, `${platform.url}/`, mode, clientOnlyHtml));
      }
    }

    // Gzip what the browser fetched, grouped by owner (paths under /remotes/<name>/ are that remote's).
    const groups = new Map<string, { raw: number; gzip: number; transfer: number; files: number }>();
    // The shell's first chunk is what index.html names; the rest it loads lazily (react-query, toasts).
    const indexHtml = await (await fetch(`${platform.url}/`)).text();
    const seen = new Set<string>();
    for (const script of (runs.prerendered[0] as Run).scripts) {
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

    const result = {
      runs: RUNS,
      ...summarise(runs.prerendered),
      clientOnlyBaseline: summarise(runs['client-only']),
      javascript: Object.fromEntries(groups),
    };
    const base = result.clientOnlyBaseline;
    console.log(
      `Landing page (/), ${RUNS} cold-cache loads of each kind through the gateway at ${platform.url}`,
    );
    console.log(`  LCP median ${result.lcpMedianMs} ms, worst ${result.lcpWorstMs} ms (target < 1000 ms)`);
    console.log(`  LCP element: ${result.lcpElement}`);
    console.log(`  first contentful paint median ${result.fcpMedianMs} ms`);
    console.log(`  live page (the shell has rendered the page itself) median ${result.liveMedianMs} ms`);
    console.log(
      `  baseline, same page rendered in the browser only: LCP median ${base.lcpMedianMs} ms, worst ${base.lcpWorstMs} ms, live ${base.liveMedianMs} ms`,
    );
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
    await platform.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
