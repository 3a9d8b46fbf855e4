// `npm run bench:delivery`: delivery to the stores through the store simulator, in two parts, on Omni
// started as its users start it (scripts/start.mjs, a child process on a fresh data folder:
// tests/journeys/support/omni-process.ts), driven through its HTTP API as the web app drives it.
//
// 1. One release with a 50 MB master (BENCH_DELIVERY_MB) to all 142 stores: from the admin's approval to
//    every store's acknowledgement (packaging, XSD validation, the batch with BatchComplete last, the
//    simulator's own hash checks — once per staged inode, which every store's hard link shares — and
//    acknowledgement, the ack read back), beside the floor in the same run:
//    copying the same master and cover once per store with fs.copyFile (what any delivery must at least
//    write), and that copy plus one SHA-256 read per store (what a store's ingest checks). The simulator's
//    acknowledgement delay is 0 here: the figure is our pipeline, not a store's pace. (How many job
//    documents each job transition reads needs the documents port instrumented inside the process; that
//    count is held by tests/integration/delivery-counts.test.ts, not measured here.)
// 3. One album, BENCH_ALBUM_TRACKS (12) masters of BENCH_DELIVERY_MB each, to all 142 stores, beside its
//    floor in the same run: each master and the cover copied once per store. The floor's copies of one store
//    are removed once the next store's are made (12 × 50 MB × 142 is 85 GB, more than a build machine's
//    disk), so the floor is a lower bound: what was written may still sit in the page cache when removed.
//    BENCH_DELIVERY_PARTS=3 runs this part alone.
// 2. Memory with many releases queued: BENCH_DELIVERY_RELEASES (1,000) releases, two stores each, approved
//    at once; the platform's heap after a full GC is sampled while they deliver, beside a run of a tenth as
//    many. The sample comes from the platform's own process (heap-probe.mjs, loaded with NODE_OPTIONS,
//    answers SIGUSR2). The worker reads a bounded page of due jobs per tick, so its own footprint does not
//    grow with the queue; what does grow is the embedded document store, which keeps every document in
//    memory (MongoDB would not), so the per-release figure is printed separately.
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PLATFORM_KEYS, type ReleaseDeliveryJson } from '@omni/proto/api';
import { call, deliveries, keepSignedIn, login } from '../journeys/support/api';
import { eventually, type Omni, startOmni } from '../journeys/support/omni-process';
import { png, wav } from '../support/media';
import { type ApiSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';
import { HeapProbe } from './heap';

const MASTER_MB = Number(process.env.BENCH_DELIVERY_MB ?? 50);
const ALBUM_TRACKS = Number(process.env.BENCH_ALBUM_TRACKS ?? 12);
const RELEASES = Number(process.env.BENCH_DELIVERY_RELEASES ?? 1000);
const STORES = PLATFORM_KEYS.length;
const DONE = new Set(['acknowledged', 'live']);
const ARTIST_PASSWORD = 'correct-horse-42';
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Omni through its entry, with the settings every part uses (an operator could set them the same way). */
const startBenchOmni = (name: string, env: Record<string, string> = {}) =>
  startOmni({
    name,
    env: { STORE_SIMULATOR_DELAY_MS: '0', DELIVERY_POLL_MS: '50', LOG_LEVEL: 'error', ...env },
  });

interface People {
  artist: ApiSession;
  admin: ApiSession;
}

/**
 * A verified artist (through the dev mailbox) and the first administrator (initial-admin.txt), both signed
 * in again every 3 minutes as the web app refreshes: a 1,000-release run outlasts an access token.
 */
async function people(omni: Omni): Promise<People> {
  const email = `bench-${Date.now()}@example.com`;
  const artist = await verifiedSession(omni.url, email, ARTIST_PASSWORD);
  const admin = await login(omni.url, omni.admin.email, omni.admin.password);
  keepSignedIn(omni.url, artist, email, ARTIST_PASSWORD);
  keepSignedIn(omni.url, admin, omni.admin.email, omni.admin.password);
  return { artist, admin };
}

/** Approves once delivery has taken the release in (its review exists a moment after the release). */
async function approve(omni: Omni, admin: ApiSession, releaseId: string) {
  await eventually(
    async () => {
      const res = await call(omni.url, `/api/admin/releases/${releaseId}/approve`, admin.accessToken, {
        method: 'POST',
      });
      if (res.status === 200) return true;
      if (res.status !== 404) throw new Error(`approve ${releaseId}: ${res.status} ${await res.text()}`);
      return undefined;
    },
    `release ${releaseId} to reach review`,
    60_000,
    20,
  );
}

const SENT = new Set(['sent', 'acknowledged', 'live']);

async function settled(
  omni: Omni,
  artist: ApiSession,
  releaseIds: string[],
  onTick?: () => Promise<void>,
  onAllSent?: () => void,
) {
  const pending = new Set(releaseIds);
  let allSent = false;
  while (pending.size > 0) {
    for (const releaseId of [...pending]) {
      const { jobs }: ReleaseDeliveryJson = await deliveries(omni.url, artist.accessToken, releaseId);
      if (!allSent && releaseIds.length === 1 && jobs.length > 0 && jobs.every((j) => SENT.has(j.status))) {
        allSent = true;
        onAllSent?.();
      }
      const stuck = jobs.find((j) => j.status === 'rejected' || j.deadLettered);
      if (stuck) throw new Error(`${releaseId} → ${stuck.target}: ${stuck.status} (${stuck.reason})`);
      if (jobs.length > 0 && jobs.every((j) => DONE.has(j.status))) pending.delete(releaseId);
    }
    await onTick?.();
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
}

async function createRelease(omni: Omni, artist: ApiSession, fields: Record<string, unknown>) {
  const res = await call(omni.url, '/api/releases', artist.accessToken, {
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

const upload = (omni: Omni, artist: ApiSession, fileName: string, contentType: string, bytes: Buffer) =>
  uploadFile(omni.url, artist.accessToken, {
    bucket: 'omni-assets',
    fileName,
    contentType,
    bytes,
    role: contentType.startsWith('audio') ? 'audio' : 'artwork',
  }).then(({ bucket, fileKey }) => ({ bucket, fileKey }));

async function copyFloor(master: Buffer, cover: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-copy-'));
  try {
    const masterPath = join(dir, 'master.wav');
    const coverPath = join(dir, 'cover.png');
    writeFileSync(masterPath, master);
    writeFileSync(coverPath, cover);
    const t0 = performance.now();
    for (let i = 0; i < STORES; i++) {
      await mkdir(join(dir, `s${i}`));
      await copyFile(masterPath, join(dir, `s${i}`, 'master.wav'));
      await copyFile(coverPath, join(dir, `s${i}`, 'cover.png'));
    }
    const copy = performance.now() - t0;
    const t1 = performance.now();
    for (let i = 0; i < STORES; i++) {
      for (const name of ['master.wav', 'cover.png']) {
        const hash = createHash('sha256');
        await pipeline(createReadStream(join(dir, `s${i}`, name)), hash);
      }
    }
    return { copy, copyAndHash: copy + (performance.now() - t1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Part 3's floor: the album's masters and cover copied once per store (one store's copies kept at a time). */
async function albumCopyFloor(masters: Buffer[], cover: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-album-copy-'));
  try {
    const sources = masters.map((m, i) => {
      const path = join(dir, `track-${i + 1}.wav`);
      writeFileSync(path, m);
      return path;
    });
    const coverPath = join(dir, 'cover.png');
    writeFileSync(coverPath, cover);
    const t0 = performance.now();
    for (let i = 0; i < STORES; i++) {
      const store = join(dir, `s${i}`);
      await mkdir(store);
      for (const [n, path] of sources.entries()) await copyFile(path, join(store, `track-${n + 1}.wav`));
      await copyFile(coverPath, join(store, 'cover.png'));
      if (i > 0) rmSync(join(dir, `s${i - 1}`), { recursive: true, force: true });
    }
    return performance.now() - t0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function oneAlbum() {
  const omni = await startBenchOmni('bench-delivery-album');
  try {
    const { artist, admin } = await people(omni);
    const seconds = Math.round((MASTER_MB * 1024 * 1024) / (44_100 * 4));
    const masters: Buffer[] = [];
    const tracks = [];
    for (let i = 1; i <= ALBUM_TRACKS; i++) {
      // A different tone per track: twelve recordings, not one file twelve times.
      const master = wav(seconds + i, { tone: true });
      masters.push(master);
      tracks.push({
        title: `Track ${i}`,
        audio: await upload(omni, artist, `track ${i}.wav`, 'audio/wav', master),
      });
    }
    const cover = png(3000, 3000);
    const artwork = await upload(omni, artist, 'cover.png', 'image/png', cover);
    const releaseId = await createRelease(omni, artist, {
      releaseTitle: 'Long Album',
      releaseType: 'album',
      tracks,
      artwork,
      stores: [],
    });
    const t0 = performance.now();
    await approve(omni, admin, releaseId);
    await settled(omni, artist, [releaseId]);
    const pipelineMs = performance.now() - t0;
    const floorMs = await albumCopyFloor(masters, cover);
    const bytes = masters.reduce((n, m) => n + m.length, 0);
    console.log(`\n3. One album, ${ALBUM_TRACKS} masters (${mb(bytes)}) + cover → ${STORES} stores`);
    console.table([
      { measure: 'approval → every store acknowledged (Omni)', seconds: +(pipelineMs / 1000).toFixed(2) },
      { measure: 'floor: copy masters + cover once per store', seconds: +(floorMs / 1000).toFixed(2) },
    ]);
    console.log(`Omni / copy floor: ${(pipelineMs / floorMs).toFixed(2)}× (${sec(pipelineMs)})`);
  } catch (err) {
    omni.explain(err);
  } finally {
    await omni.stop();
  }
}

async function oneBigRelease() {
  const omni = await startBenchOmni('bench-delivery-one');
  try {
    const { artist, admin } = await people(omni);
    const seconds = Math.round((MASTER_MB * 1024 * 1024) / (44_100 * 4));
    const master = wav(seconds, { tone: true });
    const cover = png(3000, 3000);
    const audio = await upload(omni, artist, 'master.wav', 'audio/wav', master);
    const artwork = await upload(omni, artist, 'cover.png', 'image/png', cover);
    const releaseId = await createRelease(omni, artist, {
      releaseTitle: 'Long Night',
      trackTitle: 'Long Night',
      audio,
      artwork,
      stores: [],
    });
    const t0 = performance.now();
    await approve(omni, admin, releaseId);
    let sentMs = 0;
    await settled(omni, artist, [releaseId], undefined, () => {
      sentMs = performance.now() - t0;
    });
    const pipelineMs = performance.now() - t0;
    const floor = await copyFloor(master, cover);
    console.log(
      `\n1. One release, ${mb(master.length)} master + ${mb(cover.length)} cover → ${STORES} stores`,
    );
    console.table([
      {
        measure: 'approval → every batch complete on its store (Omni)',
        seconds: +(sentMs / 1000).toFixed(2),
      },
      { measure: 'approval → every store acknowledged (Omni)', seconds: +(pipelineMs / 1000).toFixed(2) },
      { measure: 'floor: copy master + cover once per store', seconds: +(floor.copy / 1000).toFixed(2) },
      {
        measure: 'floor: copy once per store + one SHA-256 read each',
        seconds: +(floor.copyAndHash / 1000).toFixed(2),
      },
    ]);
    console.log(
      `Omni / copy floor: ${(pipelineMs / floor.copy).toFixed(2)}×; Omni / copy+hash floor: ${(pipelineMs / floor.copyAndHash).toFixed(2)}× (${sec(pipelineMs)})`,
    );
  } catch (err) {
    omni.explain(err);
  } finally {
    await omni.stop();
  }
}

async function manyReleases(count: number) {
  const probe = new HeapProbe();
  const omni = await startBenchOmni(`bench-delivery-${count}`, probe.env);
  try {
    const { artist, admin } = await people(omni);
    const audio = await upload(omni, artist, 'short.wav', 'audio/wav', wav(40, { tone: true }));
    const artwork = await upload(omni, artist, 'cover.png', 'image/png', png(3000, 3000));
    const before = await probe.heap();
    const ids: string[] = [];
    let next = 0;
    const create = async () => {
      while (next < count) {
        const i = next++;
        ids.push(
          await createRelease(omni, artist, {
            releaseTitle: `Queue ${i}`,
            trackTitle: `Queue ${i}`,
            audio,
            artwork,
            stores: ['spotify', 'deezer'],
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: 16 }, create));
    let i = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (i < ids.length) await approve(omni, admin, ids[i++]!);
      }),
    );
    const queued = await probe.heap();
    let peak = queued;
    let ticks = 0;
    const t0 = performance.now();
    await settled(omni, artist, ids, async () => {
      if (ticks++ % 5 === 0) peak = Math.max(peak, await probe.heap());
    });
    const seconds = (performance.now() - t0) / 1000;
    const after = await probe.heap();
    return { count, before, queued, peak, after, seconds };
  } catch (err) {
    return omni.explain(err);
  } finally {
    await omni.stop();
    probe.close();
  }
}

async function main() {
  const parts = process.env.BENCH_DELIVERY_PARTS ?? '1,3,2';
  if (parts.includes('1')) await oneBigRelease();
  if (parts.includes('3')) await oneAlbum();
  if (!parts.includes('2')) return;
  const small = await manyReleases(Math.max(1, Math.round(RELEASES / 10)));
  const large = await manyReleases(RELEASES);
  console.log(`\n2. Heap after a full GC, releases to 2 stores each, all approved at once`);
  console.table(
    [small, large].map((r) => ({
      releases: r.count,
      'before (files uploaded)': mb(r.before),
      'all queued, approved': mb(r.queued),
      'peak while delivering': mb(r.peak),
      'all acknowledged': mb(r.after),
      'delivered in': sec(r.seconds * 1000),
    })),
  );
  const perRelease =
    (large.queued - large.before - (small.queued - small.before)) / (large.count - small.count);
  const written = (r: typeof small) => (r.after - r.queued) / r.count;
  console.log(
    `documents the embedded store holds (MongoDB keeps them on disk): ${(perRelease / 1024).toFixed(1)} KB per queued release, ${(written(large) / 1024).toFixed(1)} KB more per delivered one (steps, events, versions)`,
  );
  console.log(
    `the worker's own heap while delivering (peak above what stays after): ${mb(small.peak - small.after)} with ${small.count} releases, ${mb(large.peak - large.after)} with ${large.count}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
