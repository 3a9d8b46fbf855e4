// `npm run bench:fingerprint`: the rights check of a new 4-minute master against an index of 100,000
// recordings (BENCH_FINGERPRINT_RECORDINGS), on the embedded SQLite documents store, in this process.
//
// 1. The index: 100,000 generated 4-minute recordings (raw fingerprints of 1,935 items each, made like
//    Chromaprint's: a run of items drifting a few bits at a time, a new value now and then; generating
//    100,000 songs and running fpcalc on each would take hours), plus one real one: artist A's generated
//    4-minute song, fingerprinted by fpcalc. Time to load, the keys stored, the database's size on disk, the
//    process's RSS and heap.
// 2. Artist B uploads A's song with noise added: fpcalc's own time for the file (one run, speed 1), the
//    seven fingerprints of a check (speed 1 and the six that undo ±2/4/6 %, two fpcalc at a time), and the
//    time of the check itself — index lookups and aligned verification of the candidates — median of 5.
//    Goal: the check under 1 s. It must find A's recording and hold it.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { ITEM_SECONDS, indexKeys } from '../../services/delivery/src/domain/fingerprint';
import { FpcalcFingerprinter } from '../../services/delivery/src/providers/fingerprinter/fpcalc';
import { FingerprintIndex, type RecordingRef } from '../../services/delivery/src/store/fingerprints';
import {
  fingerprintMaster,
  registerMaster,
  searchIndex,
} from '../../services/delivery/src/use-cases/check-fingerprint';
import { writeSong } from '../../services/delivery/test/support/synth-song';

const RECORDINGS = Number(process.env.BENCH_FINGERPRINT_RECORDINGS ?? 100_000);
const SECONDS = 240;
const ITEMS = Math.round(SECONDS / ITEM_SECONDS);
const BATCH = 500;
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;

function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

/** A raw fingerprint shaped like Chromaprint's: items drift by a few bits, with a new value every so often. */
function generatedItems(rand: () => number): number[] {
  const items = new Array<number>(ITEMS);
  let item = rand();
  for (let i = 0; i < ITEMS; i++) {
    const r = rand();
    if (r % 4 === 0) item = rand();
    else item = (item ^ (1 << (r % 32)) ^ (1 << ((r >>> 8) % 32))) >>> 0;
    items[i] = item;
  }
  return items;
}

function dirSize(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const fingerprinter = new FpcalcFingerprinter();
  const missing = fingerprinter.missing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-fingerprint-'));
  const store = createSqliteDocumentStore({
    dataDir: dir,
    fsync: false,
    logger: createLogger('bench-fingerprint').child({}, { level: 'silent' }),
  });
  const index = new FingerprintIndex(store);
  try {
    console.log(
      `fingerprint bench: ${RECORDINGS.toLocaleString('en')} recordings of ${SECONDS} s, ${fingerprinter.tool}`,
    );
    const rssBefore = process.memoryUsage().rss;
    const rand = xorshift(42);
    let keys = 0;
    let began = performance.now();
    for (let at = 0; at < RECORDINGS; at += BATCH) {
      const entries = [];
      for (let n = at; n < Math.min(RECORDINGS, at + BATCH); n++) {
        const items = generatedItems(rand);
        const k = indexKeys(items);
        keys += k.length;
        const ref: RecordingRef = {
          recordingId: `gen-${n}:1`,
          ownerId: `artist-${n % 20_000}`,
          releaseId: `gen-${n}`,
          track: 1,
          title: `Generated ${n}`,
        };
        entries.push({ ref, keys: k, items, seconds: SECONDS });
      }
      await index.putMany(entries);
      if ((at / BATCH) % 20 === 19) process.stdout.write(`  ${(at + BATCH).toLocaleString('en')} indexed\r`);
    }
    const loadSeconds = (performance.now() - began) / 1000;

    const songA = writeSong(join(dir, 'a.wav'), { seed: 1, seconds: SECONDS });
    const printA = await fingerprinter.fingerprint(songA);
    await registerMaster(
      index,
      { recordingId: 'release-a:1', ownerId: 'artist-a', releaseId: 'release-a', track: 1, title: 'A song' },
      printA,
    );
    if (global.gc) global.gc();
    const memory = process.memoryUsage();
    console.log(
      `index: ${(RECORDINGS + 1).toLocaleString('en')} recordings loaded in ${loadSeconds.toFixed(1)} s; ` +
        `${keys.toLocaleString('en')} keys (${(keys / RECORDINGS).toFixed(0)} per recording); ` +
        `database ${mb(dirSize(dir))} on disk; RSS ${mb(memory.rss)} (${mb(memory.rss - rssBefore)} more than at start), heap ${mb(memory.heapUsed)}`,
    );

    const upload = writeSong(join(dir, 'b.wav'), { seed: 1, seconds: SECONDS, noise: 0.05 });
    const fpcalcTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      began = performance.now();
      await fingerprinter.fingerprint(upload);
      fpcalcTimes.push(performance.now() - began);
    }
    began = performance.now();
    const master = await fingerprintMaster(fingerprinter, upload);
    const sevenMs = performance.now() - began;
    const searches: number[] = [];
    let result = await searchIndex(index, master, { ownerId: 'artist-b', releaseId: 'release-b' });
    for (let i = 0; i < 5; i++) {
      result = await searchIndex(index, master, { ownerId: 'artist-b', releaseId: 'release-b' });
      searches.push(result.searchMs);
    }
    const top = result.matches[0];
    console.log(
      `fpcalc on the 4-minute master: ${median(fpcalcTimes).toFixed(0)} ms (median of 3); ` +
        `the check's 7 fingerprints (speed 1 and ±2/4/6 %): ${sevenMs.toFixed(0)} ms`,
    );
    console.log(
      `check against the index (7 queries: lookups + aligned verification): ${median(searches).toFixed(0)} ms median ` +
        `(min ${Math.min(...searches).toFixed(0)}, max ${Math.max(...searches).toFixed(0)}); goal < 1000 ms → ` +
        `${median(searches) < 1000 ? 'met' : 'NOT met'}`,
    );
    console.log(
      top
        ? `found: ${top.releaseId} track ${top.track}, score ${top.score}, offset ${top.offsetSeconds} s, ${top.decision}; ${result.matches.length} match(es)`
        : 'found: nothing — the check missed A’s recording',
    );
    if (top?.releaseId !== 'release-a' || top.decision !== 'hold') process.exitCode = 1;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
