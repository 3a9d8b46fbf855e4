// `npm run bench:documents`: the embedded document store (SQLite) with a catalog of 1,000, 10,000 and
// 100,000 releases (a release and its track each, with catalog's own indexes), each size in fresh processes:
//   fill  — one process writes the catalog (insertMany in batches of 1,000, fsync on as under npm start);
//   open  — another opens it as catalog does at start (declares the collections and their indexes) and
//           answers the artist dashboard's first page: start-up = open + that first query;
//           then the reads a running catalog makes (a release by UPC, a release's tracks, an artist's count,
//           the admin's newest-first page) and, after a full GC, its heap and resident memory.
// Goals (docs/architecture.md): resident memory flat within 100 MB across the three sizes (the store keeps
// the working set, not the catalog, in memory) and start-up under 2 s with 100,000 releases.
// BENCH_DOCUMENTS_SIZES overrides the sizes (comma-separated). Writes tests/.artifacts/bench-documents.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import type { Doc, DocumentStore } from '@omni/platform/src/ports/documents';

const root = join(__dirname, '../..');
const SIZES = (process.env.BENCH_DOCUMENTS_SIZES ?? '1000,10000,100000').split(',').map(Number);
const ARTISTS = 500;
const STORE_KEYS = Array.from({ length: 142 }, (_, i) => `store_${String(i).padStart(3, '0')}`);

/** The collections and indexes catalog declares (services/catalog/src/store/catalog-store.ts). */
function catalog(store: DocumentStore) {
  return {
    releases: store.collection<Doc>('releases', {
      indexes: [
        { fields: { upc: 1 }, unique: true, name: 'upc_unique' },
        { fields: { userId: 1, createdAt: -1, _id: 1 } },
        { fields: { userId: 1, createdAt: 1, _id: 1 } },
      ],
    }),
    tracks: store.collection<Doc>('tracks', {
      indexes: [
        { fields: { isrc: 1 }, unique: true, name: 'isrc_unique' },
        { fields: { releaseId: 1 } },
        { fields: { userId: 1 } },
      ],
    }),
  };
}

const upc = (i: number) => `19${String(i).padStart(10, '0')}`;

/** A release shaped as catalog writes one: every store chosen, metadata, a file reference. */
function release(i: number): Doc {
  const user = `user-${i % ARTISTS}`;
  return {
    _id: `release-${i}`,
    userId: user,
    artistId: `artist-${i % ARTISTS}`,
    title: `Release number ${i}`,
    releaseType: 'single',
    genre: 'Electronic',
    label: 'Independent',
    releaseDate: '2026-03-01',
    upc: upc(i),
    status: i % 3 === 0 ? 'live' : 'in_review',
    artwork: {
      key: `artwork/${user}/${i}.png`,
      size: 812_345,
      contentType: 'image/png',
      sha256: 'a'.repeat(64),
    },
    artworkUrl: `/files/artwork/${user}/${i}.png`,
    stores: STORE_KEYS,
    metadata: { language: 'en', copyright: `2026 ${user}`, phonographic: `2026 ${user}`, explicit: false },
    source: 'artist-upload',
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
  };
}

function track(i: number): Doc {
  return {
    _id: `track-${i}`,
    releaseId: `release-${i}`,
    artistId: `artist-${i % ARTISTS}`,
    userId: `user-${i % ARTISTS}`,
    trackNumber: 1,
    title: `Release number ${i}`,
    isrc: `QZ${String(i).padStart(10, '0')}`,
    audio: { key: `audio/${i}.wav`, size: 52_428_800, contentType: 'audio/wav', sha256: 'b'.repeat(64) },
    audioUrl: `/files/audio/${i}.wav`,
    explicit: false,
    genre: 'Electronic',
    lyrics: '',
    durationSeconds: 215,
  };
}

const silent = createLogger('bench-documents').child({}, { level: 'silent' });

async function fill(dataDir: string, count: number): Promise<object> {
  const started = performance.now();
  const store = createSqliteDocumentStore({ dataDir, logger: silent });
  const { releases, tracks } = catalog(store);
  for (let from = 0; from < count; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - from) }, (_, k) => from + k);
    await releases.insertMany(ids.map(release));
    await tracks.insertMany(ids.map(track));
  }
  await store.close();
  return { fillMs: Math.round(performance.now() - started) };
}

async function open(dataDir: string, count: number): Promise<object> {
  const started = performance.now();
  const store = createSqliteDocumentStore({ dataDir, logger: silent });
  const { releases, tracks } = catalog(store);
  await store.ready();
  const page = await releases.find({ userId: 'user-7' }, { sort: { createdAt: -1, _id: 1 }, limit: 20 });
  const startupMs = performance.now() - started;
  if (page.length === 0) throw new Error('the dashboard page came back empty');

  /** Mean milliseconds of `reps` runs. */
  const timed = async (work: () => Promise<unknown>, reps = 20) => {
    const t = performance.now();
    for (let i = 0; i < reps; i++) await work();
    return Number(((performance.now() - t) / reps).toFixed(2));
  };
  let n = 0;
  const byUpcMs = await timed(() => releases.findOne({ upc: upc(n++ % count) }));
  const tracksMs = await timed(() => tracks.find({ releaseId: `release-${n++ % count}` }));
  const countMs = await timed(() => releases.count({ userId: `user-${n++ % ARTISTS}` }));
  // No index leads on createdAt: this page is a scan of every release, for contrast (store.explain() says so).
  const scanPageMs = await timed(() => releases.find({}, { sort: { createdAt: -1 }, limit: 50 }), 3);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 100));
  global.gc?.();
  const memory = process.memoryUsage();
  await store.close();
  return {
    startupMs: Math.round(startupMs),
    byUpcMs,
    tracksMs,
    countMs,
    scanPageMs,
    heapMb: Math.round(memory.heapUsed / 1024 / 1024),
    rssMb: Math.round(memory.rss / 1024 / 1024),
  };
}

function fileMb(dir: string): number {
  const bytes = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  return Math.round(bytes / 1024 / 1024);
}

/** Runs one step in a process of its own, so each figure is that step's alone. */
function step(kind: 'fill' | 'open', dataDir: string, count: number): Record<string, number> {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', __filename, kind, dataDir, String(count)],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  if (run.status !== 0) throw new Error(`${kind} ${count} failed (${run.status})`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

async function main(): Promise<void> {
  const [kind, dataDir, count] = process.argv.slice(2);
  if (kind === 'fill' || kind === 'open') {
    const result =
      kind === 'fill' ? await fill(dataDir!, Number(count)) : await open(dataDir!, Number(count));
    console.log(JSON.stringify(result));
    return;
  }
  const rows: Array<Record<string, number>> = [];
  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'omni-bench-docs-'));
    try {
      const filled = step('fill', dir, size);
      rows.push({ releases: size, ...filled, fileMb: fileMb(dir), ...step('open', dir, size) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.table(rows);
  const rss = rows.map((r) => r.rssMb!);
  const largest = rows[rows.length - 1]!;
  console.log(
    `resident memory spread across sizes: ${Math.max(...rss) - Math.min(...rss)} MB (goal: within 100 MB); ` +
      `start-up with ${largest.releases} releases: ${largest.startupMs} ms (goal: under 2,000 ms)`,
  );
  mkdirSync(join(root, 'tests/.artifacts'), { recursive: true });
  writeFileSync(join(root, 'tests/.artifacts/bench-documents.json'), JSON.stringify({ rows }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
