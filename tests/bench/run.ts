// `npm run bench`: measures, in one run on this machine, the public Music endpoint of the all-in-one
// platform against a bare Express JSON endpoint serving the same bytes, and a bare Node handler as the
// ceiling. Prints requests/s, p50/p99 and the ratio, and writes tests/.artifacts/bench.json. Targets
// (quality bar): ratio ≥ 0.5, p99 < 25 ms at 64 connections.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminUpload, cmsApi } from '../support/cms';
import { wav } from '../support/media';
import { repoRoot, startPlatformProcess } from '../support/process';
import { type LoadResult, load } from './load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

async function startBaseline(
  body: string,
  server: 'express' | 'node',
): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [join(__dirname, 'baseline-server.mjs')], {
    env: { ...process.env, BENCH_BODY: body, BENCH_SERVER: server },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    }),
  );
  return { url: `http://127.0.0.1:${port}/api/pages/music/assets`, stop: () => child.kill('SIGTERM') };
}

async function main() {
  const omni = await startPlatformProcess({ env: { LOG_LEVEL: 'error' } });
  try {
    // A realistic page: 24 published tracks, uploaded as an admin does (published at once).
    const admin = await omni.token({ roles: ['admin'] });
    for (let i = 0; i < 24; i++) {
      await adminUpload(
        cmsApi(omni.url),
        admin,
        { pageSlug: 'music', kind: 'music', title: `Track ${i + 1}`, description: 'A bench track' },
        { fileName: `track-${i + 1}.wav`, contentType: 'audio/wav', bytes: wav(0.05) },
      );
    }
    const musicUrl = `${omni.url.replace('localhost', '127.0.0.1')}/api/pages/music/assets`;
    const body = await (await fetch(musicUrl)).text();
    const baseline = await startBaseline(body, 'express');
    const ceiling = await startBaseline(body, 'node');
    const results: LoadResult[] = [];
    try {
      results.push(await load('bare express (baseline)', baseline.url, CONNECTIONS, SECONDS));
      results.push(await load('omni GET /api/pages/music/assets', musicUrl, CONNECTIONS, SECONDS));
      results.push(await load('bare node http (ceiling)', ceiling.url, CONNECTIONS, SECONDS));
    } finally {
      baseline.stop();
      ceiling.stop();
    }
    const [base, omniResult, top] = results as [LoadResult, LoadResult, LoadResult];
    const ratio = omniResult.requestsPerSec / base.requestsPerSec;
    console.log(
      `\nPublic Music endpoint vs bare Express — ${CONNECTIONS} connections, ${SECONDS} s each, body ${body.length} bytes\n`,
    );
    console.log('| run | req/s | p50 ms | p99 ms | errors | non-2xx |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(`| ${r.label} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
    }
    console.log(`\nratio (omni / baseline): ${ratio.toFixed(2)}  (target ≥ 0.50)`);
    console.log(`omni / bare node ceiling: ${(omniResult.requestsPerSec / top.requestsPerSec).toFixed(2)}`);
    console.log(`omni p99: ${omniResult.p99} ms  (target < 25 ms)\n`);
    mkdirSync(join(repoRoot, 'tests/.artifacts'), { recursive: true });
    writeFileSync(
      join(repoRoot, 'tests/.artifacts/bench.json'),
      JSON.stringify(
        { at: new Date().toISOString(), connections: CONNECTIONS, seconds: SECONDS, results, ratio },
        null,
        2,
      ),
    );
  } finally {
    await omni.stop({ hard: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
