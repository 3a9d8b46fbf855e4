// A synthetic DDEX DSR statement (FinancialReportingToRecordCompaniesProfileSRB 1.0) of N SR08 lines,
// written with the store simulator's own writer (services/delivery/src/simulator/reports/dsr-writer.ts), for
// the royalties import benches and anyone who needs a big real-format file:
//
//   node --import tsx tests/bench/royalties/generate-dsr.ts [--lines 1000000] [--tracks 10000]
//        [--catalogue file.csv] [--month 2026-10] [--seed 1] [--out DIR_OR_FILE]
//
// The catalogue is either given (`tracks`: ISRC and UPC, optionally title and artist; `--catalogue` reads a
// CSV with a header naming isrc and upc, and optionally title and artist) or generated: K recordings
// `QZOMN26` + 5 digits, ten per release, UPCs `19` + 10 digits. Summaries are one per territory (US GB DE FR
// BR JP) and tier (premium and free streams, downloads), in the territory's currency with the simulator's
// rates and fixed exchange rates (sales-model.ts); the lines are spread over them in blocks, each a
// recording on a day of the month with a seeded number of usages, a return now and then on downloads and a
// spam deduction every 997th line. Everything is a function of the line number and the seed: the same
// options give the same bytes.
//
// Streaming and memory-flat: each summary's totals come from a first pass over its own lines (computing
// amounts only), then the file is written line by line with backpressure; nothing grows with N but the
// catalogue. Prints lines/s, MB/s and the heap when run directly.
import { createReadStream, createWriteStream, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  createDsrWriter,
  type Sr08Line,
  SummaryTotals,
} from '../../../services/delivery/src/simulator/reports/dsr-writer';
import { formatNano, parseNano } from '../../../services/delivery/src/simulator/reports/nano';
import {
  currencyOf,
  downloadPrice,
  FX_DATE,
  FX_SOURCE,
  FX_TO_USD,
  streamRate,
} from '../../../services/delivery/src/simulator/reports/sales-model';

export interface BenchTrack {
  isrc: string;
  upc: string;
  title?: string;
  artist?: string;
}

export interface GenerateDsrOptions {
  /** A `.tsv` file path, or a folder (the file is then named by the DDEX convention). */
  out: string;
  /** SR08 lines; default 1,000,000. */
  lines?: number;
  /** The catalogue; default `catalogueSize` generated recordings. */
  tracks?: readonly BenchTrack[];
  /** Generated recordings when no `tracks` are given; default 10,000 (at most 100,000). */
  catalogueSize?: number;
  /** The sale month, `YYYY-MM`; default 2026-10. */
  month?: string;
  seed?: number;
  /** Default the day after the month's end, 06:00Z. */
  createdAt?: string;
  sender?: { partyId: string; name: string };
  recipient?: { partyId: string; name: string };
}

export interface GenerateDsrResult {
  file: string;
  lines: number;
  summaries: number;
  bytes: number;
  ms: number;
  linesPerSecond: number;
  totalUsd: string;
}

export const benchIsrc = (i: number) => `QZOMN26${String(i).padStart(5, '0')}`;

/** K generated recordings, ten per release; the UPCs are 12 digits. */
export function generatedCatalogue(size: number): BenchTrack[] {
  if (size < 1 || size > 100_000) throw new Error('a generated catalogue has 1 to 100,000 recordings');
  return Array.from({ length: size }, (_, i) => ({
    isrc: benchIsrc(i),
    upc: `19${String(Math.floor(i / 10)).padStart(10, '0')}`,
    title: `Bench Track ${i}`,
    artist: `Bench Artist ${Math.floor(i / 10)}`,
  }));
}

const TERRITORIES = ['US', 'GB', 'DE', 'FR', 'BR', 'JP'];
const TIERS = [
  { tier: 'premium', commercialModel: 'SubscriptionModel', useType: 'OnDemandStream', share: 6 },
  { tier: 'free', commercialModel: 'AdvertisementSupportedModel', useType: 'OnDemandStream', share: 3 },
  { tier: 'download', commercialModel: 'PayAsYouGoModel', useType: 'PermanentDownload', share: 1 },
] as const;

/** A well-mixed 32-bit value of (seed, n): integer only, so the same on every machine. */
function mix(seed: number, n: number): number {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ seed;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export async function generateDsr(options: GenerateDsrOptions): Promise<GenerateDsrResult> {
  const started = performance.now();
  const total = options.lines ?? 1_000_000;
  if (!Number.isSafeInteger(total) || total < 0) throw new Error('lines must be a whole number ≥ 0');
  const tracks = options.tracks ?? generatedCatalogue(options.catalogueSize ?? 10_000);
  if (tracks.length === 0) throw new Error('the catalogue is empty');
  const month = options.month ?? '2026-10';
  const seed = options.seed ?? 1;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = `${month}-01`;
  const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const days = Number(end.slice(8));
  const createdAt =
    options.createdAt ?? `${new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10)}T06:00:00Z`;
  const sender = options.sender ?? { partyId: 'PADPIDA2026BENCHDSP', name: 'Bench Store' };
  const recipient = options.recipient ?? { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' };

  // The summaries, and the block of lines each gets (in proportion to its tier's share).
  const contexts = TERRITORIES.flatMap((territory) =>
    TIERS.map((t) => {
      const currency = currencyOf(territory);
      const unit =
        t.tier === 'download'
          ? downloadPrice('itunes', territory).nano
          : streamRate('spotify', territory, t.tier).nano;
      return { ...t, territory, currency, rate: FX_TO_USD[currency] as string, unit };
    }),
  );
  const weights = contexts.map((c) => c.share);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const bounds: number[] = [0];
  let acc = 0;
  for (const w of weights) {
    acc += w;
    bounds.push(Math.floor((total * acc) / weightSum));
  }
  const dates = Array.from({ length: days }, (_, d) => `${month}-${String(d + 1).padStart(2, '0')}`);
  const releaseIds = new Map<string, string>();
  const perTrack = tracks.map((t) => {
    const dsp = releaseIds.get(t.upc) ?? `R${t.upc}`;
    releaseIds.set(t.upc, dsp);
    return {
      releaseIcpn: t.upc,
      dspReleaseId: dsp,
      isrc: t.isrc,
      dspResourceId: `A${t.isrc}`,
      resourceType: 'SoundRecording',
      resourceTitle: t.title ?? '',
      resourceDisplayArtistName: t.artist ?? '',
      releaseDisplayArtistName: t.artist ?? '',
    };
  });

  const lineOf = (i: number, c: (typeof contexts)[number], summaryId: string): Sr08Line => {
    const h = mix(seed, i);
    const track = perTrack[(i * 7919 + (h & 0xff)) % perTrack.length] as (typeof perTrack)[number];
    const download = c.tier === 'download';
    const usages = download ? 1 + (h % 5) : 1 + (h % 2000);
    const returns = download && h % 53 === 0 ? 1 : 0;
    const spam = !download && i % 997 === 996;
    // One object shape for every line (no conditional spreads): V8 keeps it a fast object.
    return {
      summaryId,
      releaseIcpn: track.releaseIcpn,
      dspReleaseId: track.dspReleaseId,
      releaseDisplayArtistName: track.releaseDisplayArtistName,
      isrc: track.isrc,
      dspResourceId: track.dspResourceId,
      resourceType: track.resourceType,
      resourceTitle: track.resourceTitle,
      resourceDisplayArtistName: track.resourceDisplayArtistName,
      date: dates[i % days] as string,
      usages: spam ? 0 : usages,
      returns,
      unitPriceNano: c.unit,
      wholesale: download,
      copyrightObligationWithDsp: !download,
      deductions: spam ? [{ type: 'spam_deduction', nano: BigInt(usages) * c.unit }] : undefined,
    };
  };

  const file =
    options.out.endsWith('.tsv') || options.out.endsWith('.TSV')
      ? options.out
      : path.join(
          options.out,
          `DSR_${recipient.partyId}_${sender.partyId}_Bench_${month}_Multi_1of1_${createdAt.slice(0, 19).replace(/[-:]/g, '')}.tsv`,
        );
  mkdirSync(path.dirname(file), { recursive: true });
  const writer = createDsrWriter(createWriteStream(file, { highWaterMark: 1 << 20 }), {
    messageId: `bench-${seed}-${month}-${total}`,
    createdAt,
    usageStart: start,
    usageEnd: end,
    sender,
    recipient,
    serviceDescription: 'Bench',
  });
  // First pass: each summary's totals from its own lines (amounts only, nothing written).
  const ids: string[] = [];
  for (const [k, c] of contexts.entries()) {
    const rate = parseNano(c.rate);
    const totals = new SummaryTotals();
    for (let i = bounds[k] as number; i < (bounds[k + 1] as number); i++) totals.add(lineOf(i, c, ''), rate);
    ids.push(
      writer.summary({
        commercialModel: c.commercialModel,
        useType: c.useType,
        start,
        end,
        territory: c.territory,
        serviceDescription: `Bench${c.tier[0]?.toUpperCase()}${c.tier.slice(1)}`,
        currency: c.currency,
        exchangeRate: c.rate,
        exchangeRateSource: FX_SOURCE,
        dateOfCurrencyExchange: FX_DATE,
        totals,
      }),
    );
  }
  for (const [k, c] of contexts.entries()) {
    const id = ids[k] as string;
    for (let i = bounds[k] as number; i < (bounds[k + 1] as number); i++) {
      const wait = writer.line(lineOf(i, c, id));
      if (wait) await wait;
    }
  }
  const result = await writer.end();
  const ms = performance.now() - started;
  return {
    file,
    lines: result.lines,
    summaries: result.summaries,
    bytes: statSync(file).size,
    ms: Math.round(ms),
    linesPerSecond: Math.round(result.lines / (ms / 1000)),
    totalUsd: formatNano(result.totalAccountingNano),
  };
}

/** A CSV with a header naming `isrc` and `upc` (and optionally `title`, `artist`); no quoted commas. */
export async function readCatalogue(file: string): Promise<BenchTrack[]> {
  const tracks: BenchTrack[] = [];
  let columns: string[] | undefined;
  for await (const text of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (!text.trim()) continue;
    const cells = text.split(',').map((c) => c.trim());
    if (!columns) {
      columns = cells.map((c) => c.toLowerCase());
      if (!columns.includes('isrc') || !columns.includes('upc'))
        throw new Error(`${file}: needs isrc and upc columns`);
      continue;
    }
    const get = (name: string) => (columns?.includes(name) ? cells[columns.indexOf(name)] : undefined);
    tracks.push({
      isrc: get('isrc') ?? '',
      upc: get('upc') ?? '',
      ...(get('title') ? { title: get('title') } : {}),
      ...(get('artist') ? { artist: get('artist') } : {}),
    });
  }
  return tracks;
}

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const number = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
  const catalogue = arg('catalogue');
  const result = await generateDsr({
    out: arg('out') ?? path.join(process.cwd(), 'tests/.artifacts/royalties'),
    ...(number('lines') !== undefined ? { lines: number('lines') as number } : {}),
    ...(number('tracks') !== undefined ? { catalogueSize: number('tracks') as number } : {}),
    ...(catalogue ? { tracks: await readCatalogue(catalogue) } : {}),
    ...(arg('month') ? { month: arg('month') as string } : {}),
    ...(number('seed') !== undefined ? { seed: number('seed') as number } : {}),
  });
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  console.log(
    `${result.file}\n${result.lines.toLocaleString('en')} lines, ${result.summaries} summaries, ` +
      `${(result.bytes / 2 ** 20).toFixed(1)} MB in ${(result.ms / 1000).toFixed(2)} s: ` +
      `${result.linesPerSecond.toLocaleString('en')} lines/s, ${(result.bytes / 2 ** 20 / (result.ms / 1000)).toFixed(1)} MB/s; ` +
      `heap ${heapMb.toFixed(0)} MB; total ${result.totalUsd} USD`,
  );
}

if (/generate-dsr\.ts$/.test(process.argv[1] ?? '')) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
