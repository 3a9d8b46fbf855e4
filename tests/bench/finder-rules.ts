// `node --expose-gc --import tsx tests/bench/finder-rules.ts`: the Finder scanner's rules alone (no service,
// no I/O): time for 10,000 recordings through add/finish, and the heap it holds for 1,000 vs 10,000 (after a
// full GC, with the scanner still alive), once for a clean catalogue (only the duplicate keys grow) and once
// with 10% of recordings flagged (plus their findings). Recordings are generated one at a time, never held.
// Wall time and this process's CPU time (the machine is shared: CPU time is the steadier figure).
// Writes tests/.artifacts/finder-rules-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScanner, registryKeys } from '../../services/finder/src/domain';
import type { CatalogueRecording, PlayCount } from '../../services/finder/src/domain/scan-model';
import { parseSnapshot } from '../../services/finder/src/providers/registries/snapshot';
import { CLEAN_CREDITS, CLEAN_LEGAL } from '../../services/finder/test/support/recordings';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc.');

function recording(i: number, flaggedEvery: number): CatalogueRecording {
  const flagged = flaggedEvery > 0 && i % flaggedEvery === 0;
  return {
    releaseId: `rel-${Math.floor(i / 10)}`,
    releaseTitle: `Release ${Math.floor(i / 10)}`,
    releaseType: 'album',
    releaseDate: '2024-05-01',
    upc: '036000291452',
    label: 'Northern Lights Records',
    mainArtist: `Artist ${i % 300}`,
    trackId: `trk-${i}`,
    trackNumber: (i % 10) + 1,
    title: `Song ${i}`,
    isrc: `USS1Z24${String(i).padStart(5, '0')}`,
    durationSeconds: 150 + (i % 120),
    credits: { ...CLEAN_CREDITS, musicians: flagged ? [] : CLEAN_CREDITS.musicians },
    legal: CLEAN_LEGAL,
  };
}

async function registries() {
  // Every recording registered with SoundExchange: a clean recording stays clean.
  const lines = ['isrc,owner,performers'];
  for (let i = 0; i < 10_000; i++)
    lines.push(`USS1Z24${String(i).padStart(5, '0')},Northern Lights Records,Artist ${i % 300}`);
  return [await parseSnapshot('soundexchange', '2026-10-01', lines.join('\n'), registryKeys)];
}

const plays = (isrc: string): PlayCount[] => [{ isrc, territory: 'GB', plays: 1_000, year: 2026 }];

const alive: unknown[] = [];

async function run(count: number, flaggedEvery: number, connectors: Awaited<ReturnType<typeof registries>>) {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const scanner = createScanner({ registries: connectors, plays, now: new Date('2026-11-01') });
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) await scanner.add(recording(i, flaggedEvery));
  const result = await scanner.finish();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  alive.push(scanner, result); // held across the measurement, as a running scan holds them
  gc?.();
  const held = process.memoryUsage().heapUsed - before;
  alive.length = 0;
  if (result.scanned !== count) throw new Error('scanned');
  return {
    count,
    flagged: result.flagged,
    ms: Math.round(ms),
    cpuMs: Math.round((user + system) / 1000),
    heldKiB: Math.round(held / 1024),
  };
}

async function main() {
  const parseStarted = performance.now();
  const connectors = await registries();
  console.log(
    `SoundExchange snapshot of 10,000 lines parsed in ${Math.round(performance.now() - parseStarted)} ms`,
  );
  await run(2_000, 10, connectors); // warm-up
  const rows = [];
  for (const flaggedEvery of [0, 10])
    for (const count of [1_000, 10_000]) rows.push(await run(count, flaggedEvery, connectors));
  console.table(rows);
  const dir = join(process.cwd(), 'tests', '.artifacts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'finder-rules-bench.json'), JSON.stringify(rows, null, 2));
}

void main();
