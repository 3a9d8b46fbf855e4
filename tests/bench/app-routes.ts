// `node --import tsx tests/bench/app-routes.ts`: how long a signed-in artist waits, cold cache, in
// headless Chromium through the gateway of Omni started as `npm start` starts it (its own process):
//   - from opening a verification link (/login?verify=…) until the dashboard shows their content,
//   - from opening a magic link (/app?magic=…, as the login page requests it) until the same,
//   - from opening /app, /artist-upload and /uploader (already signed in: a session in localStorage,
//     nothing in the HTTP cache) until each shows its content.
// "Content" is what the person came for, read from the page: /app's welcome heading and its four stat
// cards filled from /api/dashboard; /artist-upload's heading and its platform list; /uploader's
// "Signed in as <email>" and its storage checklist. Each time is from the navigation's start
// (performance.now() in the page; a client-side redirect such as /login → /app keeps the clock).
// Baseline in the same run: the landing page (/) until the live page is on screen (the shell and the
// marketing remote, no session, no API call), through the same gateway.
// Median and worst of RUNS (interleaved, so a slow moment of the machine falls on all of them), and
// for each the median of when its API calls started, to show where the time goes.
// Target: each under 1 s. Writes tests/.artifacts/app-routes-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startOmni } from '../journeys/support/omni-process';
import { artifacts, launchBrowser } from '../support/browser';
import { type ApiSession, storedSession, verifiedSession } from '../support/session';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PASSWORD = 'correct-horse-42';

type Scenario = 'verify-link' | 'magic-link' | '/app' | '/artist-upload' | '/uploader' | 'baseline /';
const SCENARIOS: Scenario[] = [
  'baseline /',
  'verify-link',
  'magic-link',
  '/app',
  '/artist-upload',
  '/uploader',
];

/** Which page shows its content, as a check run in the page (a string: it is evaluated there). */
const READY: Record<'app' | 'artist-upload' | 'uploader' | 'landing', string> = {
  // The welcome heading, and every stat card showing a number rather than the loading dash.
  app: `location.pathname === '/app' &&
    /^Welcome back, .+!$/.test(document.querySelector('main h1')?.textContent ?? '') &&
    (() => { const cards = [...document.querySelectorAll('[data-testid="stat-card"] p')];
      return cards.length === 4 && cards.every((p) => /\\d/.test(p.textContent ?? '')); })()`,
  'artist-upload': `document.querySelector('main h1')?.textContent === 'Artist Upload' &&
    !!document.querySelector('fieldset[aria-label="Distribution platforms"] input')`,
  uploader: `/Signed in as .+@/.test(document.querySelector('[data-testid="uploader-session"]')?.textContent ?? '') &&
    !!document.querySelector('[data-testid="setup-checklist"]')`,
  // The shell has rendered the live page (the prerendered copy is gone and React's <main> is in #root).
  landing: `!!document.querySelector('#root main h1') && !document.getElementById('omni-prerender')`,
};

interface Run {
  /** Navigation start → content on screen. */
  readyMs: number;
  /** When each /api call started and ended (ms from navigation start), in order. */
  api: { path: string; startMs: number; endMs: number }[];
  /** Scripts fetched and their total transferred bytes. */
  scripts: number;
  scriptBytes: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function post(base: string, path: string, body: unknown, expected: number): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== expected) throw new Error(`POST ${path}: ${res.status}, expected ${expected}`);
  return res.status === 204 ? null : res.json();
}

/** The newest link of this kind mailed to `email` (the dev mailbox), as a path on the gateway. */
async function mailedLink(base: string, email: string, param: 'verify' | 'magic', not?: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const { messages } = (await res.json()) as { messages: { links: string[] }[] };
    for (const message of messages) {
      const link = message.links.map((l) => new URL(l)).find((u) => u.searchParams.has(param));
      if (link && link.search !== not) return `${link.pathname}${link.search}`;
    }
    if (Date.now() > deadline) throw new Error(`No ${param} mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One cold-cache visit: a new browser context (empty HTTP cache), optionally with a session already
 * in localStorage before the first script runs, then `path` opened and the page watched until `ready`.
 */
async function visit(
  browser: Browser,
  base: string,
  path: string,
  ready: string,
  session?: ApiSession,
): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    if (session) {
      // As the web app stores it (frontends/ui/src/session); written before any of the page's scripts.
      await context.addInitScript((stored) => {
        if (!localStorage.getItem('omni.session')) localStorage.setItem('omni.session', stored);
      }, storedSession(session));
    }
    // The watcher: records the first moment the page shows its content, checking on every DOM change.
    await context.addInitScript(`(() => {
      const ready = () => { try { return ${ready}; } catch { return false; } };
      const check = () => {
        if (window.__readyMs === undefined && ready()) window.__readyMs = performance.now();
      };
      new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
    })();`);
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    await page.waitForFunction(
      () => (window as unknown as { __readyMs?: number }).__readyMs !== undefined,
      null,
      {
        timeout: 20_000,
      },
    );
    return await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const scripts = entries.filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
      return {
        readyMs: (window as unknown as { __readyMs: number }).__readyMs,
        api: entries
          .filter((r) => new URL(r.name).pathname.startsWith('/api/'))
          .map((r) => ({
            path: new URL(r.name).pathname,
            startMs: Math.round(r.startTime),
            endMs: Math.round(r.responseEnd),
          })),
        scripts: scripts.length,
        scriptBytes: scripts.reduce((sum, r) => sum + r.transferSize, 0),
      };
    });
  } finally {
    await context.close();
  }
}

async function main() {
  // Omni as `npm start` runs it (scripts/start.mjs, its own process), not inside this one. Every run signs
  // up and asks for a magic link: lift the per-minute limits, which are not measured here.
  const platform = await startOmni({
    name: 'bench-app-routes',
    env: { LOG_LEVEL: 'error', AUTH_RATE_LIMIT_PER_IP: '10000', AUTH_RATE_LIMIT_PER_EMAIL: '10000' },
  });
  const base = platform.url;
  const browser = await launchBrowser();
  const runs = new Map<Scenario, Run[]>(SCENARIOS.map((s) => [s, []]));
  try {
    // One artist for the signed-in screens and the magic links (already verified).
    const artistEmail = `bench-artist-${Date.now()}@example.com`;
    const artist = await verifiedSession(base, artistEmail, PASSWORD);
    let lastMagic: string | undefined;

    for (let i = 0; i < RUNS; i++) {
      for (const scenario of SCENARIOS) {
        let run: Run;
        switch (scenario) {
          case 'baseline /':
            run = await visit(browser, base, '/', READY.landing);
            break;
          case 'verify-link': {
            // A new account each time: a verification link works once.
            const email = `bench-verify-${Date.now()}-${i}@example.com`;
            await post(base, '/api/auth/signup', { email, password: PASSWORD }, 201);
            run = await visit(browser, base, await mailedLink(base, email, 'verify'), READY.app);
            break;
          }
          case 'magic-link': {
            // As the login page asks for it: the link comes back to /app.
            await post(base, '/api/auth/magic-link', { email: artistEmail, redirectTo: '/app' }, 200);
            const link = await mailedLink(base, artistEmail, 'magic', lastMagic);
            lastMagic = new URL(link, base).search;
            run = await visit(browser, base, link, READY.app);
            break;
          }
          case '/app':
            run = await visit(browser, base, '/app', READY.app, artist);
            break;
          case '/artist-upload':
            run = await visit(browser, base, '/artist-upload', READY['artist-upload'], artist);
            break;
          case '/uploader':
            run = await visit(browser, base, '/uploader', READY.uploader, artist);
            break;
        }
        runs.get(scenario)?.push(run);
      }
    }

    const summary = Object.fromEntries(
      SCENARIOS.map((scenario) => {
        const list = runs.get(scenario) ?? [];
        const ready = list.map((r) => r.readyMs);
        // API calls by path: median start and end across runs, to show what waits on what.
        const paths = [...new Set(list.flatMap((r) => r.api.map((a) => a.path)))];
        const api = Object.fromEntries(
          paths.map((p) => {
            const calls = list.flatMap((r) => r.api.filter((a) => a.path === p).slice(0, 1));
            return [
              p,
              {
                startMedianMs: median(calls.map((c) => c.startMs)),
                endMedianMs: median(calls.map((c) => c.endMs)),
              },
            ];
          }),
        );
        return [
          scenario,
          {
            medianMs: Math.round(median(ready)),
            worstMs: Math.round(Math.max(...ready)),
            runsMs: ready.map(Math.round),
            api,
            scripts: median(list.map((r) => r.scripts)),
            scriptKB: Math.round(median(list.map((r) => r.scriptBytes)) / 1024),
          },
        ];
      }),
    );

    console.log(`Signed-in screens, ${RUNS} cold-cache visits of each through the gateway at ${base}`);
    console.log(
      '  scenario          median   worst   (target < 1000 ms)   scripts   API calls: start→end (median ms)',
    );
    for (const scenario of SCENARIOS) {
      const s = summary[scenario] as {
        medianMs: number;
        worstMs: number;
        api: Record<string, { startMedianMs: number; endMedianMs: number }>;
        scripts: number;
        scriptKB: number;
      };
      const api = Object.entries(s.api)
        .map(([p, t]) => `${p} ${t.startMedianMs}→${t.endMedianMs}`)
        .join(', ');
      console.log(
        `  ${scenario.padEnd(16)} ${String(s.medianMs).padStart(6)} ms ${String(s.worstMs).padStart(5)} ms ${' '.repeat(21)} ${String(s.scripts).padStart(3)} (${s.scriptKB} KB)   ${api}`,
      );
    }
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(
      join(artifacts, 'app-routes-bench.json'),
      `${JSON.stringify({ runs: RUNS, scenarios: summary }, null, 2)}\n`,
    );
  } finally {
    await browser.close();
    await platform.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
