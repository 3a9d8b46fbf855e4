// CSV/TSV statement templates: per source, the columns it needs (found by header NAME, in any order;
// extra columns are ignored), and how a row becomes a canonical line (its dates, numbers, currency,
// usage type and adjustment). csv.ts finds the header row and feeds the rows; the Omni canonical format
// is documented in services/royalties/README-formats.md.
//
// Header names are compared case-, space- and underscore-insensitively: "Earnings (USD)", "earnings
// (usd)" and "EARNINGS_(USD)" are one column, and "sale_start" is "Sale Start".
import { convert, MoneyError, normalizeRate, parseAmount } from '../money';
import {
  adjustment,
  currency,
  isoDay,
  isoPeriod,
  isrc,
  monthOf,
  type Period,
  territory,
  upc,
  usDay,
  wholeNumber,
} from './fields';
import type { StatementHeader, StatementLine, UsageType } from './line';

export type TemplateName = 'omni' | 'distrokid' | 'tunecore' | 'cdbaby' | 'apple';

export const normalizeHeading = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '');

/** A line the template cannot use; `csv.ts` turns it into a refused item. */
export class LineProblem extends Error {}

/** One data row, read by the template's column keys. */
export interface Row {
  /** The trimmed value of a column ('' when the column is absent or the row is short). */
  get(key: string): string;
  has(key: string): boolean;
  /** The column's heading as the file spells it, for messages. */
  heading(key: string): string;
  /** The USD amount once read, so a refusal after it can still say how much the line was worth. */
  usd: bigint | null;
}

export interface Template {
  name: TemplateName;
  label: string;
  /** Column key → the headings that name it. */
  columns: Record<string, string[]>;
  /** Keys a header row must have; the first row that has them all is the header. */
  required: string[];
  /** Rows before the header (Apple's "Start Date<TAB>11/30/2025") may say what period the file covers. */
  preamble?(cells: string[], header: StatementHeader): void;
  /** A row that starts a trailing block that is not lines (Apple's per-country summary). */
  endsLines?(cells: string[]): boolean;
  line(row: Row, lineNo: number): Omit<StatementLine, 'lineNo'>;
}

// ---- cell readers shared by the templates; each throws LineProblem with words for the sender --------

function money(row: Row, key: string): bigint {
  const value = row.get(key);
  try {
    return parseAmount(value);
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e;
    throw new LineProblem(`in column "${row.heading(key)}": ${e.message}`);
  }
}

function whole(row: Row, key: string): number {
  const n = wholeNumber(row.get(key));
  if (n === null)
    throw new LineProblem(
      `the quantity "${row.get(key).slice(0, 20)}" in column "${row.heading(key)}" is not a whole number.`,
    );
  return n;
}

function day(row: Row, key: string, parse: (t: string) => string | null, example: string): string {
  const d = parse(row.get(key));
  if (!d)
    throw new LineProblem(
      `the date "${row.get(key).slice(0, 30)}" in column "${row.heading(key)}" is not a date like ${example}.`,
    );
  return d;
}

function period(row: Row, key: string): Period {
  const p = isoPeriod(row.get(key));
  if (!p)
    throw new LineProblem(
      `the date "${row.get(key).slice(0, 30)}" in column "${row.heading(key)}" is not a date like 2024-03-31 or a month like 2024-03.`,
    );
  return p;
}

function country(row: Row, key: string): string {
  const t = territory(row.get(key));
  if (!t)
    throw new LineProblem(
      `the country "${row.get(key).slice(0, 20)}" in column "${row.heading(key)}" is not a two-letter country code like US.`,
    );
  return t;
}

function code(row: Row, key: string): string {
  const c = currency(row.get(key));
  if (!c)
    throw new LineProblem(
      `the currency "${row.get(key).slice(0, 20)}" in column "${row.heading(key)}" is not a three-letter code like USD.`,
    );
  return c;
}

function rate(row: Row, key: string): string {
  try {
    return normalizeRate(row.get(key));
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e;
    throw new LineProblem(`in column "${row.heading(key)}": ${e.message}`);
  }
}

const noRate = (cur: string) =>
  new LineProblem(
    `its amount is in ${cur} and the file gives no exchange rate to US dollars; Omni accounts in US dollars.`,
  );

/** The optional "Adjustment Type" column any template may carry (YouTube-style values). */
const ADJUSTMENT_COLUMN = ['Adjustment Type', 'Adjustment'];

/** Adjustments named inside a store or type name ("YouTube (Spam Adjustment)"). */
function readAdjustmentIn(name: string): string {
  const t = name.toLowerCase();
  if (t.includes('spam')) return 'spam_deduction';
  if (t.includes('backpay') || t.includes('back pay')) return 'backpay';
  if (t.includes('correction')) return 'revenue_correction';
  if (t.includes('refund') || t.includes('return') || t.includes('chargeback')) return 'return';
  return '';
}

/** Per store or type name, what it says; a file names a few dozen, so each is worked out once. */
function perName<T>(read: (name: string) => T): (name: string) => T {
  const known = new Map<string, T>();
  return (name) => {
    let v = known.get(name);
    if (v === undefined) {
      if (known.size >= 1024) known.clear();
      v = read(name);
      known.set(name, v);
    }
    return v;
  };
}

const adjustmentIn = perName(readAdjustmentIn);

function adjustmentOf(row: Row, quantity: number, name = ''): string {
  return adjustment(row.get('adjustment')) || adjustmentIn(name) || (quantity < 0 ? 'return' : '');
}

// Store names whose lines are downloads or streams; anything else is 'other' unless its row says.
const DOWNLOAD_STORES =
  /itunes|amazon ?mp3|amazon (digital|download)|beatport|traxsource|juno|7digital|bandcamp|qobuz download|google play( music)? download/i;
const STREAM_STORES =
  /spotify|apple music|deezer|tidal|napster|youtube|amazon (unlimited|prime|music)|pandora|iheart|soundcloud|anghami|boomplay|audiomack|tiktok|facebook|instagram|saavn|gaana|kkbox|netease|tencent|yandex|vk|joox|awa|line music|claro|tim music|qobuz|medianet|snapchat|peloton|triller|shazam/i;

const usageOfStore = perName(readUsageOfStore);

function readUsageOfStore(store: string): UsageType {
  if (DOWNLOAD_STORES.test(store)) return 'download';
  if (STREAM_STORES.test(store)) return 'stream';
  return 'other';
}

function usageOfWord(word: string): UsageType | null {
  const t = word.toLowerCase();
  if (t.includes('stream')) return 'stream';
  if (t.includes('download') || t === 'sale' || t.includes('purchase')) return 'download';
  return null;
}

const tierOf = perName((store: string) =>
  /\(ads?\)|ad-supported|\bfree\b/i.test(store) ? 'ad-supported' : '',
);

// ---- the templates ------------------------------------------------------------------------------------

/**
 * Omni canonical CSV (README-formats.md). Required: sale_start, sale_end, store, territory, usage_type,
 * quantity, amount, currency. Optional: reported_at, service_tier, isrc, upc, proprietary_ids ('|'
 * between ids), title, artist, amount_usd, fx_rate (currency→USD), fx_date, adjustment_type.
 * Dates are YYYY-MM-DD (a month YYYY-MM is its first/last day); amounts plain decimals, up to 9 decimals.
 * A non-USD line needs amount_usd or fx_rate (amount_usd wins when both are given).
 */
const omni: Template = {
  name: 'omni',
  label: 'Omni canonical CSV',
  columns: {
    saleStart: ['sale_start'],
    saleEnd: ['sale_end'],
    reportedAt: ['reported_at'],
    store: ['store'],
    serviceTier: ['service_tier'],
    territory: ['territory'],
    usageType: ['usage_type'],
    isrc: ['isrc'],
    upc: ['upc'],
    proprietaryIds: ['proprietary_ids'],
    title: ['title'],
    artist: ['artist'],
    quantity: ['quantity'],
    amount: ['amount'],
    currency: ['currency'],
    amountUsd: ['amount_usd'],
    fxRate: ['fx_rate'],
    fxDate: ['fx_date'],
    adjustment: ['adjustment_type'],
  },
  required: ['saleStart', 'saleEnd', 'store', 'territory', 'usageType', 'quantity', 'amount', 'currency'],
  line(row) {
    const cur = code(row, 'currency');
    const amountTxn = money(row, 'amount');
    let amountAcct: bigint;
    let fxRate = '1';
    if (cur === 'USD') {
      amountAcct = amountTxn;
    } else {
      if (row.get('fxRate') !== '') fxRate = rate(row, 'fxRate');
      if (row.get('amountUsd') !== '') amountAcct = money(row, 'amountUsd');
      else if (row.get('fxRate') !== '') amountAcct = convert(amountTxn, fxRate);
      else throw noRate(cur);
    }
    row.usd = amountAcct;
    const usage = row.get('usageType').toLowerCase();
    if (usage !== 'stream' && usage !== 'download' && usage !== 'other') {
      throw new LineProblem(
        `the usage type "${row.get('usageType').slice(0, 20)}" is not stream, download or other.`,
      );
    }
    const quantity = whole(row, 'quantity');
    const fxDate = row.get('fxDate') === '' ? '' : day(row, 'fxDate', isoDay, '2024-03-31');
    return {
      isrc: isrc(row.get('isrc')),
      upc: upc(row.get('upc')),
      title: row.get('title'),
      artist: row.get('artist'),
      saleStart: period(row, 'saleStart').start,
      saleEnd: period(row, 'saleEnd').end,
      reportedAt: row.get('reportedAt') === '' ? '' : day(row, 'reportedAt', isoDay, '2024-03-31'),
      store: row.get('store'),
      serviceTier: row.get('serviceTier'),
      territory: country(row, 'territory'),
      usageType: usage,
      proprietaryIds: row
        .get('proprietaryIds')
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean),
      quantity,
      amountTxn,
      currencyTxn: cur,
      amountAcct,
      fxRate,
      fxDate,
      adjustmentType: adjustment(row.get('adjustment')),
    };
  },
};

/** DistroKid "Excruciating Detail" TSV: Earnings (USD) with 8 decimals, already the team member's share. */
const distrokid: Template = {
  name: 'distrokid',
  label: 'DistroKid TSV',
  columns: {
    reportedAt: ['Reporting Date'],
    saleMonth: ['Sale Month'],
    store: ['Store'],
    artist: ['Artist'],
    title: ['Title'],
    isrc: ['ISRC'],
    upc: ['UPC'],
    quantity: ['Quantity'],
    songOrAlbum: ['Song/Album'],
    country: ['Country of Sale'],
    earnings: ['Earnings (USD)'],
    adjustment: ADJUSTMENT_COLUMN,
  },
  required: ['reportedAt', 'saleMonth', 'store', 'quantity', 'country', 'earnings'],
  line(row) {
    const amount = money(row, 'earnings');
    row.usd = amount;
    const store = row.get('store');
    const quantity = whole(row, 'quantity');
    const sale = period(row, 'saleMonth');
    return {
      isrc: isrc(row.get('isrc')),
      upc: upc(row.get('upc')),
      title: row.get('title'),
      artist: row.get('artist'),
      saleStart: sale.start,
      saleEnd: sale.end,
      reportedAt: day(row, 'reportedAt', isoDay, '2024-03-31'),
      store,
      serviceTier: tierOf(store),
      territory: country(row, 'country'),
      // An album row is a sale of the album; nobody streams an album as one item.
      usageType: /album/i.test(row.get('songOrAlbum')) ? 'download' : usageOfStore(store),
      proprietaryIds: [],
      quantity,
      amountTxn: amount,
      currencyTxn: 'USD',
      amountAcct: amount,
      fxRate: '1',
      fxDate: '',
      adjustmentType: adjustmentOf(row, quantity, store),
    };
  },
};

/**
 * TuneCore CSV. Net Sales is in Net Sales Currency; Total Earned = Net Sales × Exchange Rate, in Currency
 * (the account's). The USD amount is whichever of the two is in USD; with neither in USD the line is
 * refused. Sales Period is a month (its first day).
 */
const tunecore: Template = {
  name: 'tunecore',
  label: 'TuneCore CSV',
  columns: {
    salesPeriod: ['Sales Period'],
    postedDate: ['Posted Date'],
    store: ['Store Name'],
    country: ['Country Of Sale'],
    artist: ['Artist'],
    releaseTitle: ['Release Title'],
    title: ['Song Title'],
    upc: ['UPC'],
    optionalUpc: ['Optional UPC'],
    isrc: ['Optional ISRC', 'ISRC'],
    salesType: ['Sales Type'],
    quantity: ['# Units Sold', 'Units Sold'],
    netSales: ['Net Sales'],
    netSalesCurrency: ['Net Sales Currency'],
    exchangeRate: ['Exchange Rate'],
    totalEarned: ['Total Earned'],
    currency: ['Currency'],
    adjustment: ADJUSTMENT_COLUMN,
  },
  required: [
    'salesPeriod',
    'postedDate',
    'store',
    'country',
    'salesType',
    'quantity',
    'netSales',
    'netSalesCurrency',
    'totalEarned',
    'currency',
  ],
  line(row) {
    const salesCur = code(row, 'netSalesCurrency');
    const earnedCur = code(row, 'currency');
    const net = money(row, 'netSales');
    const earned = money(row, 'totalEarned');
    let m: Pick<StatementLine, 'amountTxn' | 'currencyTxn' | 'amountAcct' | 'fxRate'>;
    if (salesCur === 'USD') m = { amountTxn: net, currencyTxn: 'USD', amountAcct: net, fxRate: '1' };
    else if (earnedCur === 'USD') {
      m = {
        amountTxn: net,
        currencyTxn: salesCur,
        amountAcct: earned,
        fxRate: row.get('exchangeRate') === '' ? '' : rate(row, 'exchangeRate'),
      };
    } else throw noRate(salesCur);
    row.usd = m.amountAcct;
    const quantity = whole(row, 'quantity');
    const sale = monthOf(period(row, 'salesPeriod').start);
    const salesType = row.get('salesType');
    const store = row.get('store');
    return {
      isrc: isrc(row.get('isrc')),
      upc: upc(row.get('upc')) || upc(row.get('optionalUpc')),
      title: row.get('title') || row.get('releaseTitle'),
      artist: row.get('artist'),
      saleStart: sale.start,
      saleEnd: sale.end,
      reportedAt: day(row, 'postedDate', isoDay, '2024-03-31'),
      store,
      serviceTier: tierOf(store),
      territory: country(row, 'country'),
      usageType: usageOfWord(salesType) ?? usageOfStore(store),
      proprietaryIds: [],
      quantity,
      amountTxn: m.amountTxn,
      currencyTxn: m.currencyTxn,
      amountAcct: m.amountAcct,
      fxRate: m.fxRate,
      fxDate: '',
      adjustmentType: adjustmentOf(row, quantity, salesType),
    };
  },
};

/** CD Baby TSV: US dates with a time ("10/15/2023 12:00:00 AM"), amounts in USD (Subtotal). */
const cdbaby: Template = {
  name: 'cdbaby',
  label: 'CD Baby TSV',
  columns: {
    reportDate: ['Report Date'],
    salesDate: ['Sales Date'],
    quantity: ['Quantity'],
    subtotal: ['Subtotal'],
    isrc: ['Isrc'],
    upc: ['Barcode'],
    releaseTitle: ['Album Name'],
    artist: ['Artist Name'],
    title: ['Track Name'],
    store: ['Partner Name'],
    transactionType: ['Transaction Type'],
    country: ['Delivery Country'],
    adjustment: ADJUSTMENT_COLUMN,
  },
  required: ['reportDate', 'salesDate', 'quantity', 'subtotal', 'store', 'transactionType', 'country'],
  line(row) {
    const amount = money(row, 'subtotal');
    row.usd = amount;
    const quantity = whole(row, 'quantity');
    const sold = day(row, 'salesDate', usDay, '7/31/2023');
    const type = row.get('transactionType');
    const store = row.get('store');
    return {
      isrc: isrc(row.get('isrc')),
      upc: upc(row.get('upc')),
      title: row.get('title') || row.get('releaseTitle'),
      artist: row.get('artist'),
      saleStart: sold,
      saleEnd: sold,
      reportedAt: day(row, 'reportDate', usDay, '10/15/2023'),
      store,
      serviceTier: tierOf(store),
      territory: country(row, 'country'),
      usageType: usageOfWord(type) ?? usageOfStore(store),
      proprietaryIds: [],
      quantity,
      amountTxn: amount,
      currencyTxn: 'USD',
      amountAcct: amount,
      fxRate: '1',
      fxDate: '',
      adjustmentType: adjustmentOf(row, quantity, type),
    };
  },
};

/**
 * Apple (iTunes) finance report TSV: MM/DD/YYYY dates, amounts (Extended Partner Share = Quantity ×
 * Partner Share) in Partner Share Currency. A non-USD line needs a rate: an added "Exchange Rate"
 * column (Partner Share Currency → USD), else it is refused. 'R' rows are returns: quantity and amount
 * are made negative whatever sign the file gives them. The Vendor Identifier is the id Omni delivered.
 * Lines are downloads: Apple Music streams come in other reports.
 */
const apple: Template = {
  name: 'apple',
  label: 'Apple finance report (TSV)',
  columns: {
    startDate: ['Start Date'],
    endDate: ['End Date'],
    upc: ['UPC'],
    isrc: ['ISRC/ISBN', 'ISRC'],
    vendorId: ['Vendor Identifier'],
    quantity: ['Quantity'],
    amount: ['Extended Partner Share'],
    currency: ['Partner Share Currency'],
    salesOrReturn: ['Sales or Return'],
    artist: ['Artist/Show/Developer/Author', 'Artist/Show'],
    title: ['Title'],
    country: ['Country Of Sale'],
    rate: ['Exchange Rate', 'FX Rate', 'Rate to USD'],
    adjustment: ADJUSTMENT_COLUMN,
  },
  required: ['startDate', 'endDate', 'quantity', 'amount', 'currency', 'country'],
  preamble(cells, header) {
    const key = normalizeHeading(cells[0] ?? '');
    const value = usDay(cells[1] ?? '') ?? isoDay(cells[1] ?? '');
    if (key === 'startdate' && value) header.periodStart = value;
    if (key === 'enddate' && value) header.periodEnd = value;
  },
  endsLines(cells) {
    const first = normalizeHeading(cells[0] ?? '');
    return first === 'countryofsale' || first.startsWith('total');
  },
  line(row) {
    const cur = code(row, 'currency');
    const returned = row.get('salesOrReturn').toUpperCase() === 'R';
    let amount = money(row, 'amount');
    let quantity = whole(row, 'quantity');
    if (returned) {
      amount = amount > 0n ? -amount : amount;
      quantity = -Math.abs(quantity);
    }
    let amountAcct = amount;
    let fxRate = '1';
    if (cur !== 'USD') {
      if (row.get('rate') === '') throw noRate(cur);
      fxRate = rate(row, 'rate');
      amountAcct = convert(amount, fxRate);
    }
    row.usd = amountAcct;
    return {
      isrc: isrc(row.get('isrc')),
      upc: upc(row.get('upc')),
      title: row.get('title'),
      artist: row.get('artist'),
      saleStart: day(row, 'startDate', usDay, '08/31/2024'),
      saleEnd: day(row, 'endDate', usDay, '08/31/2024'),
      reportedAt: '',
      store: 'iTunes',
      serviceTier: '',
      territory: country(row, 'country'),
      usageType: 'download',
      proprietaryIds: row.get('vendorId') === '' ? [] : [row.get('vendorId')],
      quantity,
      amountTxn: amount,
      currencyTxn: cur,
      amountAcct,
      fxRate,
      fxDate: '',
      adjustmentType: adjustment(row.get('adjustment')) || (returned ? 'return' : ''),
    };
  },
};

export const TEMPLATES: Record<TemplateName, Template> = { omni, distrokid, tunecore, cdbaby, apple };
