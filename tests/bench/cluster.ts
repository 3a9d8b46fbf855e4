// `npm run bench:cluster`: the same work on Omni's two shapes in one run, driven through the HTTP API as
// the web app drives it: `npm start` (every service in one process, embedded adapters) and `npm run
// cluster` (real engines, every service its own process; tests/journeys/support/cluster-process.ts).
//   1. One release with a 50 MB master (BENCH_CLUSTER_MB) to all 142 stores: approval → every store
//      acknowledged.
//   2. BENCH_CLUSTER_RELEASES (1,000) releases to two stores each, created and approved 16 at a time:
//      first creation → every store acknowledged.
//   3. GET /api/releases/:id, 2,000 requests 8 at a time: p50 and p99 (in the cluster a request crosses
//      processes: gateway → catalog and delivery over gRPC).
// Memory: the resident set of every process (services and engines), at rest after start and its peak
// during the run, sampled from /proc each second. Ratios are cluster / embedded. The store simulator
// acknowledges at once (delay 0): the figures are Omni's pipeline, not a store's pace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM_KEYS } from '@omni/proto/api';
import type { RunningRecord } from '../../scripts/engines/running';
import { call, deliveries, keepSignedIn, login } from '../journeys/support/api';
import { type Cluster, clusterUnavailable, startCluster } from '../journeys/support/cluster-process';
import { eventually, type Omni, startOmni } from '../journeys/support/omni-process';
import { png, wav } from '../support/media';
import type { ApiSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const MASTER_MB = Number(process.env.BENCH_CLUSTER_MB ?? 50);
const RELEASES = Number(process.env.BENCH_CLUSTER_RELEASES ?? 1000);
const REQUESTS = Number(process.env.BENCH_CLUSTER_REQUESTS ?? 2000);
const DONE = new Set(['acknowledged', 'live']);
// The worker polls every 250 ms (it is also woken by each approval); an admin's screen and the bench's
// waits poll every 250 ms to 1 s, as a person's browser would, not in a tight loop that measures the
// polling itself.
const ENV = { STORE_SIMULATOR_DELAY_MS: '0', DELIVERY_POLL_MS: '250', LOG_LEVEL: 'error' };

interface Result {
  target: string;
  bigMs: number;
  manyMs: number;
  p50: number;
  p99: number;
  rest: Map<string, number>;
  peak: Map<string, number>;
}

function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process of the target by name: the cluster's services and engines, or the one process. */
function processes(omni: Omni): Map<string, number[]> {
  const cluster = omni as Partial<Cluster>;
  if (!cluster.record) return new Map([['omni (all services)', omni.pid ? [omni.pid] : []]]);
  const named = new Map<string, number[]>();
  for (const s of cluster.record().services) named.set(s.name, [s.pid]);
  const engines = JSON.parse(
    readFileSync(join(omni.dataDir, 'engines', 'engines.json'), 'utf8'),
  ) as RunningRecord;
  for (const e of engines.engines) named.set(e.name, e.pids);
  return named;
}

/** The resident set of a process and its children (a launcher script and the JVM it started). */
function treeRss(pid: number): number {
  let total = rssOf(pid);
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    for (const child of children) total += treeRss(Number(child));
  } catch {
    // gone
  }
  return total;
}

function sampleMemory(omni: Omni) {
  const names = processes(omni);
  const read = () =>
    new Map([...names].map(([name, pids]) => [name, pids.reduce((n, p) => n + treeRss(p), 0)]));
  const rest = read();
  const peak = new Map(rest);
  const timer = setInterval(() => {
    for (const [name, bytes] of read()) peak.set(name, Math.max(peak.get(name) ?? 0, bytes));
  }, 1000);
  return { rest, peak, stop: () => clearInterval(timer) };
}

const upload = (url: string, session: ApiSession, fileName: string, contentType: string, bytes: Buffer) =>
  uploadFile(url, session.accessToken, {
    bucket: 'omni-assets',
    fileName,
    contentType,
    bytes,
    role: contentType.startsWith('audio') ? 'audio' : 'artwork',
  }).then(({ bucket, fileKey }) => ({ bucket, fileKey }));

async function create(url: string, session: ApiSession, fields: Record<string, unknown>): Promise<string> {
  const res = await call(url, '/api/releases', session.accessToken, {
    method: 'POST',
    body: JSON.stringify({
      artistName: 'Bench Artist',
      releaseType: 'single',
      genre: 'Electronic',
      label: 'Bench Records',
      releaseDate: '2024-05-01',
      explicit: false,
      ...fields,
    }),
  });
  if (res.status !== 201) throw new Error(`release ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

async function approve(url: string, admin: ApiSession, releaseId: string): Promise<void> {
  await eventually(
    async () => {
      const res = await call(url, `/api/admin/releases/${releaseId}/approve`, admin.accessToken, {
        method: 'POST',
      });
      if (res.status === 200) return true;
      // Not in review yet: delivery has not taken release.created in.
      if (res.status === 404) return undefined;
      // A gateway that gave up waiting (504) while the approval went on, or a second try that found it
      // already decided (409): the review says.
      const review = (await deliveries(url, admin.accessToken, releaseId)).review;
      if (review?.status === 'approved') return true;
      if (![409, 504].includes(res.status))
        throw new Error(`approve ${releaseId}: ${res.status} ${await res.text()}`);
      return undefined;
    },
    `release ${releaseId} to reach review`,
    300_000,
    250,
  );
}

/**
 * Waits until every job of every release is acknowledged, looking at one release at a time: the releases
 * settle roughly in order, so the first unsettled one is polled (each look is one delivery query) rather
 * than every pending release on every round, which on FerretDB measured the bench's own polling.
 */
async function settled(url: string, session: ApiSession, ids: string[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const { jobs } = await deliveries(url, session.accessToken, id);
      const stuck = jobs.find((j) => j.status === 'rejected' || j.deadLettered);
      if (stuck) throw new Error(`${id} → ${stuck.target}: ${stuck.status} (${stuck.reason})`);
      if (jobs.length > 0 && jobs.every((j) => DONE.has(j.status))) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Part 1: one release with a MASTER_MB master, approval → all 142 stores acknowledged (ms). */
async function toEveryStore(
  target: string,
  url: string,
  admin: ApiSession,
  cover: { bucket: string; fileKey: string },
): Promise<number> {
  const seconds = Math.round((MASTER_MB * 1024 * 1024) / (44_100 * 4));
  const master = await upload(url, admin, 'master.wav', 'audio/wav', wav(seconds, { tone: true }));
  const big = await create(url, admin, {
    releaseTitle: 'Long Night',
    trackTitle: 'Long Night',
    audio: master,
    artwork: cover,
    stores: [...PLATFORM_KEYS],
  });
  const t0 = performance.now();
  await approve(url, admin, big);
  await settled(url, admin, [big]);
  const ms = performance.now() - t0;
  process.stdout.write(`${target}: 142 stores in ${(ms / 1000).toFixed(1)} s\n`);
  return ms;
}

async function run(target: 'embedded' | 'cluster'): Promise<Result> {
  const omni =
    target === 'cluster'
      ? await startCluster({ name: 'bench', env: ENV })
      : await startOmni({ name: 'bench-cluster-embedded', env: ENV });
  // A bench stopped by Ctrl-C or a timeout must not leave a cluster of detached engines behind.
  const interrupted = () => {
    omni.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  const memory = sampleMemory(omni);
  try {
    const admin = await login(omni.url, omni.admin.email, omni.admin.password);
    keepSignedIn(omni.url, admin, omni.admin.email, omni.admin.password);
    const url = omni.url;
    // 1. One big release to every store (BENCH_CLUSTER_MB=0 leaves it out).
    const cover = await upload(url, admin, 'cover.png', 'image/png', png(3000, 3000));
    const bigMs = MASTER_MB > 0 ? await toEveryStore(target, url, admin, cover) : 0;

    // 2. Many small releases.
    const short = await upload(url, admin, 'short.wav', 'audio/wav', wav(40, { tone: true }));
    const ids: string[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < RELEASES) {
          const i = next++;
          const id = await create(url, admin, {
            releaseTitle: `Queue ${i}`,
            trackTitle: `Queue ${i}`,
            audio: short,
            artwork: cover,
            stores: ['spotify', 'deezer'],
          });
          ids.push(id);
          await approve(url, admin, id);
        }
      }),
    );
    await settled(url, admin, ids);
    const manyMs = performance.now() - t0;
    process.stdout.write(`${target}: ${RELEASES} releases in ${(manyMs / 1000).toFixed(1)} s\n`);

    // 3. Latency of one release's page data.
    const times: number[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < REQUESTS) {
          const id = ids[sent++ % ids.length]!;
          const at = performance.now();
          const res = await call(url, `/api/releases/${id}`, admin.accessToken);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`GET /api/releases/${id}: ${res.status}`);
          times.push(performance.now() - at);
        }
      }),
    );
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return { target, bigMs, manyMs, p50: at(0.5), p99: at(0.99), rest: memory.rest, peak: memory.peak };
  } catch (err) {
    return omni.explain(err);
  } finally {
    memory.stop();
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    await omni.stop();
  }
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function main() {
  const unavailable = clusterUnavailable();
  if (unavailable) throw new Error(`bench:cluster needs the engines: ${unavailable}`);
  // BENCH_CLUSTER_ONLY=cluster runs one shape, to look into it; the comparison needs both.
  const only = process.env.BENCH_CLUSTER_ONLY;
  if (only === 'cluster' || only === 'embedded') {
    const result = await run(only);
    console.log(
      `${only}: GET /api/releases/:id p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`,
    );
    return;
  }
  const embedded = await run('embedded');
  const cluster = await run('cluster');
  const ratio = (a: number, b: number) => `${(b / a).toFixed(2)}×`;
  console.log(
    `\nbench:cluster — ${MASTER_MB} MB master to 142 stores; ${RELEASES} two-store releases; ${REQUESTS} GETs`,
  );
  console.table([
    {
      measure: `1 release → 142 stores acknowledged (s)`,
      embedded: +(embedded.bigMs / 1000).toFixed(1),
      cluster: +(cluster.bigMs / 1000).toFixed(1),
      'cluster / embedded': ratio(embedded.bigMs, cluster.bigMs),
    },
    {
      measure: `${RELEASES} releases created → all acknowledged (s)`,
      embedded: +(embedded.manyMs / 1000).toFixed(1),
      cluster: +(cluster.manyMs / 1000).toFixed(1),
      'cluster / embedded': ratio(embedded.manyMs, cluster.manyMs),
    },
    {
      measure: 'GET /api/releases/:id p50 (ms)',
      embedded: +embedded.p50.toFixed(1),
      cluster: +cluster.p50.toFixed(1),
      'cluster / embedded': ratio(embedded.p50, cluster.p50),
    },
    {
      measure: 'GET /api/releases/:id p99 (ms)',
      embedded: +embedded.p99.toFixed(1),
      cluster: +cluster.p99.toFixed(1),
      'cluster / embedded': ratio(embedded.p99, cluster.p99),
    },
  ]);
  console.log('\nResident memory of each process: at rest after start, and its peak during the run');
  const rows = [embedded, cluster].flatMap((r) =>
    [...r.rest].map(([name, rest]) => ({
      target: r.target,
      process: name,
      'at rest': mb(rest),
      peak: mb(r.peak.get(name) ?? rest),
    })),
  );
  console.table(rows);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(
    `total at rest: embedded ${mb(total(embedded.rest))}, cluster ${mb(total(cluster.rest))} (${ratio(total(embedded.rest), total(cluster.rest))})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
