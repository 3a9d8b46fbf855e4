// CSV/TSV statements through their templates: columns found by name in any order, RFC 4180 quoting,
// returns and adjustments as their own lines, 8- and 10-decimal amounts, currencies, gzip.
import { readCsvStatement } from '../src/domain/statements/csv';
import type { StatementLine } from '../src/domain/statements/line';
import type { TemplateName } from '../src/domain/statements/templates';
import { collect, gzipped, refusal, streamOf } from './support/statements';

const read = (text: string | Buffer, template: TemplateName, chunk = 9) =>
  readCsvStatement(streamOf(text, chunk), template);
const tsv = (rows: string[][]) => `${rows.map((r) => r.join('\t')).join('\n')}\n`;

const NO_HEADER = { sender: null, messageId: null, periodStart: null, periodEnd: null, reportedAt: null };

describe('omni canonical CSV', () => {
  const text = [
    'Sale_Start,sale end,REPORTED_AT,store,service_tier,territory,usage_type,isrc,upc,title,artist,quantity,amount,currency,amount_usd,fx_rate,fx_date,adjustment_type,proprietary_ids,notes',
    '2024-01-01,2024-01-31,2024-03-15,Spotify,premium,us,stream,qzda92400001,0198765432109,"Morning, Early",Nora Vale,1200,4.80,USD,,,,,omni-track-t1|omni-release-r1,x',
    '2024-01,2024-01,,YouTube,ad-supported,DE,stream,QZDA92400001,,"He said ""hi""',
    'again",Nora Vale,300,1.00,EUR,,1.0842,2024-01-31,,,',
    '',
    '2024-01-01,2024-01-31,2024-03-15,YouTube,,GB,stream,QZDA92400001,,Morning,Nora Vale,-50,-0.20,USD,,,,Spam Adjustment,,',
    '2024-01-01,2024-01-31,,Deezer,,FR,stream,,,,,10,1.00,EUR,,,,,,',
    '2024-01-01,2024-01-31,,Deezer,,FR,stream,,,,,10,1.00,EUR,1.09,1.0842,2024-01-31,,,',
    '2024-01-01,2024-01-31,,Deezer,,FR,radio,,,,,10,1.5E-3,USD,,,,,,',
  ].join('\r\n');

  it('maps every column, whatever the heading case or order, and keeps quoted commas, quotes and newlines', async () => {
    const { header, lines, refused } = await collect(read(text, 'omni'));
    expect(header).toEqual(NO_HEADER);
    expect(lines[0]).toEqual<StatementLine>({
      lineNo: 2,
      saleStart: '2024-01-01',
      saleEnd: '2024-01-31',
      reportedAt: '2024-03-15',
      store: 'Spotify',
      serviceTier: 'premium',
      territory: 'US',
      usageType: 'stream',
      isrc: 'QZDA92400001',
      upc: '0198765432109',
      proprietaryIds: ['omni-track-t1', 'omni-release-r1'],
      title: 'Morning, Early',
      artist: 'Nora Vale',
      quantity: 1200,
      amountTxn: 4_800_000_000n,
      currencyTxn: 'USD',
      amountAcct: 4_800_000_000n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    // A record over two lines is named by the line it starts on; a month is its first and last day.
    expect(lines[1]).toMatchObject({
      lineNo: 3,
      title: 'He said "hi"\nagain',
      saleStart: '2024-01-01',
      saleEnd: '2024-01-31',
      currencyTxn: 'EUR',
      amountTxn: 1_000_000_000n,
      amountAcct: 1_084_200_000n,
      fxRate: '1.0842',
      fxDate: '2024-01-31',
    });
    // The spam deduction is a line of its own, with its sign.
    expect(lines[2]).toMatchObject({
      lineNo: 6,
      quantity: -50,
      amountAcct: -200_000_000n,
      adjustmentType: 'spam_deduction',
    });
    // amount_usd wins over a rate when both are given.
    expect(lines[3]).toMatchObject({ lineNo: 8, amountAcct: 1_090_000_000n, fxRate: '1.0842' });
    expect(lines).toHaveLength(4);
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 7,
        reason:
          'Line 7 cannot be used: its amount is in EUR and the file gives no exchange rate to US dollars; Omni accounts in US dollars.',
        amountAcct: null,
      },
      {
        kind: 'refused',
        lineNo: 9,
        reason:
          'Line 9 cannot be used: in column "amount": The amount "1.5E-3" is written in exponent notation; write it as a plain decimal number (like 0.0015).',
        amountAcct: null,
      },
    ]);
  });

  it('reads the same gzipped, and from a semicolon-separated export', async () => {
    const plain = await collect(read(text, 'omni'));
    expect(await collect(read(gzipped(text), 'omni', 17))).toEqual(plain);
    const semi =
      'sale_start;sale_end;store;territory;usage_type;quantity;amount;currency\n2024-02-01;2024-02-29;Tidal;NO;stream;3;0.03;USD\n';
    expect((await collect(read(semi, 'omni'))).lines[0]).toMatchObject({
      store: 'Tidal',
      territory: 'NO',
      quantity: 3,
      amountAcct: 30_000_000n,
      reportedAt: '',
      title: '',
    });
  });

  it('refuses a file without the columns it needs, naming them', async () => {
    expect(
      await refusal(read('sale_start,store,territory,quantity,amount\n2024-01-01,Spotify,US,1,1\n', 'omni')),
    ).toBe(
      'This file does not have the columns of a Omni canonical CSV: "sale_end", "usage_type", "currency" are missing from its heading row. Check that you chose the right format for this file.',
    );
    expect(await refusal(read('', 'omni'))).toBe('The file is empty.');
  });

  it('refuses a quote that never closes, and refuses only the line of a stray quote', async () => {
    const head = 'sale_start,sale_end,store,territory,usage_type,quantity,amount,currency,title';
    expect(
      await refusal(
        read(
          `${head}\n2024-01-01,2024-01-31,Tidal,NO,stream,3,0.03,USD,"Open\n2024-01-01,2024-01-31,Tidal,NO,stream,3,0.03,USD,x\n`,
          'omni',
        ),
      ),
    ).toBe(
      'Line 2 opens a quoted value (") that never closes, so the lines after it cannot be told apart. Fix the quote or export the file again.',
    );
    const { lines, refused } = await collect(
      read(
        `${head}\n2024-01-01,2024-01-31,Tidal,NO,stream,3,0.03,USD,"A"B\n2024-01-01,2024-01-31,Tidal,NO,stream,3,0.03,USD,5" vinyl\n`,
        'omni',
      ),
    );
    expect(refused.map((r) => r.reason)).toEqual([
      'Line 2 cannot be used: a quoted value is followed by other text before the next column.',
    ]);
    expect(lines.map((l) => l.title)).toEqual(['5" vinyl']);
  });
});

describe('DistroKid TSV', () => {
  const rows = [
    [
      'Reporting Date',
      'Sale Month',
      'Store',
      'Artist',
      'Title',
      'ISRC',
      'UPC',
      'Quantity',
      'Team Percentage',
      'Song/Album',
      'Country of Sale',
      'Songwriter Royalties Withheld',
      'Earnings (USD)',
      'Customer Paid',
    ],
    [
      '2023-02-02',
      '2021-04',
      'Napster',
      'Artist 1',
      'Song 1',
      'AAAAA1234567',
      '111111111111',
      '1',
      '100',
      'Song',
      'US',
      '0',
      '0.00789993',
      '',
    ],
    [
      '2023-02-08',
      '2022-07',
      'YouTube (Ads)',
      'Artist 2',
      'Song 10',
      'BBBBB8910111',
      '',
      '2',
      '100',
      'Song',
      'us',
      '0',
      '0.00061710',
      '',
    ],
    [
      '2023-02-08',
      '2022-07',
      'iTunes',
      'Artist 2',
      'Album 100',
      '',
      '222222222222',
      '1',
      '30',
      'Album',
      'GB',
      '0',
      '2.10000000',
      '',
    ],
    [
      '2023-02-08',
      '2022-07',
      'iTunes',
      'Artist 2',
      'Song 10',
      'BBBBB1234567',
      '222222222222',
      '-1',
      '100',
      'Song',
      'GB',
      '0',
      '-0.69000000',
      '',
    ],
    [
      '2023-02-08',
      '2022-06',
      'YouTube (Spam Adjustment)',
      'Artist 2',
      'Song 10',
      'BBBBB1234567',
      '',
      '0',
      '100',
      'Song',
      'US',
      '0',
      '-0.01234567',
      '',
    ],
    [
      '2023-02-08',
      '2022-13',
      'Deezer',
      'Artist 3',
      'Song 100',
      'CCCCC1234567',
      '',
      '1',
      '30',
      'Song',
      'US',
      '0',
      '0.00048066',
      '',
    ],
  ];

  it('reads 8-decimal earnings in USD, usage from the store and album rows, returns and deductions as lines', async () => {
    const { lines, refused } = await collect(read(tsv(rows), 'distrokid'));
    expect(lines[0]).toEqual<StatementLine>({
      lineNo: 2,
      saleStart: '2021-04-01',
      saleEnd: '2021-04-30',
      reportedAt: '2023-02-02',
      store: 'Napster',
      serviceTier: '',
      territory: 'US',
      usageType: 'stream',
      isrc: 'AAAAA1234567',
      upc: '111111111111',
      proprietaryIds: [],
      title: 'Song 1',
      artist: 'Artist 1',
      quantity: 1,
      amountTxn: 7_899_930n,
      currencyTxn: 'USD',
      amountAcct: 7_899_930n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    expect(
      lines
        .slice(1)
        .map((l) => [
          l.lineNo,
          l.store,
          l.serviceTier,
          l.territory,
          l.usageType,
          l.quantity,
          l.amountAcct,
          l.adjustmentType,
        ]),
    ).toEqual([
      [3, 'YouTube (Ads)', 'ad-supported', 'US', 'stream', 2, 617_100n, ''],
      [4, 'iTunes', '', 'GB', 'download', 1, 2_100_000_000n, ''],
      [5, 'iTunes', '', 'GB', 'download', -1, -690_000_000n, 'return'],
      [6, 'YouTube (Spam Adjustment)', '', 'US', 'stream', 0, -12_345_670n, 'spam_deduction'],
    ]);
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 7,
        reason:
          'Line 7 cannot be used: the date "2022-13" in column "Sale Month" is not a date like 2024-03-31 or a month like 2024-03.',
        amountAcct: 480_660n,
      },
    ]);
  });

  it('refuses a TuneCore file read as DistroKid', async () => {
    const tunecore =
      'Sales Period,Posted Date,Store Name,Country Of Sale,Artist,Net Sales\n2020-04-01,2020-06-01,Google Play,GB,A,0.1\n';
    expect(await refusal(read(tunecore, 'distrokid'))).toBe(
      'This file does not have the columns of a DistroKid TSV: "Reporting Date", "Sale Month", "Store", "Quantity", "Earnings (USD)" are missing from its heading row. Check that you chose the right format for this file.',
    );
  });
});

describe('TuneCore CSV', () => {
  const text = [
    'Sales Period,Posted Date,Store Name,Country Of Sale,Artist,Release Type,Release Title,Song Title,Label,UPC,Optional UPC,TC Song ID,Optional ISRC,Sales Type,# Units Sold,Per Unit Price,Net Sales,Net Sales Currency,Exchange Rate,Total Earned,Currency',
    '2020-04-01,2020-06-01,Google Play,GB,Artist 1,Song,Album 1,Song 1,Test Records,567890123456,112233445566,ABCDE1234567,BCDEF5678901,Streaming,1,0.000342,0.000342,USD,0.79,0.000271,GBP',
    '2020-04-01,2020-06-01,iTunes,DE,"Artist, The",Album,Album 2,,Test Records,,223344556677,,,Download,2,0.70,1.40,EUR,1.0842,1.517880,USD',
    '2020-04-01,2020-06-01,Amazon,JP,Artist 1,Song,Album 1,Song 1,Test Records,567890123456,,,BCDEF5678901,Download,1,150,150,JPY,0.0055,0.825,GBP',
  ].join('\n');

  it('takes the USD amount from whichever column is in dollars, and refuses a line with neither', async () => {
    const { lines, refused } = await collect(read(text, 'tunecore'));
    expect(lines[0]).toEqual<StatementLine>({
      lineNo: 2,
      saleStart: '2020-04-01',
      saleEnd: '2020-04-30',
      reportedAt: '2020-06-01',
      store: 'Google Play',
      serviceTier: '',
      territory: 'GB',
      usageType: 'stream',
      isrc: 'BCDEF5678901',
      upc: '567890123456',
      proprietaryIds: [],
      title: 'Song 1',
      artist: 'Artist 1',
      quantity: 1,
      amountTxn: 342_000n,
      currencyTxn: 'USD',
      amountAcct: 342_000n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    expect(lines[1]).toMatchObject({
      artist: 'Artist, The',
      title: 'Album 2',
      upc: '223344556677',
      usageType: 'download',
      quantity: 2,
      amountTxn: 1_400_000_000n,
      currencyTxn: 'EUR',
      amountAcct: 1_517_880_000n,
      fxRate: '1.0842',
    });
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 4,
        reason:
          'Line 4 cannot be used: its amount is in JPY and the file gives no exchange rate to US dollars; Omni accounts in US dollars.',
        amountAcct: null,
      },
    ]);
  });
});

describe('CD Baby TSV', () => {
  const rows = [
    [
      'Report Date',
      'Sales Date',
      'Quantity',
      'Price',
      'Subtotal',
      'Isrc',
      'Barcode',
      'CDBabySku',
      'Album Name',
      'Artist Name',
      'Track Name',
      'Partner Name',
      'Transaction Type',
      'Delivery Country',
    ],
    [
      '10/15/2023 12:00:00 AM',
      '7/31/2023 12:00:00 AM',
      '1',
      '0.09982699',
      '0.0998269974',
      'usx123000001',
      '"880000000001"',
      'artist1',
      'Album 1',
      'Artist 1',
      'Example',
      'Amazon Prime IN',
      'Stream',
      'IN',
    ],
    [
      '10/15/2023 12:00:00 AM',
      '7/31/2023 12:00:00 AM',
      '1',
      '0.99',
      '0.99',
      '',
      '"880000000002"',
      'artist1',
      'Album 2',
      'Artist 1',
      '',
      'iTunes',
      'Download',
      'US',
    ],
    [
      '10/15/2023 12:00:00 AM',
      '7/31/2023 12:00:00 AM',
      '-1',
      '0.99',
      '-0.99',
      '',
      '880000000002',
      'artist1',
      'Album 2',
      'Artist 1',
      '',
      'iTunes',
      'Refund',
      'US',
    ],
    ['10/15/2023', '31/07/2023', '1', '0.99', '0.99', '', '', '', '', '', '', 'iTunes', 'Download', 'US'],
  ];

  it('reads US dates with times, quoted barcodes and 10-decimal subtotals', async () => {
    const { lines, refused } = await collect(read(tsv(rows), 'cdbaby'));
    expect(lines[0]).toEqual<StatementLine>({
      lineNo: 2,
      saleStart: '2023-07-31',
      saleEnd: '2023-07-31',
      reportedAt: '2023-10-15',
      store: 'Amazon Prime IN',
      serviceTier: '',
      territory: 'IN',
      usageType: 'stream',
      isrc: 'USX123000001',
      upc: '880000000001',
      proprietaryIds: [],
      title: 'Example',
      artist: 'Artist 1',
      quantity: 1,
      amountTxn: 99_826_997n,
      currencyTxn: 'USD',
      amountAcct: 99_826_997n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    expect(
      lines.slice(1).map((l) => [l.title, l.usageType, l.quantity, l.amountAcct, l.adjustmentType]),
    ).toEqual([
      ['Album 2', 'download', 1, 990_000_000n, ''],
      // A refund at a download store is a returned download.
      ['Album 2', 'download', -1, -990_000_000n, 'return'],
    ]);
    expect(refused.map((r) => [r.lineNo, r.reason, r.amountAcct])).toEqual([
      [
        5,
        'Line 5 cannot be used: the date "31/07/2023" in column "Sales Date" is not a date like 7/31/2023.',
        990_000_000n,
      ],
    ]);
  });
});

describe('Apple finance report', () => {
  const COLUMNS = [
    'Start Date',
    'End Date',
    'UPC',
    'ISRC/ISBN',
    'Vendor Identifier',
    'Quantity',
    'Partner Share',
    'Extended Partner Share',
    'Partner Share Currency',
    'Sales or Return',
    'Apple Identifier',
    'Artist/Show/Developer/Author',
    'Title',
    'Label/Studio/Network/Developer/Publisher',
    'Grid',
    'Product Type Identifier',
    'ISAN/Other Identifier',
    'Country Of Sale',
    'Pre-order Flag',
    'Promo Code',
    'Customer Price',
    'Customer Currency',
  ];
  const row = (o: Record<string, string>) => COLUMNS.map((c) => o[c] ?? '');
  const base = {
    'Start Date': '08/04/2024',
    'End Date': '08/31/2024',
    UPC: '0198765432109',
    'ISRC/ISBN': 'QZDA92400001',
    'Vendor Identifier': 'OMNI-T1',
    'Artist/Show/Developer/Author': 'Nora Vale',
    Title: 'Morning',
    'Product Type Identifier': 'S',
  };
  const file = tsv([
    ['Vendor Name', 'Omni Music'],
    ['Start Date', '08/04/2024'],
    ['End Date', '08/31/2024'],
    [],
    COLUMNS,
    row({
      ...base,
      Quantity: '3',
      'Partner Share': '0.70',
      'Extended Partner Share': '2.10',
      'Partner Share Currency': 'USD',
      'Sales or Return': 'S',
      'Country Of Sale': 'US',
    }),
    row({
      ...base,
      Quantity: '1',
      'Partner Share': '0.70',
      'Extended Partner Share': '0.70',
      'Partner Share Currency': 'USD',
      'Sales or Return': 'R',
      'Country Of Sale': 'US',
    }),
    row({
      ...base,
      Quantity: '2',
      'Partner Share': '0.60',
      'Extended Partner Share': '1.20',
      'Partner Share Currency': 'EUR',
      'Sales or Return': 'S',
      'Country Of Sale': 'FR',
    }),
    [],
    ['Country Of Sale', 'Partner Share Currency', 'Quantity', 'Extended Partner Share'],
    ['US', 'USD', '2', '1.40'],
    ['FR', 'EUR', '2', '1.20'],
    ['Total_Rows', '3'],
  ]);

  it('skips the header block and the per-country summary, takes the period from the header block', async () => {
    const { header, lines, refused } = await collect(read(file, 'apple'));
    expect(header).toEqual({ ...NO_HEADER, periodStart: '2024-08-04', periodEnd: '2024-08-31' });
    expect(lines[0]).toEqual<StatementLine>({
      lineNo: 6,
      saleStart: '2024-08-04',
      saleEnd: '2024-08-31',
      reportedAt: '',
      store: 'iTunes',
      serviceTier: '',
      territory: 'US',
      usageType: 'download',
      isrc: 'QZDA92400001',
      upc: '0198765432109',
      proprietaryIds: ['OMNI-T1'],
      title: 'Morning',
      artist: 'Nora Vale',
      quantity: 3,
      amountTxn: 2_100_000_000n,
      currencyTxn: 'USD',
      amountAcct: 2_100_000_000n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    // 'R' is a return whatever sign the file gives it.
    expect(lines[1]).toMatchObject({
      lineNo: 7,
      quantity: -1,
      amountAcct: -700_000_000n,
      adjustmentType: 'return',
    });
    expect(lines).toHaveLength(2);
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 8,
        reason:
          'Line 8 cannot be used: its amount is in EUR and the file gives no exchange rate to US dollars; Omni accounts in US dollars.',
        amountAcct: null,
      },
    ]);
  });

  it('converts a non-USD line with a rate column', async () => {
    const withRate = file
      .replace('Customer Currency\n', 'Customer Currency\tExchange Rate\n')
      .replace(/\tFR(\t[^\n]*)\n/, '\tFR$1\t1.1\n');
    const { lines, refused } = await collect(read(withRate, 'apple'));
    expect(refused).toEqual([]);
    expect(lines[2]).toMatchObject({
      lineNo: 8,
      territory: 'FR',
      currencyTxn: 'EUR',
      amountTxn: 1_200_000_000n,
      amountAcct: 1_320_000_000n,
      fxRate: '1.1',
    });
  });
});
