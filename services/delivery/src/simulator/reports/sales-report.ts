// The simulated stores report back: for a sale period, each store that took a release writes one DDEX DSR
// statement (FinancialReportingToRecordCompaniesProfileSRB 1.0, dsr-writer.ts) and one trend file per day
// of the period, into `outDir`, from what it holds live (live-catalog.ts) and the sales model
// (sales-model.ts, MODEL.md). Content and names are deterministic: the same period, createdAt and seed
// give the same bytes, and a file already holding them is left untouched (atomic.ts).
//
//   DSR_<Omni DPID>_<store DPID>_<Service>_<period>_<territory or Multi>_1of1_<yyyymmddThhmmss>.tsv
//     HEAD; one SY10 per (territory, tier) with sales — premium SubscriptionModel/OnDemandStream,
//     free AdvertisementSupportedModel/OnDemandStream, download PayAsYouGoModel/PermanentDownload — in the
//     territory's currency with USD as the accounting currency; one SR08 per (release, track, day) per
//     summary, echoing the ERN's ICPN, ISRC and Omni's proprietary ids; spam deductions and returns as
//     lines of their own; SRFO. A store live nowhere in the period sends a "no sales" report (one SY10 of
//     zeros for Worldwide, no lines).
//   TREND_<store key>_<YYYY-MM-DD>.csv: `date,store,territory,isrc,upc,streams`, the store's estimate of
//     the day's streams per live track and territory (rows of 0 left out), for stores that stream.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createLimit } from '../limit';
import { writeFileAtomically, writeTextAtomically } from './atomic';
import { createDsrWriter, type Sr08Line, SummaryTotals, type Sy10Summary } from './dsr-writer';
import {
  applies,
  type CatalogDeal,
  type CatalogTrack,
  firstLiveDate,
  type ReleaseVersion,
  readStoreCatalog,
  type StoreCatalog,
  versionOn,
} from './live-catalog';
import { formatNano, parseNano } from './nano';
import {
  addDays,
  currencyOf,
  dailyDownloads,
  dailyReturns,
  dailyStreams,
  dayNumber,
  downloadPrice,
  estimatedStreams,
  FX_DATE,
  FX_SOURCE,
  FX_TO_USD,
  MODEL_SEED,
  spamStreams,
  storeTerritories,
  streamRate,
  streamsByTier,
  subscriptionFee,
  type Tier,
} from './sales-model';

/** Inclusive `YYYY-MM-DD` dates. */
export interface SalePeriod {
  start: string;
  end: string;
}

export interface WriteStoreReportsOptions {
  /** The simulator's root: one folder per store. */
  simulatorRoot: string;
  /** Where the reports go (created if missing). */
  outDir: string;
  period: SalePeriod;
  /** The reports' creation time (HEAD and file names): pass it in, the output depends on nothing else. */
  createdAt: string | Date;
  /** The stores to report for; default every store folder under the root. */
  keys?: readonly string[];
  seed?: string;
}

export interface StoreReportsResult {
  /** Every report path, DSR and trend files, sorted. */
  files: string[];
  /** SR08 lines written over all stores. */
  lines: number;
  /** The sum of every statement's FinalTotalAmountInCurrencyOfAccounting. */
  totalUsd: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar month, `YYYY-MM`. */
export function monthPeriod(month: string): SalePeriod {
  if (!/^\d{4}-\d{2}$/.test(month)) throw new Error(`"${month}" is not YYYY-MM`);
  const start = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { start, end };
}

/** From the first of the month to `date` inclusive. */
export function monthToDate(date: string): SalePeriod {
  if (!DATE.test(date)) throw new Error(`"${date}" is not YYYY-MM-DD`);
  return { start: `${date.slice(0, 8)}01`, end: date };
}

/** The file name's period: `YYYY-MM` for a whole calendar month, else `start--end`. */
export function periodLabel(period: SalePeriod): string {
  const month = period.start.slice(0, 7);
  const whole = monthPeriod(month);
  return whole.start === period.start && whole.end === period.end ? month : `${period.start}--${period.end}`;
}

function checkPeriod(period: SalePeriod) {
  for (const d of [period.start, period.end]) {
    if (!DATE.test(d) || Number.isNaN(dayNumber(d)) || addDays(d, 0) !== d)
      throw new Error(`"${d}" is not a date (YYYY-MM-DD)`);
  }
  if (period.start > period.end) throw new Error(`the period ends (${period.end}) before it starts`);
  if (dayNumber(period.end) - dayNumber(period.start) > 366)
    throw new Error('a sale period is at most a year');
}

/** A DDEX file-name element or ServiceDescription: ASCII letters and digits only (`Claro Música` → `ClaroMusica`). */
export function serviceName(name: string, fallback: string): string {
  const ascii = name.normalize('NFD').replace(/[^A-Za-z0-9]/g, '');
  return ascii || fallback.replace(/[^A-Za-z0-9]/g, '') || 'Store';
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').toUpperCase();

export async function writeStoreReports(options: WriteStoreReportsOptions): Promise<StoreReportsResult> {
  const { period } = options;
  checkPeriod(period);
  const createdAt = new Date(options.createdAt);
  if (Number.isNaN(createdAt.getTime())) throw new Error(`createdAt "${options.createdAt}" is not a date`);
  const created = `${createdAt.toISOString().slice(0, 19)}Z`;
  const seed = options.seed ?? MODEL_SEED;
  const keys = options.keys ?? (await storeFolders(options.simulatorRoot));
  const files: string[] = [];
  let lines = 0;
  let total = 0n;
  const senders = new Map<string, string>();
  for (const key of keys) {
    const catalog = await readStoreCatalog(options.simulatorRoot, key);
    if (!catalog) continue;
    const plan = planStore(catalog, period, seed);
    if (!plan) continue;
    // The file is named by the store's DPID: two stores under one DPID would overwrite each other's.
    const other = senders.get(catalog.store.partyId);
    if (other)
      throw new Error(`stores ${other} and ${key} both took releases as DDEX party ${catalog.store.partyId}`);
    senders.set(catalog.store.partyId, key);
    const dsr = await writeStatement(plan, options.outDir, created);
    files.push(dsr.file);
    lines += dsr.lines;
    total += dsr.totalUsd;
    if (plan.streams) files.push(...(await writeTrends(plan, options.outDir)));
  }
  return { files: files.sort(), lines, totalUsd: formatNano(total) };
}

async function storeFolders(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

// ---- what a store sells -----------------------------------------------------------------------------------

interface PlannedRelease {
  upc: string;
  versions: ReleaseVersion[];
  liveDate: string;
  dspReleaseId: string;
  /** Every recording any version carried, in first-seen order. */
  isrcs: string[];
  dspResourceIds: Map<string, string>;
}

interface StorePlan {
  catalog: StoreCatalog;
  period: SalePeriod;
  seed: string;
  service: string;
  territories: string[];
  releases: PlannedRelease[];
  /** Some deal the store took grants streams (it then sends trend reports). */
  streams: boolean;
  /** Some deal grants downloads (and none streams): a "no sales" report then says PayAsYouGo. */
  downloadsOnly: boolean;
}

function planStore(catalog: StoreCatalog, period: SalePeriod, seed: string): StorePlan | undefined {
  const versions = [...catalog.releases.values()].flat();
  // A store that took its first release after the period has nothing to report on it.
  if (!versions.some((v) => v.from <= period.end)) return undefined;
  const releases: PlannedRelease[] = [];
  for (const [upc, list] of [...catalog.releases].sort(([a], [b]) => a.localeCompare(b))) {
    const liveDate = firstLiveDate(list);
    if (!liveDate || liveDate > period.end) continue;
    const isrcs = [...new Set(list.flatMap((v) => v.tracks.map((t) => t.isrc)))];
    releases.push({
      upc,
      versions: list,
      liveDate,
      dspReleaseId: `R${sha(`${catalog.key}|release|${upc}`).slice(0, 12)}`,
      isrcs,
      dspResourceIds: new Map(
        isrcs.map((isrc) => [isrc, `A${sha(`${catalog.key}|resource|${isrc}`).slice(0, 12)}`]),
      ),
    });
  }
  const deals = versions.flatMap((v) => v.deals);
  const streams = deals.some((d) => grantsOf(d).premium || grantsOf(d).free);
  return {
    catalog,
    period,
    seed,
    service: serviceName(catalog.store.name, catalog.key),
    territories: storeTerritories(catalog.key),
    releases,
    streams,
    downloadsOnly: !streams && deals.some((d) => grantsOf(d).download),
  };
}

interface Grants {
  premium: boolean;
  free: boolean;
  download: boolean;
}

const STREAM_USES = ['OnDemandStream', 'Stream'];
const DOWNLOAD_USES = ['PermanentDownload', 'Download'];

function grantsOf(deal: CatalogDeal): Grants {
  const streams = deal.useTypes.some((u) => STREAM_USES.includes(u));
  return {
    premium: streams && deal.commercialModels.includes('SubscriptionModel'),
    free: streams && deal.commercialModels.includes('AdvertisementSupportedModel'),
    download:
      deal.useTypes.some((u) => DOWNLOAD_USES.includes(u)) &&
      deal.commercialModels.includes('PayAsYouGoModel'),
  };
}

function grantsOn(deals: readonly CatalogDeal[], territory: string, date: string): Grants {
  const out: Grants = { premium: false, free: false, download: false };
  for (const deal of deals) {
    if (!applies(deal, territory, date)) continue;
    const g = grantsOf(deal);
    out.premium ||= g.premium;
    out.free ||= g.free;
    out.download ||= g.download;
  }
  return out;
}

/** The days of the period the store held a version with this track, each with that version and track. */
function* heldDays(
  release: PlannedRelease,
  isrc: string,
  period: SalePeriod,
): Generator<{ date: string; version: ReleaseVersion; track: CatalogTrack }> {
  const first = dayNumber(period.start);
  for (let day = Math.max(dayNumber(release.liveDate), first); day <= dayNumber(period.end); day++) {
    const date = addDays(period.start, day - first);
    const version = versionOn(release.versions, date);
    if (!version || version.purged) continue;
    const track = version.tracks.find((t) => t.isrc === isrc);
    if (track) yield { date, version, track };
  }
}

// ---- the statement ----------------------------------------------------------------------------------------

const TIERS: readonly Tier[] = ['premium', 'free', 'download'];
const MODELS: Record<Tier, { commercialModel: string; useType: string; suffix: string }> = {
  premium: { commercialModel: 'SubscriptionModel', useType: 'OnDemandStream', suffix: 'Premium' },
  free: { commercialModel: 'AdvertisementSupportedModel', useType: 'OnDemandStream', suffix: 'Free' },
  download: { commercialModel: 'PayAsYouGoModel', useType: 'PermanentDownload', suffix: 'Download' },
};

interface Context {
  key: string;
  tier: Tier;
  territory: string;
}

/** A line before its summary is written: `summaryId` is set on the second pass. */
type PlannedLine = Sr08Line;

/** Every line of the store's statement, in file order (by territory, tier, release, track, day). */
function* statementLines(plan: StorePlan): Generator<{ context: Context; line: PlannedLine }> {
  const store = plan.catalog.key;
  for (const territory of plan.territories) {
    for (const tier of TIERS) {
      const context: Context = { key: `${territory}|${tier}`, tier, territory };
      const download = tier === 'download';
      const unit = download ? downloadPrice(store, territory).nano : streamRate(store, territory, tier).nano;
      for (const release of plan.releases) {
        for (const isrc of release.isrcs) {
          const dspResourceId = release.dspResourceIds.get(isrc) as string;
          // Every line one object shape, built in one literal (spreads made slow objects of a million lines).
          const lineOf = (
            held: { date: string; version: ReleaseVersion; track: CatalogTrack },
            usages: number,
            returns: number,
            deductions: PlannedLine['deductions'],
          ): PlannedLine => ({
            summaryId: '',
            releaseIcpn: release.upc,
            dspReleaseId: release.dspReleaseId,
            proprietaryReleaseIds: held.track.proprietaryReleaseIds,
            releaseType: held.version.releaseType,
            releaseTitle: held.version.title,
            releaseDisplayArtistName: held.version.displayArtist,
            isrc,
            dspResourceId,
            proprietaryResourceIds: held.track.proprietaryResourceIds,
            resourceType: 'SoundRecording',
            resourceTitle: held.track.title,
            resourceDisplayArtistName: held.track.displayArtist,
            date: held.date,
            usages,
            returns,
            unitPriceNano: unit,
            wholesale: download,
            copyrightObligationWithDsp: !download,
            deductions,
          });
          let periodStreams = 0;
          let last: { date: string; version: ReleaseVersion; track: CatalogTrack } | undefined;
          for (const held of heldDays(release, isrc, plan.period)) {
            const grants = grantsOn(held.version.deals, territory, held.date);
            const key = {
              isrc,
              upc: release.upc,
              store,
              territory,
              date: held.date,
              liveDate: release.liveDate,
            };
            if (download) {
              if (!grants.download) continue;
              const usages = dailyDownloads(key, plan.seed);
              const returns = dailyReturns(key, plan.seed);
              if (usages === 0 && returns === 0) continue;
              yield { context, line: lineOf(held, usages, returns, undefined) };
              continue;
            }
            if (!grants[tier]) continue;
            const streams = streamsByTier(dailyStreams(key, plan.seed), store, grants)[tier];
            if (streams === 0) continue;
            periodStreams += streams;
            last = held;
            yield { context, line: lineOf(held, streams, 0, undefined) };
          }
          if (download || !last) continue;
          const spam = spamStreams(
            { isrc, upc: release.upc, store, territory, tier, ...plan.period },
            periodStreams,
            plan.seed,
          );
          if (spam === 0) continue;
          yield {
            context,
            line: lineOf(last, 0, 0, [{ type: 'spam_deduction', nano: BigInt(spam) * unit }]),
          };
        }
      }
    }
  }
}

function summaryOf(plan: StorePlan, context: Context, totals: SummaryTotals): Sy10Summary {
  const currency = currencyOf(context.territory);
  const model = MODELS[context.tier];
  return {
    commercialModel: model.commercialModel,
    useType: model.useType,
    start: plan.period.start,
    end: plan.period.end,
    territory: context.territory,
    serviceDescription: `${plan.service}${model.suffix}`,
    currency,
    exchangeRate: FX_TO_USD[currency] as string,
    exchangeRateSource: FX_SOURCE,
    dateOfCurrencyExchange: FX_DATE,
    ...(context.tier === 'premium' ? { subscriptionFeeNano: subscriptionFee(currency) } : {}),
    totals,
  };
}

async function writeStatement(
  plan: StorePlan,
  outDir: string,
  created: string,
): Promise<{ file: string; lines: number; totalUsd: bigint }> {
  const { catalog, period } = plan;
  // First pass: which summaries have lines, and their totals (the writer checks them against the second).
  const contexts = new Map<string, { context: Context; totals: SummaryTotals; rate: bigint }>();
  for (const { context, line } of statementLines(plan)) {
    let entry = contexts.get(context.key);
    if (!entry) {
      const rate = parseNano(FX_TO_USD[currencyOf(context.territory)] as string);
      entry = { context, totals: new SummaryTotals(), rate };
      contexts.set(context.key, entry);
    }
    entry.totals.add(line, entry.rate);
  }
  const summaries = [...contexts.values()].map((e) => ({
    key: e.context.key,
    summary: summaryOf(plan, e.context, e.totals),
  }));
  if (summaries.length === 0) {
    // No sales: HEAD, one SY10 of zeros, SRFO (DSR Part 1 §7.19).
    const tier: Tier = plan.downloadsOnly ? 'download' : 'premium';
    summaries.push({
      key: '',
      summary: {
        ...summaryOf(plan, { key: '', tier, territory: 'Worldwide' }, new SummaryTotals()),
        currency: 'USD',
        exchangeRate: '1',
      },
    });
  }
  const territories = new Set(summaries.map((s) => s.summary.territory));
  const territoryLabel = territories.size === 1 ? ([...territories][0] as string) : 'Multi';
  const stamp = created.slice(0, 19).replace(/[-:]/g, '');
  const name = [
    'DSR',
    catalog.distributor.partyId,
    catalog.store.partyId,
    plan.service,
    periodLabel(period),
    territoryLabel,
    '1of1',
    stamp,
  ].join('_');
  const file = path.join(outDir, `${name}.tsv`);
  let lines = 0;
  let totalUsd = 0n;
  await writeFileAtomically(file, async (out) => {
    const writer = createDsrWriter(out, {
      messageId: sha(
        `${catalog.store.partyId}|${catalog.distributor.partyId}|${period.start}|${period.end}|${created}`,
      ).slice(0, 20),
      createdAt: created,
      usageStart: period.start,
      usageEnd: period.end,
      sender: catalog.store,
      recipient: catalog.distributor,
      serviceDescription: plan.service,
    });
    const ids = new Map(summaries.map((s) => [s.key, writer.summary(s.summary)]));
    for (const { context, line } of statementLines(plan)) {
      line.summaryId = ids.get(context.key) as string;
      const wait = writer.line(line);
      if (wait) await wait;
    }
    const result = await writer.end();
    lines = result.lines;
    totalUsd = result.totalAccountingNano;
  });
  return { file, lines, totalUsd };
}

// ---- trend reports ----------------------------------------------------------------------------------------

/** Trend files written at once: each is flushed to disk, and the waits overlap. */
const TREND_WRITES = 8;

async function writeTrends(plan: StorePlan, outDir: string): Promise<string[]> {
  const store = plan.catalog.key;
  const limit = createLimit(TREND_WRITES);
  const days = dayNumber(plan.period.end) - dayNumber(plan.period.start);
  const writes: Array<Promise<string>> = [];
  for (let i = 0; i <= days; i++) {
    const date = addDays(plan.period.start, i);
    const rows = ['date,store,territory,isrc,upc,streams'];
    for (const territory of plan.territories) {
      for (const release of plan.releases) {
        if (date < release.liveDate) continue;
        const version = versionOn(release.versions, date);
        if (!version || version.purged) continue;
        const grants = grantsOn(version.deals, territory, date);
        if (!grants.premium && !grants.free) continue;
        for (const track of version.tracks) {
          const key = {
            isrc: track.isrc,
            upc: release.upc,
            store,
            territory,
            date,
            liveDate: release.liveDate,
          };
          const streams = estimatedStreams(key, plan.seed);
          if (streams > 0) rows.push(`${date},${store},${territory},${track.isrc},${release.upc},${streams}`);
        }
      }
    }
    const file = path.join(outDir, `TREND_${store}_${date}.csv`);
    const text = `${rows.join('\n')}\n`;
    writes.push(limit(() => writeTextAtomically(file, text)).then(() => file));
  }
  return Promise.all(writes);
}
