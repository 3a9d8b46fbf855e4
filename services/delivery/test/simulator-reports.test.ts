// The simulated stores report back: DDEX DSR statements (FinancialReportingToRecordCompaniesProfileSRB 1.0)
// and daily trend files, from what each store folder holds live. The cells' order is read from the
// profile's XSD itself, the money is added up again here with a parser of our own, and the model is held
// to its properties.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import {
  buildBatchComplete,
  buildNewReleaseMessage,
  buildPurgeReleaseMessage,
  buildTakedownMessage,
  createErnValidator,
  type ErnNewReleaseInput,
} from '../src/domain/ddex';
import { simulatedPartyId } from '../src/providers/stores/defaults';
import { createLocalTransport } from '../src/providers/transport/local';
import { createStoreSimulator } from '../src/simulator';
import {
  createDsrWriter,
  escapeCell,
  HEAD_CELLS,
  SR08_CELLS,
  SRFO_CELLS,
  type Sr08Line,
  SummaryTotals,
  SY10_CELLS,
} from '../src/simulator/reports/dsr-writer';
import { formatNano, mulNano, parseNano } from '../src/simulator/reports/nano';
import {
  dailyStreams,
  estimatedStreams,
  type SaleKey,
  spamStreams,
  storeTerritories,
} from '../src/simulator/reports/sales-model';
import {
  monthPeriod,
  monthToDate,
  periodLabel,
  writeStoreReports,
} from '../src/simulator/reports/sales-report';
import { albumInput, explicitInput, singleInput } from './support/ern-fixtures';
import { releaseBatch, sourceRelease } from './support/store-batch';

const XSD = path.join(
  __dirname,
  '../../royalties/ddex/dsrf/FinancialReportingToRecordCompaniesProfileSRB-1.0.xsd',
);

/** The element names of a complexType's sequence, in order, read from the XSD. */
function xsdCells(type: string): string[] {
  const xsd = readFileSync(XSD, 'utf8');
  const body = new RegExp(`<xs:complexType name="RecordType-${type}">([\\s\\S]*?)</xs:complexType>`).exec(
    xsd,
  );
  if (!body) throw new Error(`no RecordType-${type} in the XSD`);
  return [...(body[1] as string).matchAll(/<xs:element name="([^"]+)"/g)].map((m) => m[1] as string);
}

const ORDER = {
  HEAD: xsdCells('SRHE'),
  SY10: xsdCells('SY10'),
  SR08: xsdCells('SR08'),
  SRFO: xsdCells('SRFO'),
};

/** A parser of our own for the amounts (not the writer's): `-1.5` → -1_500_000_000n. */
function nano(text: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not an amount: "${text}"`);
  const fraction = (m[3] ?? '').padEnd(9, '0');
  if (fraction.length > 9) throw new Error(`more than nine decimals: ${text}`);
  const v = BigInt(m[2] as string) * 1_000_000_000n + BigInt(fraction);
  return m[1] ? -v : v;
}
const sum = (cell: string) =>
  cell === ''
    ? 0n
    : cell
        .split('|')
        .map(nano)
        .reduce((a, b) => a + b, 0n);

/**
 * A record's cells, read left to right as DSR Part 1 §6.6.4 escapes them (three backslashes: a backslash;
 * two and a pipe: a pipe; one and a tab: a tab): only a tab outside an escape separates cells. Cells keep
 * their escaped text.
 */
function splitCells(record: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < record.length; ) {
    const c = record[i] as string;
    if (c === '\\') {
      const n =
        record.startsWith('\\\\\\', i) || record.startsWith('\\\\|', i) ? 3 : record[i + 1] === '\t' ? 2 : 1;
      cell += record.slice(i, i + n);
      i += n;
    } else if (c === '\t') {
      cells.push(cell);
      cell = '';
      i++;
    } else {
      cell += c;
      i++;
    }
  }
  cells.push(cell);
  return cells;
}

type Row = Record<string, string>;
interface Dsr {
  head: Row;
  summaries: Row[];
  lines: Row[];
  foot: Row;
  records: string[][];
}

/** Reads a DSR by the XSD's order, checking each record's cell count and the records' order. */
function readDsr(file: string): Dsr {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const records = text
    .slice(0, -1)
    .split('\n')
    .map((l) => l.split('\t'));
  const named = (cells: string[]): Row => {
    const type = cells[0] as keyof typeof ORDER;
    const order = ORDER[type];
    expect(order).toBeDefined();
    expect(cells).toHaveLength(order.length);
    return Object.fromEntries(order.map((name, i) => [name, cells[i] as string]));
  };
  const kinds = records.map((r) => r[0]).join(' ');
  // HEAD, SY10+, SR08*, SRFO and nothing else.
  expect(kinds).toMatch(/^HEAD( SY10)+( SR08)* SRFO$/);
  const rows = records.map(named);
  return {
    head: rows[0] as Row,
    summaries: rows.filter((r) => r.RecordType === 'SY10'),
    lines: rows.filter((r) => r.RecordType === 'SR08'),
    foot: rows[rows.length - 1] as Row,
    records,
  };
}

// ---- the writer --------------------------------------------------------------------------------------------

describe('the DSR writer', () => {
  it('knows every cell of each record type in the XSD order', () => {
    expect(HEAD_CELLS).toEqual(ORDER.HEAD);
    expect(SY10_CELLS).toEqual(ORDER.SY10);
    expect(SR08_CELLS).toEqual(ORDER.SR08);
    expect(SRFO_CELLS).toEqual(ORDER.SRFO);
    // The XSD is what it was when these were derived: 16, 46, 48 and 3 cells.
    expect([ORDER.HEAD.length, ORDER.SY10.length, ORDER.SR08.length, ORDER.SRFO.length]).toEqual([
      16, 46, 48, 3,
    ]);
  });

  const head = {
    messageId: 'M1',
    createdAt: '2027-01-05T08:00:00Z',
    usageStart: '2026-12-01',
    usageEnd: '2026-12-31',
    sender: { partyId: 'PADPIDA0000STORE', name: 'Store' },
    recipient: { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' },
    serviceDescription: 'Store',
  };
  const line: Sr08Line = {
    summaryId: '1',
    salesTransactionId: 'TX-1',
    releaseIcpn: '196000000012',
    dspReleaseId: 'DSP-R',
    labelReleaseId: 'LBL-R',
    proprietaryReleaseIds: ['DPID:PADPIDA2026112401O::QZES72600001196000000012', 'ns2::x'],
    releaseType: 'Single',
    releaseTitle: 'Night | Drive\t\\',
    releaseDisplayArtistName: 'Luna Vega',
    isrc: 'QZES72600001',
    dspResourceId: 'DSP-A',
    labelResourceId: 'LBL-A',
    proprietaryResourceIds: ['ns::res'],
    resourceType: 'SoundRecording',
    resourceTitle: 'Night Drive 1',
    resourceDisplayArtistName: 'Luna Vega feat. Kai',
    date: '2026-12-07',
    usages: 1234,
    returns: 4,
    unitPriceNano: parseNano('0.0030'),
    wholesale: true,
    deductions: [{ type: 'spam_deduction', nano: parseNano('0.5') }],
    copyrightObligationWithDsp: false,
  };

  async function write(lines: Sr08Line[], declared?: (t: SummaryTotals) => void) {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const writer = createDsrWriter(out, head);
    const totals = new SummaryTotals();
    for (const l of lines) totals.add(l, parseNano('1.085'));
    declared?.(totals);
    writer.summary({
      commercialModel: 'SubscriptionModel',
      useType: 'OnDemandStream',
      start: '2026-12-01',
      end: '2026-12-31',
      territory: 'DE',
      currency: 'EUR',
      exchangeRate: '1.085',
      dateOfCurrencyExchange: '2026-01-01T00:00:00Z',
      totals,
    });
    for (const l of lines) await writer.line(l);
    const result = await writer.end();
    return { text: Buffer.concat(chunks).toString('utf8'), result };
  }

  it('puts every value in its named cell, escaped, with amounts derived to the nano', async () => {
    const { text } = await write([line]);
    const records = text.trimEnd().split('\n');
    const cells = splitCells(records[2] as string);
    expect(cells).toHaveLength(ORDER.SR08.length);
    const r = Object.fromEntries(ORDER.SR08.map((n, i) => [n, cells[i]]));
    expect(r).toMatchObject({
      RecordType: 'SR08',
      SalesTransactionId: 'TX-1',
      ReleaseGRid: '',
      ReleaseICPN: '196000000012',
      DspReleaseId: 'DSP-R',
      LabelReleaseId: 'LBL-R',
      ProprietaryReleaseId: 'DPID:PADPIDA2026112401O::QZES72600001196000000012|ns2::x',
      ReleaseType: 'Single',
      ReleaseTitle: 'Night \\\\| Drive\\\t\\\\\\',
      ReleaseDisplayArtistName: 'Luna Vega',
      ResourceISRC: 'QZES72600001',
      ResourceISAN: '',
      DspResourceId: 'DSP-A',
      LabelResourceId: 'LBL-A',
      ProprietaryResourceId: 'ns::res',
      ResourceType: 'SoundRecording',
      ResourceTitle: 'Night Drive 1',
      ResourceDisplayArtistName: 'Luna Vega feat. Kai',
      SummaryRecordId: '1',
      SalesTransactionDate: '2026-12-07',
      TotalUsages: '1234',
      Returns: '4',
      NetUsage: '1230',
      WholesalePriceInCurrencyOfTransaction: '0.003',
      WholesalePriceInCurrencyOfAccounting: '0.003255',
      DeductionType: 'spam_deduction',
      DeductionsInCurrencyOfTransaction: '0.50',
      DeductionsInCurrencyOfAccounting: '0.5425',
      RightSharePercentage: '100',
      CalculatedUnitPriceInCurrencyOfTransaction: '0.003',
      CalculatedUnitPriceInCurrencyOfAccounting: '0.003255',
      // 1230 × 0.003 = 3.69 EUR; × 1.085 = 4.00365 USD; net = less the deduction.
      AllocatedRevenueInCurrencyOfTransaction: '3.69',
      AllocatedRevenueInCurrencyOfAccounting: '4.00365',
      AllocatedNetRevenueInCurrencyOfTransaction: '3.19',
      AllocatedNetRevenueInCurrencyOfAccounting: '3.46115',
      CopyrightObligationWithDSP: 'false',
    });
    expect(escapeCell('a|b')).toBe('a\\\\|b');
  });

  it('refuses a summary whose declared totals are not its lines', async () => {
    await expect(
      write([line, { ...line, date: '2026-12-08' }], (t) => {
        t.netAcc += 1n;
      }),
    ).rejects.toThrow(/SY10 1 does not add up/);
  });

  it('refuses a line before its summary, a summary after a line, and a line outside the period', async () => {
    const writer = createDsrWriter(new PassThrough(), head);
    expect(() => writer.line(line)).toThrow(/not written/);
    const totals = new SummaryTotals().add(line, 1_000_000_000n);
    const summary = {
      commercialModel: 'SubscriptionModel',
      useType: 'OnDemandStream',
      start: '2026-12-01',
      end: '2026-12-31',
      territory: 'US',
      currency: 'USD',
      exchangeRate: '1',
      totals,
    };
    writer.summary(summary);
    expect(() => writer.line({ ...line, date: '2027-01-01' })).toThrow(/outside SY10 1/);
    await writer.line(line);
    expect(() => writer.summary(summary)).toThrow(/before the first SR08/);
  });

  it('formats and converts nano amounts without floats', () => {
    expect(formatNano(parseNano('0.0030'))).toBe('0.003');
    expect(formatNano(12n * 1_000_000_000n)).toBe('12.00');
    expect(formatNano(-700_000_000n)).toBe('-0.70');
    expect(formatNano(1n)).toBe('0.000000001');
    // Halves away from zero: 0.000000005 × 0.1 = 0.0000000005 → 0.000000001.
    expect(mulNano(5n, 100_000_000n)).toBe(1n);
    expect(mulNano(-5n, 100_000_000n)).toBe(-1n);
    expect(() => parseNano('1e-3')).toThrow();
  });
});

// ---- the stores' reports -----------------------------------------------------------------------------------

const OMNI = { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' };
const STORE_NAMES: Record<string, string> = {
  spotify: 'Spotify',
  apple_music: 'Apple Music',
  deezer: 'Deezer',
  beatport: 'Beatport',
  tidal: 'TIDAL',
  qobuz: 'Qobuz',
};

let batchSeq = 0;

/** What the simulator leaves behind when a store ingested a batch: its files and its ingested.jsonl line. */
function ingest(
  root: string,
  key: string,
  ingestedAt: string,
  message: { upc: string; xml: string; messageId: string },
  outcome = 'FileOK',
) {
  batchSeq += 1;
  const batchId = `${ingestedAt.slice(0, 10).replace(/-/g, '')}0000000${String(batchSeq).padStart(2, '0')}`;
  const folder = `N_${batchId}`;
  const dir = path.join(root, key, folder);
  mkdirSync(path.join(dir, message.upc), { recursive: true });
  writeFileSync(path.join(dir, message.upc, `${message.upc}.xml`), message.xml);
  const store = { partyId: simulatedPartyId(key), name: STORE_NAMES[key] as string };
  writeFileSync(
    path.join(dir, `BatchComplete_${batchId}.xml`),
    buildBatchComplete({
      batchId,
      sender: OMNI,
      recipient: store,
      createdAt: ingestedAt,
      messages: [
        {
          path: `${message.upc}/${message.upc}.xml`,
          messageId: message.messageId,
          releaseIds: [message.upc],
          sha256: createHash('sha256').update(message.xml).digest('hex'),
        },
      ],
    }),
  );
  mkdirSync(path.join(root, key, '.simulator'), { recursive: true });
  appendFileSync(
    path.join(root, key, '.simulator', 'ingested.jsonl'),
    `${JSON.stringify({ folder, batchId, messageIds: [message.messageId], releaseIds: [message.upc], outcome, ingestedAt, fileHashes: [] })}\n`,
  );
}

function forStore(key: string, input: ErnNewReleaseInput, upc: string, start?: string): ErnNewReleaseInput {
  return {
    ...input,
    header: {
      ...input.header,
      messageId: `msg-${key}-${upc}-${batchSeq}`,
      sender: OMNI,
      recipient: { partyId: simulatedPartyId(key), name: STORE_NAMES[key] as string },
    },
    release: { ...input.release, upc },
    deals: input.deals.map((d) => ({ ...d, ...(start ? { startDate: start } : {}) })),
  };
}

const newRelease = (input: ErnNewReleaseInput) => ({
  upc: input.release.upc,
  xml: buildNewReleaseMessage(input),
  messageId: input.header.messageId,
});

const LIVE: Record<string, string> = {
  spotify: '2026-12-04',
  apple_music: '2026-12-10',
  deezer: '2026-12-04',
  beatport: '2026-12-04',
};

/** Six stores: live ones, one taken down mid-month, one rejected, one whose release starts next year. */
function simulatorRoot(): string {
  const root = path.join(mkdtempSync(path.join(tmpdir(), 'omni-reports-')), 'stores');
  // A single, streams and downloads worldwide from 2026-12-04, delivered early.
  ingest(
    root,
    'spotify',
    '2026-12-01T10:00:00.000Z',
    newRelease(forStore('spotify', singleInput(), '196000000012')),
  );
  // An EP (TrackReleases with Omni's proprietary ids), subscription streams in US, CA, GB from 2026-12-10.
  ingest(
    root,
    'apple_music',
    '2026-12-02T10:00:00.000Z',
    newRelease(forStore('apple_music', explicitInput(), '196000000029', LIVE.apple_music)),
  );
  // A 12-track album, taken down on 2026-12-20 (the same message without deals).
  const album = forStore('deezer', albumInput(), '196000000036');
  ingest(root, 'deezer', '2026-11-20T10:00:00.000Z', newRelease(album));
  const takedown = { ...album, header: { ...album.header, messageId: 'msg-deezer-takedown' } };
  ingest(root, 'deezer', '2026-12-20T09:00:00.000Z', {
    upc: album.release.upc,
    xml: buildTakedownMessage(takedown),
    messageId: 'msg-deezer-takedown',
  });
  // Downloads only.
  const shop = forStore('beatport', singleInput(), '196000000043');
  ingest(root, 'beatport', '2026-12-01T10:00:00.000Z', newRelease({ ...shop, deals: shop.deals.slice(1) }));
  // Rejected by the store: it holds nothing.
  ingest(
    root,
    'tidal',
    '2026-12-01T10:00:00.000Z',
    newRelease(forStore('tidal', singleInput(), '196000000050')),
    'Rejected',
  );
  // Live from next year only: a "no sales" statement.
  ingest(
    root,
    'qobuz',
    '2026-12-01T10:00:00.000Z',
    newRelease(forStore('qobuz', singleInput(), '196000000067', '2027-01-15')),
  );
  return root;
}

const CREATED = '2027-01-05T08:00:00Z';
const DECEMBER = monthPeriod('2026-12');

describe('the stores’ reports', () => {
  let root: string;
  let outDir: string;
  let result: Awaited<ReturnType<typeof writeStoreReports>>;
  const dsrOf = (key: string) => {
    const name = readdirSync(outDir).find((n) =>
      n.startsWith(`DSR_${OMNI.partyId}_${simulatedPartyId(key)}_`),
    );
    if (!name) throw new Error(`no DSR for ${key}`);
    return { name, dsr: readDsr(path.join(outDir, name)) };
  };

  beforeAll(async () => {
    root = simulatorRoot();
    outDir = path.join(path.dirname(root), 'reports');
    result = await writeStoreReports({ simulatorRoot: root, outDir, period: DECEMBER, createdAt: CREATED });
  });

  it('writes one DSR per store that took a release, named by the DDEX convention, and trend files', () => {
    const names = readdirSync(outDir).sort();
    const dsrs = names.filter((n) => n.startsWith('DSR_'));
    expect(dsrs).toHaveLength(5); // not tidal, which rejected its only batch
    expect(names.some((n) => n.includes(simulatedPartyId('tidal')) || n.includes('tidal'))).toBe(false);
    expect(dsrOf('spotify').name).toBe(
      `DSR_${OMNI.partyId}_${simulatedPartyId('spotify')}_Spotify_2026-12_Multi_1of1_20270105T080000.tsv`,
    );
    expect(dsrOf('apple_music').name).toMatch(/_AppleMusic_2026-12_Multi_1of1_20270105T080000\.tsv$/);
    expect(dsrOf('qobuz').name).toMatch(/_Qobuz_2026-12_Worldwide_1of1_/);
    // Trend files per streaming store and day; none for the download shop.
    for (const key of ['spotify', 'apple_music', 'deezer', 'qobuz'])
      expect(names.filter((n) => n.startsWith(`TREND_${key}_`))).toHaveLength(31);
    expect(names.filter((n) => n.startsWith('TREND_beatport_'))).toEqual([]);
    // Nothing half-written left behind.
    expect(names.filter((n) => n.startsWith('.'))).toEqual([]);
    expect(result.files).toEqual(names.map((n) => path.join(outDir, n)));
    const totalLines = dsrs.reduce((n, name) => n + readDsr(path.join(outDir, name)).lines.length, 0);
    expect(result.lines).toBe(totalLines);
  });

  it('HEAD names the store as sender and Omni as recipient; the footer counts right', () => {
    for (const key of ['spotify', 'apple_music', 'deezer', 'beatport', 'qobuz']) {
      const { dsr } = dsrOf(key);
      expect(dsr.head).toMatchObject({
        MessageVersion: expect.stringMatching(/^dsrf\//),
        Profile: 'FinancialReportingToRecordCompaniesProfileSRB',
        ProfileVersion: '1.0',
        MessageCreatedDateTime: CREATED,
        FileNumber: '1',
        NumberOfFiles: '1',
        UsageStartDate: '2026-12-01',
        UsageEndDate: '2026-12-31',
        SenderPartyId: simulatedPartyId(key),
        SenderName: STORE_NAMES[key],
        RecipientPartyId: OMNI.partyId,
        RecipientName: OMNI.name,
      });
      expect(dsr.foot.NumberOfLinesInReport).toBe(String(dsr.records.length));
      expect(dsr.foot.NumberOfSummaryRecords).toBe(String(dsr.summaries.length));
      expect(dsr.summaries.map((s) => s.SummaryRecordId)).toEqual(dsr.summaries.map((_, i) => String(i + 1)));
    }
  });

  it('each SY10 adds up to its SR08 lines to the nano, in both currencies', () => {
    let grandTotal = 0n;
    for (const key of ['spotify', 'apple_music', 'deezer', 'beatport', 'qobuz']) {
      const { dsr } = dsrOf(key);
      for (const s of dsr.summaries) {
        const lines = dsr.lines.filter((l) => l.SummaryRecordId === s.SummaryRecordId);
        if (key !== 'qobuz') expect(lines.length).toBeGreaterThan(0);
        const total = (cell: string) => lines.reduce((a, l) => a + sum(l[cell] as string), 0n);
        expect(nano(s.AllocatedUsages as string)).toBe(total('TotalUsages'));
        expect(nano(s.Returns as string)).toBe(total('Returns'));
        for (const c of ['Transaction', 'Accounting']) {
          const revenue = total(`AllocatedRevenueInCurrencyOf${c}`);
          const net = total(`AllocatedNetRevenueInCurrencyOf${c}`);
          expect(nano(s[`AllocatedRevenueInCurrencyOf${c}`] as string)).toBe(revenue);
          expect(nano(s[`AllocatedNetRevenueInCurrencyOf${c}`] as string)).toBe(net);
          expect(nano(s[`FinalTotalAmountInCurrencyOf${c}`] as string)).toBe(net);
          expect(sum(s[`DeductionsInCurrencyOf${c}`] as string)).toBe(total(`DeductionsInCurrencyOf${c}`));
          // Each line: net = revenue − deductions, revenue = net usage × unit price (transaction currency).
          for (const l of lines) {
            expect(nano(l[`AllocatedNetRevenueInCurrencyOf${c}`] as string)).toBe(
              nano(l[`AllocatedRevenueInCurrencyOf${c}`] as string) -
                sum(l[`DeductionsInCurrencyOf${c}`] as string),
            );
          }
        }
        for (const l of lines) {
          expect(nano(l.NetUsage as string)).toBe(nano(l.TotalUsages as string) - nano(l.Returns as string));
          expect(nano(l.AllocatedRevenueInCurrencyOfTransaction as string)).toBe(
            BigInt(l.NetUsage as string) * nano(l.CalculatedUnitPriceInCurrencyOfTransaction as string),
          );
        }
        expect(s.CurrencyOfAccounting).toBe('USD');
        expect(s.DateOfCurrencyExchange).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        grandTotal += nano(s.FinalTotalAmountInCurrencyOfAccounting as string);
      }
    }
    expect(nano(result.totalUsd)).toBe(grandTotal);
    expect(grandTotal).toBeGreaterThan(0n);
  });

  it('counts nothing before the live date, nor after a takedown, nor outside the deal’s territories', () => {
    for (const key of ['spotify', 'apple_music', 'deezer', 'beatport']) {
      const { dsr } = dsrOf(key);
      const dates = dsr.lines.map((l) => l.SalesTransactionDate as string);
      expect(dates.length).toBeGreaterThan(0);
      expect(dates.every((d) => d >= (LIVE[key] as string) && d <= '2026-12-31')).toBe(true);
      // Streams start on the live day itself (a download shop may sell nothing that day).
      if (key !== 'beatport') expect(dates).toContain(LIVE[key]);
    }
    const deezer = dsrOf('deezer').dsr.lines.map((l) => l.SalesTransactionDate as string);
    expect(deezer.every((d) => d < '2026-12-20')).toBe(true);
    expect(deezer).toContain('2026-12-19');
    // The EP's deal: US, CA, GB; Apple Music sells in US GB DE FR JP → US and GB.
    expect(new Set(dsrOf('apple_music').dsr.summaries.map((s) => s.Territory))).toEqual(
      new Set(['US', 'GB']),
    );
    expect(dsrOf('qobuz').dsr.lines).toEqual([]);
    expect(dsrOf('qobuz').dsr.summaries).toHaveLength(1);
    // Trend rows too.
    const trend = (key: string, date: string) =>
      readFileSync(path.join(outDir, `TREND_${key}_${date}.csv`), 'utf8')
        .trimEnd()
        .split('\n');
    expect(trend('apple_music', '2026-12-09')).toEqual(['date,store,territory,isrc,upc,streams']);
    expect(trend('deezer', '2026-12-20')).toEqual(['date,store,territory,isrc,upc,streams']);
    expect(trend('spotify', '2026-12-04').length).toBeGreaterThan(1);
  });

  it('echoes the ids the ERN carried and gives each context its model, currency and tier', () => {
    const apple = dsrOf('apple_music').dsr;
    const isrcs = explicitInput().release.recordings.map((r) => r.isrc);
    for (const l of apple.lines) {
      expect(l.ReleaseICPN).toBe('196000000029');
      expect(isrcs).toContain(l.ResourceISRC);
      // The Audio profile's TrackRelease id, `Namespace::id`.
      expect(l.ProprietaryReleaseId).toBe(`DPID:${OMNI.partyId}::${l.ResourceISRC}196000000029`);
      expect(l.ReleaseType).toBe('EP');
      expect(l.ReleaseTitle).toBe('After Hours');
      expect(l.DspReleaseId).not.toBe('');
      expect(l.DspResourceId).not.toBe('');
    }
    const spotify = dsrOf('spotify').dsr;
    const contexts = spotify.summaries.map(
      (s) => `${s.Territory} ${s.CommercialModel} ${s.UseType} ${s.CurrencyOfTransaction}`,
    );
    expect(contexts).toContain('DE SubscriptionModel OnDemandStream EUR');
    expect(contexts).toContain('US AdvertisementSupportedModel OnDemandStream USD');
    expect(contexts).toContain('JP SubscriptionModel OnDemandStream JPY');
    expect(new Set(spotify.summaries.map((s) => s.Territory))).toEqual(new Set(storeTerritories('spotify')));
    const shop = dsrOf('beatport').dsr;
    expect(
      shop.summaries.every(
        (s) => s.CommercialModel === 'PayAsYouGoModel' && s.UseType === 'PermanentDownload',
      ),
    ).toBe(true);
    expect(
      shop.lines.every(
        (l) => l.WholesalePriceInCurrencyOfTransaction === l.CalculatedUnitPriceInCurrencyOfTransaction,
      ),
    ).toBe(true);
  });

  it('writes spam deductions and returns as lines of their own', () => {
    const all = ['spotify', 'apple_music', 'deezer', 'beatport'].flatMap((k) => dsrOf(k).dsr.lines);
    const spam = all.filter((l) => l.DeductionType === 'spam_deduction');
    expect(spam.length).toBeGreaterThan(0);
    for (const l of spam) {
      expect(l.TotalUsages).toBe('0');
      expect(nano(l.AllocatedNetRevenueInCurrencyOfTransaction as string)).toBeLessThan(0n);
    }
    expect(all.some((l) => l.Returns !== '0')).toBe(true);
  });

  it('trend estimates are the statement’s streams within ±3 %', () => {
    const spotify = dsrOf('spotify').dsr;
    const finals = new Map<string, number>();
    const territoryOf = new Map(spotify.summaries.map((s) => [s.SummaryRecordId, s.Territory]));
    const streamIds = new Set(
      spotify.summaries.filter((s) => s.UseType === 'OnDemandStream').map((s) => s.SummaryRecordId),
    );
    for (const l of spotify.lines) {
      if (!streamIds.has(l.SummaryRecordId as string)) continue;
      const k = `${l.SalesTransactionDate}|${territoryOf.get(l.SummaryRecordId as string)}|${l.ResourceISRC}`;
      finals.set(k, (finals.get(k) ?? 0) + Number(l.TotalUsages));
    }
    let rows = 0;
    for (const name of readdirSync(outDir).filter((n) => n.startsWith('TREND_spotify_'))) {
      const [header, ...lines] = readFileSync(path.join(outDir, name), 'utf8').trimEnd().split('\n');
      expect(header).toBe('date,store,territory,isrc,upc,streams');
      for (const row of lines) {
        const [date, store, territory, isrc, upc, streams] = row.split(',');
        expect([store, upc]).toEqual(['spotify', '196000000012']);
        const final = finals.get(`${date}|${territory}|${isrc}`) ?? 0;
        expect(Math.abs(Number(streams) - final)).toBeLessThanOrEqual(Math.ceil(final * 0.03) + 1);
        rows++;
      }
    }
    expect(rows).toBeGreaterThan(0);
  });

  it('the same period written twice gives the same bytes, and leaves identical files untouched', async () => {
    const before = new Map(
      result.files.map((f) => [f, { bytes: readFileSync(f), mtime: statSync(f).mtimeMs }]),
    );
    const again = await writeStoreReports({
      simulatorRoot: root,
      outDir,
      period: DECEMBER,
      createdAt: new Date(CREATED),
    });
    expect(again).toEqual(result);
    for (const [file, { bytes, mtime }] of before) {
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(statSync(file).mtimeMs).toBe(mtime);
    }
    // Elsewhere, from scratch: the same bytes.
    const elsewhere = path.join(path.dirname(root), 'elsewhere');
    const fresh = await writeStoreReports({
      simulatorRoot: root,
      outDir: elsewhere,
      period: DECEMBER,
      createdAt: CREATED,
    });
    for (const file of fresh.files)
      expect(readFileSync(file).equals(readFileSync(path.join(outDir, path.basename(file))))).toBe(true);
  });

  it('a month-to-date report covers the days up to its end, named by its dates', async () => {
    const mtd = path.join(path.dirname(root), 'mtd');
    const period = monthToDate('2026-12-12');
    expect(periodLabel(period)).toBe('2026-12-01--2026-12-12');
    const out = await writeStoreReports({
      simulatorRoot: root,
      outDir: mtd,
      period,
      createdAt: '2026-12-13T01:00:00Z',
      keys: ['spotify'],
    });
    const dsrName = readdirSync(mtd).find((n) => n.startsWith('DSR_')) as string;
    expect(dsrName).toContain('_Spotify_2026-12-01--2026-12-12_');
    const dsr = readDsr(path.join(mtd, dsrName));
    expect(dsr.lines.every((l) => (l.SalesTransactionDate as string) <= '2026-12-12')).toBe(true);
    expect(out.files.filter((f) => path.basename(f).startsWith('TREND_'))).toHaveLength(12);
    // The day's stream lines are the same in both reports (the model does not depend on the period).
    const december = dsrOf('spotify').dsr;
    const usages = (d: Dsr, date: string) =>
      d.lines
        .filter((l) => l.SalesTransactionDate === date && l.TotalUsages !== '0')
        .map((l) => l.TotalUsages);
    expect(usages(dsr, '2026-12-07')).toEqual(usages(december, '2026-12-07'));
  });

  it('a purged release is gone from the day the store took the purge', async () => {
    const purgeRoot = simulatorRoot();
    ingest(purgeRoot, 'spotify', '2026-12-15T10:00:00.000Z', {
      upc: '196000000012',
      xml: buildPurgeReleaseMessage({
        header: { ...forStore('spotify', singleInput(), '196000000012').header, messageId: 'msg-purge' },
        upc: '196000000012',
        title: 'Night Drive 1',
      }),
      messageId: 'msg-purge',
    });
    const out = path.join(path.dirname(purgeRoot), 'reports');
    await writeStoreReports({
      simulatorRoot: purgeRoot,
      outDir: out,
      period: DECEMBER,
      createdAt: CREATED,
      keys: ['spotify'],
    });
    const dsr = readDsr(path.join(out, readdirSync(out).find((n) => n.startsWith('DSR_')) as string));
    const dates = dsr.lines.map((l) => l.SalesTransactionDate as string);
    expect(dates).toContain('2026-12-14');
    expect(dates.every((d) => d < '2026-12-15')).toBe(true);
  });
});

test('two stores under one DDEX party refuse to report (their statements would share a name)', async () => {
  const root = path.join(mkdtempSync(path.join(tmpdir(), 'omni-reports-dpid-')), 'stores');
  ingest(
    root,
    'spotify',
    '2026-12-01T10:00:00.000Z',
    newRelease(forStore('spotify', singleInput(), '196000000012')),
  );
  // deezer's folder holds a message addressed to spotify's DPID.
  ingest(
    root,
    'deezer',
    '2026-12-01T10:00:00.000Z',
    newRelease(forStore('spotify', singleInput(), '196000000029')),
  );
  await expect(
    writeStoreReports({
      simulatorRoot: root,
      outDir: path.join(root, '..', 'out'),
      period: DECEMBER,
      createdAt: CREATED,
    }),
  ).rejects.toThrow(/stores deezer and spotify both took releases as DDEX party/);
});

// ---- through the simulator ---------------------------------------------------------------------------------

test('the running simulator reports what it acknowledged, from the day it took it', async () => {
  const validator = createErnValidator();
  const dir = mkdtempSync(path.join(tmpdir(), 'omni-reports-sim-'));
  const root = path.join(dir, 'stores');
  const simulator = createStoreSimulator({
    root,
    keys: ['spotify', 'deezer'],
    validator,
    delayMs: 0,
    pollMs: 20,
  });
  try {
    await simulator.start();
    const release = sourceRelease(path.join(dir, 'sources'), '0196000000012', 4096);
    release.input.deals = release.input.deals.map((d) => ({ ...d, startDate: '2026-01-01' }));
    await createLocalTransport({ root: path.join(root, 'spotify') }).deliver(
      releaseBatch(release, { batchId: '20261124013000001' }),
    );
    await simulator.poll();
    await simulator.drain();
    const today = new Date().toISOString().slice(0, 10);
    const outDir = path.join(dir, 'reports');
    const result = await simulator.writeReports({
      outDir,
      period: monthToDate(today),
      createdAt: '2030-01-01T00:00:00Z',
    });
    // deezer took nothing: no report of its own.
    const dsrs = result.files.filter((f) => path.basename(f).startsWith('DSR_'));
    expect(dsrs).toHaveLength(1);
    const dsr = readDsr(dsrs[0] as string);
    expect(dsr.head.SenderPartyId).toBe(release.input.header.recipient.partyId);
    expect(dsr.head.RecipientPartyId).toBe(release.input.header.sender.partyId);
    expect(dsr.lines.length).toBeGreaterThan(0);
    // Live from the day the store took it (the deal started long before).
    const [batch] = (await simulator.stats('spotify')).batches;
    expect(batch?.outcome).toBe('FileOK');
    const took = (batch?.ingestedAt ?? '').slice(0, 10);
    const dates = dsr.lines.map((l) => l.SalesTransactionDate as string);
    expect(dates).toContain(took);
    expect(dates.every((d) => d >= took && d <= today)).toBe(true);
    expect(new Set(dsr.lines.map((l) => l.ReleaseICPN))).toEqual(new Set(['0196000000012']));
    expect(result.lines).toBe(dsr.lines.length);
  } finally {
    await simulator.stop();
    await validator.close();
  }
});

// ---- the model ---------------------------------------------------------------------------------------------

describe('the sales model', () => {
  const keys: SaleKey[] = [];
  for (const store of ['spotify', 'apple_music', 'extra_dsp_7'])
    for (const territory of storeTerritories(store))
      for (let d = 0; d < 60; d += 7)
        for (const isrc of ['QZES72600001', 'QZOMN2600042', 'USRC17607839'])
          keys.push({
            isrc,
            upc: '196000000012',
            store,
            territory,
            date: new Date(Date.UTC(2026, 11, 1 + d)).toISOString().slice(0, 10),
            liveDate: '2026-12-01',
          });

  it('gives whole, non-negative, deterministic streams that depend on the seed', () => {
    const first = keys.map((k) => dailyStreams(k));
    expect(first.every((n) => Number.isSafeInteger(n) && n >= 0)).toBe(true);
    expect(keys.map((k) => dailyStreams({ ...k }))).toEqual(first);
    expect(first.some((n) => n > 0)).toBe(true);
    expect(keys.map((k) => dailyStreams(k, 'another seed'))).not.toEqual(first);
  });

  it('estimates within ±3 % of the streams', () => {
    for (const k of keys) {
      const streams = dailyStreams(k);
      const estimate = estimatedStreams(k);
      expect(estimate).toBeGreaterThanOrEqual(0);
      expect(Math.abs(estimate - streams)).toBeLessThanOrEqual(Math.ceil(streams * 0.03) + 1);
    }
  });

  it('decays after the release: a year on, a track streams less than in its first week', () => {
    const total = (offset: number) =>
      keys.reduce((n, k) => n + dailyStreams({ ...k, liveDate: offset ? '2025-12-01' : k.date }), 0);
    expect(total(365)).toBeLessThan(total(0));
  });

  it('flags spam for a few keys only, never more than a tenth of the streams', () => {
    let flagged = 0;
    for (let i = 0; i < 600; i++) {
      const s = spamStreams(
        {
          isrc: `QZOMN26${String(i).padStart(5, '0')}`,
          upc: '1',
          store: 'spotify',
          territory: 'US',
          tier: 'premium',
          start: '2026-12-01',
          end: '2026-12-31',
        },
        1000,
      );
      if (s > 0) {
        flagged++;
        expect(s).toBeGreaterThanOrEqual(20);
        expect(s).toBeLessThanOrEqual(100);
      }
    }
    expect(flagged).toBeGreaterThan(10);
    expect(flagged).toBeLessThan(100);
  });
});
