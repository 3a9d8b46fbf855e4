// The simulated stores' sales: a seeded, deterministic model of plays and money (MODEL.md says the same in
// prose). Nothing here is random at run time: every figure is a function of its key and the seed, through
// a 32-bit string hash (FNV-1a with a murmur finaliser), and all arithmetic on counts is integer (per-mille
// factors, a floor after each step), so the same key gives the same number on every machine and run.
//
// Streams of one recording on one day, at one store, in one territory (the key also holds the release's
// UPC: one ISRC on a single and on its album are two products with their own plays):
//
//   streams = popularity × store weight × territory weight × weekday × decay × daily noise
//
//   popularity   per ISRC: 20 × 2^(h mod 9) × (1 + (h' mod 1000)/1000) — 20 to ~10,000 a day at best
//   store        per mille: spotify 1000, youtube_music 600, apple_music 500, amazon_music 300,
//                deezer 150, tidal 50, every other store 30
//   territory    per mille: US 1000, BR 400, GB 350, DE 300, FR 250, JP 200
//   weekday      per mille, Monday first: 900 880 900 950 1100 1150 1020 (days are UTC dates)
//   decay        per mille, d days after the release went live at the store: 300 + 700 × 21/(21 + d)
//                (1000 on day 0, 650 after three weeks, 300 in the long run)
//   daily noise  per mille: 800 + (h mod 401) — ±20 % day to day
//
// Territories per store: spotify US GB DE FR BR JP; apple_music US GB DE FR JP; amazon_music US GB DE JP;
// youtube_music US BR JP GB DE; deezer FR DE BR GB; tidal US GB DE; any other store US plus two of
// GB DE FR BR JP picked by the hash of its key. Only those the ERN's deals grant count.
//
// Tiers: a store licensed for both SubscriptionModel and AdvertisementSupportedModel streams splits a
// day's streams: premium per mille spotify 600, youtube_music 350, deezer 550, amazon_music 700,
// apple_music and tidal 1000 (no free tier), others 700; the rest are ad-supported. A store licensed for
// one model puts all streams there.
//
// Money: per-stream rates (premium tier) in the store's price unit: spotify 0.0030, apple_music 0.0070,
// amazon_music 0.0040, deezer 0.0025, youtube_music 0.0010, tidal 0.0090, others 0.0035; the ad-supported
// tier pays 40 % of it. The price unit is the territory's currency scaled: USD (US) and EUR (DE, FR) × 1,
// GBP (GB) × 0.8, BRL (BR) × 5, JPY (JP) × 150 — spotify pays 0.0030 EUR in Germany, 0.0030 USD in the US,
// 0.45 JPY in Japan. Downloads (only where a deal grants PayAsYouGoModel/PermanentDownload) pay per
// download beatport, traxsource, beatsource 1.00; qobuz 0.90; junodownload 0.80; 7digital 0.65; every
// other store (the iTunes figure) 0.70, scaled the same way.
//   downloads a day = popularity × territory × decay × (h mod 1000) / 250,000,000,000 (floored: most
//                     small tracks sell nothing, a hit a few dozen a day)
//   returns a day   = 1 when h mod 90 = 0, else 0 (a refund, possibly of an earlier sale: a day with a
//                     return and no sale gives a line with a negative net)
//   spam deduction  once per (release, track, store, territory, stream tier, sale period) when
//                   h mod 15 = 0: the store flags (2 + h mod 9) % of the period's streams of that tier,
//                   rounded up, as artificial and deducts them at the tier's rate on a line of its own
//                   (no usages, DeductionType spam_deduction), dated the last day the track streamed
//   subscription fee (reported on premium summaries): USD 10.99, EUR 10.99, GBP 11.99, JPY 1080, BRL 21.90
//
// Exchange rates to the accounting currency (USD), a fixed table dated 2026-01-01T00:00:00Z, source
// "omni-simulator-fixed": EUR 1.085, GBP 1.27, JPY 0.00665, BRL 0.18, USD 1.
//
// Trend reports (estimated daily streams) use the same streams with a seeded ±3 % error per key:
//   estimate = round(streams × (1000 + (h mod 61) − 30) / 1000)
// Stores' trend feeds are counted before fraud filtering, returns and late plays (offline plays arrive
// days later), so they never match the statement exactly; peers show the two apart (royalties.md §5).
import { parseNano } from './nano';

export const MODEL_SEED = 'omni-store-simulator-1';

/** FNV-1a over the UTF-16 code units, then murmur3's finaliser: a well-mixed unsigned 32-bit hash. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const h = (seed: string, ...parts: readonly string[]) => hash32(`${seed}\u0000${parts.join('\u0000')}`);

// ---- dates (UTC calendar dates, `YYYY-MM-DD`) -------------------------------------------------------------

// Civil-calendar arithmetic on integers (H. Hinnant's days_from_civil): no Date objects, since the report
// asks for hundreds of thousands of days.
/** Days since 1970-01-01. */
export function dayNumber(date: string): number {
  const month = Number(date.slice(5, 7));
  const y = Number(date.slice(0, 4)) - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + Number(date.slice(8, 10)) - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** The `YYYY-MM-DD` of a day number. */
export function dateOf(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

export const addDays = (date: string, days: number) => dateOf(dayNumber(date) + days);
/** 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday). */
export const weekday = (date: string) => (((dayNumber(date) + 3) % 7) + 7) % 7;

// ---- tables ------------------------------------------------------------------------------------------------

export type Tier = 'premium' | 'free' | 'download';

const STORE_WEIGHT: Record<string, number> = {
  spotify: 1000,
  youtube_music: 600,
  apple_music: 500,
  amazon_music: 300,
  deezer: 150,
  tidal: 50,
};
const OTHER_STORE_WEIGHT = 30;

const TERRITORY_WEIGHT: Record<string, number> = { US: 1000, BR: 400, GB: 350, DE: 300, FR: 250, JP: 200 };
const OTHER_TERRITORIES = ['GB', 'DE', 'FR', 'BR', 'JP'];
const STORE_TERRITORIES: Record<string, readonly string[]> = {
  spotify: ['US', 'GB', 'DE', 'FR', 'BR', 'JP'],
  apple_music: ['US', 'GB', 'DE', 'FR', 'JP'],
  amazon_music: ['US', 'GB', 'DE', 'JP'],
  youtube_music: ['US', 'BR', 'JP', 'GB', 'DE'],
  deezer: ['FR', 'DE', 'BR', 'GB'],
  tidal: ['US', 'GB', 'DE'],
};

const WEEKDAY = [900, 880, 900, 950, 1100, 1150, 1020];

const PREMIUM_SHARE: Record<string, number> = {
  spotify: 600,
  youtube_music: 350,
  deezer: 550,
  amazon_music: 700,
  apple_music: 1000,
  tidal: 1000,
};
const OTHER_PREMIUM_SHARE = 700;

const STREAM_RATE: Record<string, string> = {
  spotify: '0.0030',
  apple_music: '0.0070',
  amazon_music: '0.0040',
  deezer: '0.0025',
  youtube_music: '0.0010',
  tidal: '0.0090',
};
const OTHER_STREAM_RATE = '0.0035';
/** The ad-supported tier's share of the premium rate, per mille. */
const FREE_TIER_RATE = 400n;

const DOWNLOAD_PRICE: Record<string, string> = {
  beatport: '1.00',
  traxsource: '1.00',
  beatsource: '1.00',
  qobuz: '0.90',
  junodownload: '0.80',
  '7digital': '0.65',
};
const OTHER_DOWNLOAD_PRICE = '0.70';

const CURRENCY: Record<string, string> = { US: 'USD', GB: 'GBP', DE: 'EUR', FR: 'EUR', BR: 'BRL', JP: 'JPY' };
/** The price unit in each currency, per mille of the table's figure. */
const PRICE_SCALE: Record<string, bigint> = { USD: 1000n, EUR: 1000n, GBP: 800n, BRL: 5000n, JPY: 150_000n };

const SUBSCRIPTION_FEE: Record<string, string> = {
  USD: '10.99',
  EUR: '10.99',
  GBP: '11.99',
  JPY: '1080',
  BRL: '21.90',
};

/** Transaction currency → USD, fixed. */
export const FX_TO_USD: Readonly<Record<string, string>> = {
  USD: '1',
  EUR: '1.085',
  GBP: '1.27',
  JPY: '0.00665',
  BRL: '0.18',
};
export const FX_DATE = '2026-01-01T00:00:00Z';
export const FX_SOURCE = 'omni-simulator-fixed';

// ---- the model ---------------------------------------------------------------------------------------------

/** The territories a store sells in (before the ERN's deals narrow them), in report order. */
export function storeTerritories(store: string): string[] {
  const known = STORE_TERRITORIES[store];
  if (known) return [...known];
  const first = hash32(`territories:${store}`) % OTHER_TERRITORIES.length;
  const n = OTHER_TERRITORIES.length;
  const second = (first + 1 + (hash32(`territories2:${store}`) % (n - 1))) % n;
  const picked = new Set([OTHER_TERRITORIES[first] as string, OTHER_TERRITORIES[second] as string]);
  return ['US', ...OTHER_TERRITORIES.filter((t) => picked.has(t))];
}

export const currencyOf = (territory: string) => CURRENCY[territory] ?? 'USD';

export interface SaleKey {
  isrc: string;
  /** The release the recording was played on (its ICPN). */
  upc: string;
  store: string;
  territory: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** The first day the release was live at the store (`YYYY-MM-DD`, not after `date`). */
  liveDate: string;
}

/** Known popularities by seed and ISRC (a report asks for the same few thousand recordings again and again). */
const popularities = new Map<string, number>();

export function popularity(isrc: string, seed = MODEL_SEED): number {
  const key = `${seed}\u0000${isrc}`;
  let value = popularities.get(key);
  if (value === undefined) {
    const a = h(seed, 'popularity', isrc);
    const b = h(seed, 'popularity-fine', isrc);
    value = Math.floor((20 * 2 ** (a % 9) * (1000 + (b % 1000))) / 1000);
    if (popularities.size >= 100_000) popularities.clear();
    popularities.set(key, value);
  }
  return value;
}

function decay(key: SaleKey): number {
  const d = Math.max(0, dayNumber(key.date) - dayNumber(key.liveDate));
  return 300 + Math.floor((700 * 21) / (21 + d));
}

/** Streams of the key's day (all tiers), ≥ 0. */
export function dailyStreams(key: SaleKey, seed = MODEL_SEED): number {
  const territory = TERRITORY_WEIGHT[key.territory] ?? 100;
  const store = STORE_WEIGHT[key.store] ?? OTHER_STORE_WEIGHT;
  const noise = 800 + (h(seed, 'streams', key.upc, key.isrc, key.store, key.territory, key.date) % 401);
  let milli = popularity(key.isrc, seed) * 1000;
  for (const factor of [store, territory, WEEKDAY[weekday(key.date)] as number, decay(key), noise]) {
    milli = Math.floor((milli * factor) / 1000);
  }
  return Math.floor(milli / 1000);
}

/** The day's streams as the store's trend feed estimates them: within ±3 % of `dailyStreams`. */
export function estimatedStreams(key: SaleKey, seed = MODEL_SEED): number {
  const streams = dailyStreams(key, seed);
  const error = (h(seed, 'trend', key.upc, key.isrc, key.store, key.territory, key.date) % 61) - 30;
  return Math.floor((streams * (1000 + error) + 500) / 1000);
}

/** Premium streams per mille when the store streams both tiers. */
export const premiumShare = (store: string) => PREMIUM_SHARE[store] ?? OTHER_PREMIUM_SHARE;

/** The day's streams per tier, given which tiers the deals grant that day. */
export function streamsByTier(
  streams: number,
  store: string,
  granted: { premium: boolean; free: boolean },
): { premium: number; free: number } {
  if (granted.premium && granted.free) {
    const premium = Math.floor((streams * premiumShare(store)) / 1000);
    return { premium, free: streams - premium };
  }
  if (granted.premium) return { premium: streams, free: 0 };
  if (granted.free) return { premium: 0, free: streams };
  return { premium: 0, free: 0 };
}

export function dailyDownloads(key: SaleKey, seed = MODEL_SEED): number {
  const territory = TERRITORY_WEIGHT[key.territory] ?? 100;
  const chance = h(seed, 'downloads', key.upc, key.isrc, key.store, key.territory, key.date) % 1000;
  return Math.floor((popularity(key.isrc, seed) * territory * decay(key) * chance) / 250_000_000_000);
}

export function dailyReturns(key: SaleKey, seed = MODEL_SEED): number {
  return h(seed, 'returns', key.upc, key.isrc, key.store, key.territory, key.date) % 90 === 0 ? 1 : 0;
}

/**
 * Streams the store flags as artificial over a sale period, out of `periodStreams` of the key's tier; 0
 * when the store flags nothing for this key (14 keys in 15).
 */
export function spamStreams(
  key: {
    isrc: string;
    upc: string;
    store: string;
    territory: string;
    tier: 'premium' | 'free';
    start: string;
    end: string;
  },
  periodStreams: number,
  seed = MODEL_SEED,
): number {
  const v = h(seed, 'spam', key.upc, key.isrc, key.store, key.territory, key.tier, key.start, key.end);
  if (v % 15 !== 0 || periodStreams <= 0) return 0;
  const percent = 2 + ((v >>> 8) % 9);
  return Math.ceil((periodStreams * percent) / 100);
}

const scaled = (table: string, currency: string) =>
  (parseNano(table) * (PRICE_SCALE[currency] ?? 1000n)) / 1000n;

/** What one stream of the tier earns, in the territory's currency (nano). */
export function streamRate(
  store: string,
  territory: string,
  tier: 'premium' | 'free',
): { currency: string; nano: bigint } {
  const currency = currencyOf(territory);
  const premium = scaled(STREAM_RATE[store] ?? OTHER_STREAM_RATE, currency);
  return { currency, nano: tier === 'premium' ? premium : (premium * FREE_TIER_RATE) / 1000n };
}

/** What one download earns, in the territory's currency (nano). */
export function downloadPrice(store: string, territory: string): { currency: string; nano: bigint } {
  const currency = currencyOf(territory);
  return { currency, nano: scaled(DOWNLOAD_PRICE[store] ?? OTHER_DOWNLOAD_PRICE, currency) };
}

export const subscriptionFee = (currency: string) => parseNano(SUBSCRIPTION_FEE[currency] ?? '10.99');
