// `npm run bench:music`: the public Music page with 1,000 published tracks, read at 64 connections, beside
// the bare Node ceiling serving the same bytes in the same run. Measures GET /music (the page's HTML) and
// GET /api/pages/music/assets?limit=24 (the first page of cards, the request the page makes). Target: p99
// under 10 ms. The tracks are seeded through the real API, as an admin uploads them (sign → PUT →
// uploads, published at once). Writes tests/.artifacts/bench-music.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminUpload, cmsApi } from '../support/cms';
import { wav } from '../support/media';
import { repoRoot, startPlatformProcess } from '../support/process';
import { type LoadResult, load } from './load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const TRACKS = Number(process.env.BENCH_TRACKS ?? 1000);
const SEED_CONCURRENCY = 8;
const P99_TARGET_MS = 10;

async function startCeiling(
  path: string,
  body: string,
  type: string,
): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [join(__dirname, 'baseline-server.mjs')], {
    env: { ...process.env, BENCH_BODY: body, BENCH_SERVER: 'node', BENCH_PATH: path, BENCH_TYPE: type },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    }),
  );
  return { url: `http://127.0.0.1:${port}${path}`, stop: () => child.kill('SIGTERM') };
}

async function seed(url: string, admin: string): Promise<number> {
  const api = cmsApi(url);
  const bytes = wav(0.05);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < TRACKS) {
      const i = next++;
      await adminUpload(
        api,
        admin,
        { pageSlug: 'music', kind: 'music', title: `Track ${i + 1}`, description: 'A bench track' },
        { fileName: `track-${i + 1}.wav`, contentType: 'audio/wav', bytes },
      );
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return performance.now() - started;
}

async function main() {
  const omni = await startPlatformProcess({ env: { LOG_LEVEL: 'error' } });
  try {
    const admin = await omni.token({ roles: ['admin'] });
    const seededMs = await seed(omni.url, admin);
    const base = omni.url.replace('localhost', '127.0.0.1');
    const listUrl = `${base}/api/pages/music/assets?limit=24`;
    const pageUrl = `${base}/music`;
    const list = await fetch(listUrl);
    const listBody = await list.text();
    const { assets, nextCursor } = JSON.parse(listBody) as { assets: unknown[]; nextCursor: string | null };
    if (assets.length !== 24 || !nextCursor)
      throw new Error('The first page is not 24 tracks with a next page');
    const pageBody = await (await fetch(pageUrl)).text();

    const listCeiling = await startCeiling(
      '/api/pages/music/assets',
      listBody,
      'application/json; charset=utf-8',
    );
    const pageCeiling = await startCeiling('/music', pageBody, 'text/html; charset=utf-8');
    const results: LoadResult[] = [];
    try {
      results.push(await load('bare node: Music page HTML (ceiling)', pageCeiling.url, CONNECTIONS, SECONDS));
      results.push(await load('omni GET /music', pageUrl, CONNECTIONS, SECONDS));
      results.push(await load('bare node: first page JSON (ceiling)', listCeiling.url, CONNECTIONS, SECONDS));
      results.push(await load('omni GET /api/pages/music/assets?limit=24', listUrl, CONNECTIONS, SECONDS));
    } finally {
      listCeiling.stop();
      pageCeiling.stop();
    }
    const [pageTop, page, listTop, listed] = results as [LoadResult, LoadResult, LoadResult, LoadResult];
    console.log(
      `\nMusic with ${TRACKS} published tracks (seeded through the admin API in ${(seededMs / 1000).toFixed(1)} s) — ` +
        `${CONNECTIONS} connections, ${SECONDS} s each; page ${pageBody.length} bytes, first page ${listBody.length} bytes\n`,
    );
    console.log('| run | req/s | p50 ms | p99 ms | errors | non-2xx |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(`| ${r.label} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
    }
    console.log(
      `\nGET /music: ${(page.requestsPerSec / pageTop.requestsPerSec).toFixed(2)} of the ceiling, p99 ${page.p99} ms (target < ${P99_TARGET_MS} ms)`,
    );
    console.log(
      `GET /api/pages/music/assets: ${(listed.requestsPerSec / listTop.requestsPerSec).toFixed(2)} of the ceiling, p99 ${listed.p99} ms (target < ${P99_TARGET_MS} ms)\n`,
    );
    mkdirSync(join(repoRoot, 'tests/.artifacts'), { recursive: true });
    writeFileSync(
      join(repoRoot, 'tests/.artifacts/bench-music.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          tracks: TRACKS,
          seededMs,
          connections: CONNECTIONS,
          seconds: SECONDS,
          results,
        },
        null,
        2,
      ),
    );
  } finally {
    // A soft stop under PROF_DIR: a killed process writes no CPU profile.
    await omni.stop({ hard: !process.env.PROF_DIR });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
