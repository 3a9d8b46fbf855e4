// `npm run bench:delivery`: delivery to the stores through the store simulator, in two parts.
//
// 1. One release with a 50 MB master (BENCH_DELIVERY_MB) to all 142 stores: from the admin's approval to
//    every store's acknowledgement (packaging, XSD validation, the batch with BatchComplete last, the
//    simulator's own hash checks and acknowledgement, the ack read back), beside the floor in the same run:
//    copying the same master and cover once per store with fs.copyFile (what any delivery must at least
//    write), and that copy plus one SHA-256 read per store (what a store's ingest checks). The simulator's
//    acknowledgement delay is 0 here: the figure is our pipeline, not a store's pace. Delivery opens its
//    documents through a counting decorator (tests/support/counting-documents.ts), so the run also says
//    how many job documents each job transition's transaction read (the release-status roll-up).
// 2. Memory with many releases queued: BENCH_DELIVERY_RELEASES (1,000) releases, two stores each, approved
//    at once; the heap after a full GC is sampled while they deliver, beside a run of a tenth as many. The
//    worker reads a bounded page of due jobs per tick, so its own footprint does not grow with the queue;
//    what does grow is the embedded document store, which keeps every document in memory (MongoDB would
//    not), so the per-release figure is printed separately.
//
// The platform runs in this process (real gateway, catalog, storage, delivery with its simulator; node
// --expose-gc). Files go through the real signed-upload flow.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGrpcClient } from '@omni/platform';
import { catalog, delivery } from '@omni/proto';
import { PLATFORM_KEYS } from '@omni/proto/api';
import { deliveryService } from '@omni/service-delivery';
import { storageService } from '@omni/service-storage';
import { type ReleasePlatform, startReleasePlatform } from '../integration/releases.fixtures';
import { CountingDocuments, jobTransitions, readsSummary } from '../support/counting-documents';
import { png, wav } from '../support/media';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:delivery does)');
const MASTER_MB = Number(process.env.BENCH_DELIVERY_MB ?? 50);
const RELEASES = Number(process.env.BENCH_DELIVERY_RELEASES ?? 1000);
const STORES = PLATFORM_KEYS.length;
const DONE = new Set(['acknowledged', 'live']);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type DeliveryClient = ReturnType<typeof deliveryClient>;
const deliveryClient = (platform: ReleasePlatform) =>
  createGrpcClient(delivery.DeliveryServiceService, platform.config.grpcAddress('delivery'));

async function upload(platform: ReleasePlatform, token: string, name: string, type: string, bytes: Buffer) {
  const role = type.startsWith('audio') ? 'audio' : 'artwork';
  const sign = await platform.api('/api/uploads/sign', {
    method: 'POST',
    token,
    json: {
      bucket: 'omni-assets',
      fileName: name,
      contentType: type,
      size: bytes.length,
      purpose: 'artist-upload',
    },
  });
  if (sign.status !== 200) throw new Error(`sign ${sign.status}: ${await sign.text()}`);
  const signed = (await sign.json()) as { signedUrl: string; fileKey: string };
  const url = new URL(signed.signedUrl);
  const put = await fetch(`${platform.url}${url.pathname}${url.search}`, {
    method: 'PUT',
    headers: { 'content-type': type, authorization: `Bearer ${token}` },
    body: bytes,
  });
  if (put.status !== 200) throw new Error(`PUT ${put.status}: ${await put.text()}`);
  const done = await platform.api('/api/uploads/complete', {
    method: 'POST',
    token,
    json: { bucket: 'omni-assets', fileKey: signed.fileKey, role },
  });
  if (done.status !== 200) throw new Error(`complete ${done.status}: ${await done.text()}`);
  return { bucket: 'omni-assets', fileKey: signed.fileKey };
}

/** Waits until the release's review exists (delivery has run its checks), then approves it. */
async function approve(client: DeliveryClient, releaseId: string) {
  for (const started = Date.now(); ; ) {
    const { review } = await client.listJobs({ releaseId });
    if (review?.status === 'in_review') break;
    if (review && review.status !== 'in_review')
      throw new Error(`release ${releaseId} is ${review.status}: ${review.reason}`);
    if (Date.now() - started > 60_000) throw new Error(`release ${releaseId} never reached review`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await client.approveRelease({ releaseId, adminId: 'bench-admin' });
}

const SENT = new Set(['sent', 'acknowledged', 'live']);

async function settled(
  client: DeliveryClient,
  releaseIds: string[],
  onTick?: () => void,
  onAllSent?: () => void,
) {
  const pending = new Set(releaseIds);
  let allSent = false;
  while (pending.size > 0) {
    for (const releaseId of [...pending]) {
      const { jobs } = await client.listJobs({ releaseId });
      if (!allSent && releaseIds.length === 1 && jobs.length > 0 && jobs.every((j) => SENT.has(j.status))) {
        allSent = true;
        onAllSent?.();
      }
      const stuck = jobs.find((j) => j.status === 'rejected' || j.deadLettered);
      if (stuck) throw new Error(`${releaseId} → ${stuck.target}: ${stuck.status} (${stuck.reason})`);
      if (jobs.length > 0 && jobs.every((j) => DONE.has(j.status))) pending.delete(releaseId);
    }
    onTick?.();
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
}

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

async function oneBigRelease() {
  const counted = new CountingDocuments();
  const platform = await startReleasePlatform(
    undefined,
    { LOG_LEVEL: 'error', STORE_SIMULATOR_DELAY_MS: '0', DELIVERY_POLL_MS: '50' },
    { storage: storageService, delivery: counted.module(deliveryService) },
  );
  const client = deliveryClient(platform);
  try {
    const ownerId = randomUUID();
    const token = await platform.token(ownerId);
    const seconds = Math.round((MASTER_MB * 1024 * 1024) / (44_100 * 4));
    const master = wav(seconds, { tone: true });
    const cover = png(3000, 3000);
    const audio = await upload(platform, token, 'master.wav', 'audio/wav', master);
    const artwork = await upload(platform, token, 'cover.png', 'image/png', cover);
    const res = await platform.api('/api/releases', {
      method: 'POST',
      token,
      json: {
        artistName: 'Bench Artist',
        releaseTitle: 'Long Night',
        trackTitle: 'Long Night',
        releaseType: 'single',
        genre: 'Electronic',
        label: 'Bench Records',
        releaseDate: '2024-05-01',
        explicit: false,
        audio,
        artwork,
        stores: [],
      },
    });
    if (res.status !== 201) throw new Error(`release ${res.status}: ${await res.text()}`);
    const { release } = (await res.json()) as { release: { id: string } };
    counted.reset();
    const t0 = performance.now();
    await approve(client, release.id);
    let sentMs = 0;
    await settled(client, [release.id], undefined, () => {
      sentMs = performance.now() - t0;
    });
    const pipelineMs = performance.now() - t0;
    const reads = readsSummary(jobTransitions(counted), 'delivery_jobs');
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
    console.log(
      `job documents read per job transition (its transaction, release-status roll-up included): mean ${reads.mean.toFixed(1)}, max ${reads.max}, ${reads.total} over ${reads.transitions} transitions`,
    );
  } finally {
    client.close();
    await platform.close();
  }
}

async function manyReleases(count: number) {
  const platform = await startReleasePlatform(
    undefined,
    { LOG_LEVEL: 'error', STORE_SIMULATOR_DELAY_MS: '0', DELIVERY_POLL_MS: '50' },
    { storage: storageService },
  );
  const client = deliveryClient(platform);
  const catalogClient = createGrpcClient(
    catalog.CatalogServiceService,
    platform.config.grpcAddress('catalog'),
  );
  const heap = () => {
    gc!();
    return process.memoryUsage().heapUsed;
  };
  try {
    const ownerId = randomUUID();
    const token = await platform.token(ownerId);
    const audio = await upload(platform, token, 'short.wav', 'audio/wav', wav(40, { tone: true }));
    const artwork = await upload(platform, token, 'cover.png', 'image/png', png(3000, 3000));
    const before = heap();
    const ids: string[] = [];
    let next = 0;
    const create = async () => {
      while (next < count) {
        const i = next++;
        const { release } = await catalogClient.createRelease({
          ownerId,
          artistName: 'Bench Artist',
          releaseTitle: `Queue ${i}`,
          trackTitle: `Queue ${i}`,
          releaseType: 'single',
          genre: 'Electronic',
          label: 'Bench Records',
          releaseDate: '2024-05-01',
          explicit: false,
          audio,
          artwork,
          stores: ['spotify', 'deezer'],
        });
        ids.push(release!.id);
      }
    };
    await Promise.all(Array.from({ length: 16 }, create));
    let i = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (i < ids.length) await approve(client, ids[i++]!);
      }),
    );
    const queued = heap();
    let peak = queued;
    let ticks = 0;
    const t0 = performance.now();
    await settled(client, ids, () => {
      if (ticks++ % 5 === 0) peak = Math.max(peak, heap());
    });
    const seconds = (performance.now() - t0) / 1000;
    const after = heap();
    return { count, before, queued, peak, after, seconds };
  } finally {
    client.close();
    catalogClient.close();
    await platform.close();
  }
}

async function main() {
  await oneBigRelease();
  if (process.env.BENCH_DELIVERY_PARTS === '1') return;
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
