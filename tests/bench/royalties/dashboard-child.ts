// The /app cards' figures with a large ledger, in a process of its own: LEDGER_LINES lines (default
// 10,000,000) are appended through the ledger's own stage and publish (the import's writes, without
// parsing a file), spread over the bench's catalogue — every owner's tracks, 24 sale months, 8 stores,
// 25 territories — then earningsSummary (what GET /api/dashboard asks royalties) is timed for random
// owners. Prints {buildMs, lines, samples, p50Ms, p99Ms, maxMs, analyticsP99Ms}.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import type { LedgerLine } from '../../../services/royalties/src/domain/ledger-line';
import { LedgerRepository } from '../../../services/royalties/src/store/ledger';
import { RecordingsRepository } from '../../../services/royalties/src/store/recordings';
import { TrendsRepository } from '../../../services/royalties/src/store/trends';
import { analytics, earningsSummary } from '../../../services/royalties/src/use-cases/figures';
import { isrcOf, OWNERS, ownerOf, TRACKS_PER_OWNER, upcOf } from './catalogue';

const LINES = Number(process.env.BENCH_ROYALTIES_LEDGER_LINES ?? 10_000_000);
const CHUNK = 2000;
const RUN = 10;
const STORES = [
  'Spotify',
  'Apple Music',
  'Amazon Music',
  'Deezer',
  'YouTube Music',
  'Tidal',
  'TikTok',
  'Pandora',
];
const TERRITORIES = 'US GB DE FR BR JP CA AU MX ES IT NL SE NO PL IN KR ZA NG AR CL CO TR ID PH'.split(' ');
const SAMPLES = 2000;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-bench-ledger-'));
  const logger = createLogger('bench', {});
  logger.level = 'warn';
  const documents = createSqliteDocumentStore({ dataDir, logger });
  await documents.ready();
  // Every page the bench writes is published as it goes (the runs below).
  const ledger = new LedgerRepository(
    documents,
    async (ids) => new Map(ids.map((id) => [id, Number.MAX_SAFE_INTEGER])),
  );
  const deps = {
    ledger,
    trends: new TrendsRepository(documents),
    recordings: new RecordingsRepository(documents),
  };
  const tracks = OWNERS * TRACKS_PER_OWNER;
  const started = performance.now();
  // Lines walk month by month, as monthly statements arrive; inside a month, store by store and territory
  // by territory, every track (the order of a DSR's summaries).
  let n = 0;
  let seq = 0;
  let batch: LedgerLine[] = [];
  const line = (i: number): LedgerLine => {
    const track = i % tracks;
    const rest = Math.floor(i / tracks);
    const territory = TERRITORIES[rest % TERRITORIES.length]!;
    const store = STORES[Math.floor(rest / TERRITORIES.length) % STORES.length]!;
    const month = Math.floor(rest / (TERRITORIES.length * STORES.length)) % 24;
    const y = 2025 + Math.floor(month / 12);
    const mm = String((month % 12) + 1).padStart(2, '0');
    const owner = Math.floor(track / TRACKS_PER_OWNER);
    const quantity = 1 + ((i * 7919) % 500);
    return {
      lineNo: i + 1,
      saleStart: `${y}-${mm}-01`,
      saleEnd: `${y}-${mm}-28`,
      reportedAt: `${y}-${mm}-28`,
      store,
      serviceTier: '',
      territory,
      usageType: 'stream',
      isrc: isrcOf(track),
      upc: upcOf(owner),
      proprietaryIds: [],
      title: '',
      artist: '',
      quantity,
      amountTxn: BigInt(quantity) * 3_712_345n,
      currencyTxn: 'USD',
      amountAcct: BigInt(quantity) * 3_712_345n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
      ownerId: ownerOf(owner),
      releaseId: `release-${owner}`,
      trackId: `track-${isrcOf(track)}`,
    };
  };
  while (n < LINES) {
    for (; batch.length < CHUNK && n < LINES; n += 1) batch.push(line(n));
    const lines = batch;
    batch = [];
    const s = seq;
    seq += 1;
    await documents.transaction((scope) => ledger.stage(scope, 'bench', s, lines));
    if (seq % RUN === 0 || n >= LINES)
      await documents.transaction((scope) =>
        ledger.publish(scope, 'bench', Math.floor((seq - 1) / RUN) * RUN, seq),
      );
    if (seq % 500 === 0) process.stderr.write(`  ledger: ${n.toLocaleString('en-US')} lines\n`);
  }
  const buildMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const owner = ownerOf((i * 7919) % OWNERS);
    const t = performance.now();
    await earningsSummary(deps, owner);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const aTimes: number[] = [];
  for (let i = 0; i < 100; i += 1) {
    const t = performance.now();
    await analytics(deps, {
      ownerId: ownerOf((i * 31) % OWNERS),
      from: '',
      to: '',
      store: '',
      territory: '',
      releaseId: '',
      trackId: '',
    });
    aTimes.push(performance.now() - t);
  }
  aTimes.sort((a, b) => a - b);
  const check = await earningsSummary(deps, ownerOf(0));
  await documents.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({
      buildMs,
      lines: LINES,
      samples: SAMPLES,
      p50Ms: pct(times, 0.5),
      p99Ms: pct(times, 0.99),
      maxMs: times[times.length - 1],
      analyticsP50Ms: pct(aTimes, 0.5),
      analyticsP99Ms: pct(aTimes, 0.99),
      owner0: check,
    })}\n`,
  );
}

void main();
