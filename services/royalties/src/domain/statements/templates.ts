// CSV/TSV statement templates: per source, the columns it needs (found by header NAME, in any order;
// extra columns are ignored), and how a row becomes a canonical line (its dates, numbers, currency,
// usage type and adjustment). csv.ts finds the header row and feeds the rows; template-kit.ts has the
// shared cell readers; the Omni canonical format is documented in services/royalties/README-formats.md.
import { convert } from '../money';
import { adjustment, isoDay, isrc, monthOf, upc, usDay } from './fields';
import type { StatementLine } from './line';
import {
  ADJUSTMENT_COLUMN,
  adjustmentOf,
  code,
  country,
  day,
  LineProblem,
  money,
  noRate,
  normalizeHeading,
  period,
  rate,
  type Template,
  type TemplateName,
  tierOf,
  usageOfStore,
  usageOfWord,
  whole,
} from './template-kit';

export { LineProblem, normalizeHeading, type Row, type Template, type TemplateName } from './template-kit';

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
