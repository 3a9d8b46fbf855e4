// The DDEX DSR reader, Financial Reporting to Record Companies profile (SRB 1.0): SY10 context, SR08
// lines, the footer's line count, and each summary's total against its lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDsr } from '../src/domain/statements/dsr';
import { StatementRefused } from '../src/domain/statements/line';
import { collect, commentFor, gzipped, record, refusal, SRB, streamOf } from './support/statements';

const HEAD = record('HEAD', SRB.HEAD, {
  MessageVersion: 'dsrf/30/20/34',
  Profile: 'FinancialReportingToRecordCompaniesProfileSRB',
  ProfileVersion: '1.0',
  MessageId: 'SPOT-2024-03-0001',
  MessageCreatedDateTime: '2024-04-20T10:00:00Z',
  FileNumber: 1,
  NumberOfFiles: 1,
  UsageStartDate: '2024-03-01',
  UsageEndDate: '2024-03-31',
  SenderPartyId: 'PADPIDA2011072101T',
  SenderName: 'Spotify',
  RecipientPartyId: 'PADPIDA2024010101O',
  RecipientName: 'Omni',
});

const sy10 = (cells: Record<string, string | number>) =>
  record('SY10', SRB.SY10, {
    CommercialModel: 'SubscriptionModel',
    UseType: 'OnDemandStream',
    ReportingPeriodStartDate: '2024-03-01',
    ReportingPeriodEndDate: '2024-03-31',
    Territory: 'US',
    Usages: 1000000,
    AllocatedUsages: 1201,
    Returns: 0,
    MusicUsageRatio: 1,
    CurrencyOfTransaction: 'USD',
    CurrencyOfAccounting: 'USD',
    ExchangeRate: 1,
    NetRevenueInCurrencyOfTransaction: 4000,
    NetRevenueInCurrencyOfAccounting: 4000,
    AllocatedRevenueInCurrencyOfTransaction: 4.71,
    AllocatedRevenueInCurrencyOfAccounting: 4.71,
    SubscriptionFeeInCurrencyOfAccounting: 10.99,
    ...cells,
  });

const sr08 = (cells: Record<string, string | number>) =>
  record('SR08', SRB.SR08, {
    SalesTransactionId: 'T1',
    ReleaseICPN: '0198765432109',
    DspReleaseId: 'spotify:album:1',
    LabelReleaseId: 'omni-release-r1',
    ReleaseTitle: 'First Light',
    ReleaseDisplayArtistName: 'Nora Vale',
    ResourceISRC: 'QZDA92400001',
    DspResourceId: 'spotify:track:1',
    LabelResourceId: 'omni-track-t1',
    ProprietaryResourceId: 'OMNI::t1',
    ResourceTitle: 'Morning',
    ResourceDisplayArtistName: 'Nora Vale',
    SummaryRecordId: '1',
    SalesTransactionDate: '2024-03-15',
    TotalUsages: 1200,
    Returns: 0,
    NetUsage: 1200,
    RightSharePercentage: 100,
    CalculatedUnitPriceInCurrencyOfTransaction: 0.004,
    CalculatedUnitPriceInCurrencyOfAccounting: 0.004,
    AllocatedRevenueInCurrencyOfTransaction: 4.8,
    AllocatedRevenueInCurrencyOfAccounting: 4.8,
    AllocatedNetRevenueInCurrencyOfTransaction: '4.80000000',
    AllocatedNetRevenueInCurrencyOfAccounting: '4.80000000',
    CopyrightObligationWithDSP: 'false',
    ...cells,
  });

/** A valid file; `footer` and `sy1Total` let a test break it. */
function srbFile(
  opts: { footer?: number; sy1Total?: string; extra?: string[]; summaries?: string[] } = {},
): string {
  const body = [
    HEAD,
    commentFor('SY10', SRB.SY10),
    commentFor('SR08', SRB.SR08),
    sy10({
      SummaryRecordId: '1',
      AllocatedNetRevenueInCurrencyOfTransaction: 4.31,
      AllocatedNetRevenueInCurrencyOfAccounting: opts.sy1Total ?? '4.31',
      FinalTotalAmountInCurrencyOfTransaction: 4.31,
      FinalTotalAmountInCurrencyOfAccounting: 4.31,
    }),
    sy10({
      SummaryRecordId: '2',
      CommercialModel: 'AdvertisementSupportedModel',
      Territory: 'de',
      CurrencyOfTransaction: 'EUR',
      ExchangeRate: '1.08420',
      DateOfCurrencyExchange: '2024-03-31T00:00:00Z',
      AllocatedNetRevenueInCurrencyOfTransaction: 1,
      AllocatedNetRevenueInCurrencyOfAccounting: 1.0842,
      UsageIndependentFeeType: 'MinimumGuarantee',
      UsageIndependentFeeInCurrencyOfTransaction: 5,
      UsageIndependentFeeInCurrencyOfAccounting: 5.421,
      FinalTotalAmountInCurrencyOfTransaction: 6,
      FinalTotalAmountInCurrencyOfAccounting: 6.5052,
    }),
    ...(opts.summaries ?? []),
    sr08({}),
    '',
    sr08({
      SalesTransactionId: 'T2',
      TotalUsages: 0,
      Returns: 1,
      NetUsage: -1,
      AllocatedNetRevenueInCurrencyOfTransaction: '-0.99',
      AllocatedNetRevenueInCurrencyOfAccounting: '-0.99',
      SalesTransactionDate: '2024-03',
    }),
    sr08({
      SalesTransactionId: 'T3',
      SummaryRecordId: '2',
      NetUsage: 250,
      AllocatedNetRevenueInCurrencyOfTransaction: '1.00',
      AllocatedNetRevenueInCurrencyOfAccounting: '1.0842',
    }).replace(/^SR08/, 'SR08.01'),
    sr08({
      SalesTransactionId: 'T4',
      SalesTransactionDate: '2024-13-01',
      AllocatedNetRevenueInCurrencyOfTransaction: 0.5,
      AllocatedNetRevenueInCurrencyOfAccounting: 0.5,
    }),
    ...(opts.extra ?? []),
  ];
  const lines = body.length + 1;
  return `${[...body, record('SRFO', SRB.SRFO, { NumberOfLinesInReport: opts.footer ?? lines, NumberOfSummaryRecords: 2 + (opts.summaries?.length ?? 0) })].join('\n')}\n`;
}

const read = (text: string | Buffer, chunk = 7) => readDsr(() => streamOf(text, chunk));

describe('Financial Reporting profile (SY10 / SR08)', () => {
  it('reads the header, one canonical line per SR08, and a fee of the summary as its own line', async () => {
    const { header, lines, refused } = await collect(read(srbFile()));
    expect(header).toEqual({
      sender: 'PADPIDA2011072101T',
      messageId: 'SPOT-2024-03-0001',
      periodStart: '2024-03-01',
      periodEnd: '2024-03-31',
      reportedAt: '2024-04-20',
    });
    expect(lines[0]).toEqual({
      lineNo: 5,
      saleStart: '2024-03-01',
      saleEnd: '2024-03-31',
      reportedAt: '2024-04-20',
      store: 'Spotify',
      serviceTier: 'AdvertisementSupportedModel',
      territory: 'DE',
      usageType: 'other',
      isrc: '',
      upc: '',
      proprietaryIds: [],
      title: 'MinimumGuarantee',
      artist: '',
      quantity: 0,
      amountTxn: 5_000_000_000n,
      currencyTxn: 'EUR',
      amountAcct: 5_421_000_000n,
      fxRate: '1.0842',
      fxDate: '2024-03-31',
      adjustmentType: 'usage_independent_fee',
    });
    expect(lines[1]).toEqual({
      lineNo: 6,
      saleStart: '2024-03-15',
      saleEnd: '2024-03-15',
      reportedAt: '2024-04-20',
      store: 'Spotify',
      serviceTier: 'SubscriptionModel',
      territory: 'US',
      usageType: 'stream',
      isrc: 'QZDA92400001',
      upc: '0198765432109',
      proprietaryIds: ['omni-track-t1', 'omni-release-r1', 'OMNI::t1'],
      title: 'Morning',
      artist: 'Nora Vale',
      quantity: 1200,
      amountTxn: 4_800_000_000n,
      currencyTxn: 'USD',
      amountAcct: 4_800_000_000n,
      fxRate: '1',
      fxDate: '',
      adjustmentType: '',
    });
    // The return: negative usages and money, dated by its month; line 7 is blank and still counted.
    expect(lines[2]).toMatchObject({
      lineNo: 8,
      quantity: -1,
      amountAcct: -990_000_000n,
      saleStart: '2024-03-01',
      saleEnd: '2024-03-31',
      adjustmentType: 'return',
    });
    // SR08.01: the versioned record type; a EUR sale accounted in USD at the summary's rate.
    expect(lines[3]).toMatchObject({
      lineNo: 9,
      territory: 'DE',
      amountTxn: 1_000_000_000n,
      currencyTxn: 'EUR',
      amountAcct: 1_084_200_000n,
      fxRate: '1.0842',
      fxDate: '2024-03-31',
    });
    expect(lines).toHaveLength(4);
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 10,
        reason: 'Line 10 cannot be used: the sale date "2024-13-01" is not a date like 2024-03-31.',
        amountAcct: 500_000_000n,
      },
    ]);
  });

  it('reads the same from a gzipped file, whatever its name says', async () => {
    const plain = await collect(read(srbFile()));
    const packed = await collect(read(gzipped(srbFile()), 5));
    expect(packed).toEqual(plain);
  });

  it('refuses a file whose footer counts another number of lines, in plain words', async () => {
    const text = srbFile({ footer: 1204 });
    expect(await refusal(read(text))).toBe(
      'The file says it has 1,204 lines (FOOT) but 11 were found; it may have been cut off. Ask the store for the file again.',
    );
    expect(await refusal(read(srbFile({ footer: 10 })))).toBe(
      'The file says it has 10 lines (FOOT) but 11 were found; lines may have been added, or two files joined. Ask the store for the file again.',
    );
  });

  it('refuses a file cut off before its footer', async () => {
    const text = srbFile();
    const cut = text.slice(0, text.indexOf('SRFO'));
    expect(await refusal(read(cut))).toBe(
      'The file ends before its closing record (FOOT), so it was probably cut off during the transfer. Ask the store for the file again.',
    );
  });

  it('refuses a file whose lines do not add up to their summary', async () => {
    // SY10 1 holds 4.80 − 0.99 + 0.50 = 4.31 (the refused line's money counts: it is in the file).
    expect(await refusal(read(srbFile({ sy1Total: '4.32' })))).toBe(
      'Summary record 1 (line 4) says its lines add up to 4.32 USD, but they add up to 4.31 USD. The file does not agree with itself; ask the store to check it and send it again.',
    );
  });

  it('refuses a line whose summary record is missing, and a non-USD accounting without a rate', async () => {
    const text = srbFile({
      summaries: [
        sy10({
          SummaryRecordId: '3',
          Territory: 'GB',
          CurrencyOfTransaction: 'EUR',
          CurrencyOfAccounting: 'GBP',
          ExchangeRate: '0.85',
        }),
      ],
      extra: [
        sr08({ SalesTransactionId: 'T9', SummaryRecordId: '7' }),
        sr08({
          SalesTransactionId: 'T10',
          SummaryRecordId: '3',
          AllocatedNetRevenueInCurrencyOfTransaction: 2,
          AllocatedNetRevenueInCurrencyOfAccounting: 1.7,
        }),
      ],
    });
    const { refused } = await collect(read(text));
    expect(refused).toEqual([
      {
        kind: 'refused',
        lineNo: 11,
        reason: 'Line 11 cannot be used: the sale date "2024-13-01" is not a date like 2024-03-31.',
        amountAcct: 500_000_000n,
      },
      {
        kind: 'refused',
        lineNo: 12,
        reason: 'Line 12 cannot be used: it refers to summary record "7", which is not in the file.',
        amountAcct: null,
      },
      {
        kind: 'refused',
        lineNo: 13,
        reason:
          'Line 13 cannot be used: its amounts are in EUR and GBP; Omni accounts in US dollars and the file gives no rate to US dollars.',
        amountAcct: null,
      },
    ]);
  });

  it('refuses non-DSR files, other profiles and the malformed DDEX sample before reading lines', async () => {
    const testdata = join(__dirname, 'fixtures', 'dsrf');
    const youtube = join(testdata, 'DSR_TEST_YouTube_AdSupport-music_2015-Q4_IS_1of1_20160121T150926.tsv');
    const broken = join(
      testdata,
      'DSR_PADPIDA2014999999Z_PADPIDA2014111801Y_AdSupport_2015-02_AU_1of1_20150723T092522.tsv',
    );
    const samples = [
      [youtube, /"UGCProfile" profile, which Omni does not read/],
      [broken, /"UgcProfile" profile, which Omni does not read/],
    ] as const;
    for (const [path, message] of samples) {
      const text = readFileSync(path, 'utf8');
      const statement = read(text);
      await expect(statement.header).rejects.toThrow(message);
      await expect(statement.header).rejects.toBeInstanceOf(StatementRefused);
    }
    expect(await refusal(read('Reporting Date\tSale Month\n2024-01-01\t2023-11\n'))).toMatch(
      /does not start with a DDEX DSR header record/,
    );
    expect(await refusal(read(''))).toMatch(/does not start with a DDEX DSR header record/);
    expect(await refusal(read(srbFile().replace('\t1.0\t', '\t2.1\t')))).toMatch(/version "2.1"/);
    expect(await refusal(read(srbFile().replace(/^SR08\tT2/m, 'SY99\tT2')))).toBe(
      'Line 8 is a record of type "SY99", which a Financial Reporting DSR file does not have. The file may be damaged; ask the store for it again.',
    );
  });

  it('refuses a damaged gzip, a ZIP and binary data with words for the sender', async () => {
    const packed = gzipped(srbFile());
    expect(await refusal(read(packed.subarray(0, packed.length - 30)))).toMatch(
      /compressed \(gzip\) but could not be unpacked/,
    );
    expect(await refusal(read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])))).toMatch(/ZIP archive/);
    expect(await refusal(read(Buffer.from([0x48, 0x45, 0x41, 0x44, 0, 0, 0])))).toMatch(/not a text report/);
  });

  it('adds several fees of one summary into one line, and refuses a second header', async () => {
    const text = srbFile().replace(
      '\tMinimumGuarantee\t5\t5.421\t',
      '\tMinimumGuarantee|Marketing\t5|1\t5.421|1.0842\t',
    );
    const { lines } = await collect(read(text));
    expect(lines[0]).toMatchObject({
      lineNo: 5,
      title: 'MinimumGuarantee, Marketing',
      amountTxn: 6_000_000_000n,
      amountAcct: 6_505_200_000n,
    });
    expect(await refusal(read(srbFile({ extra: [HEAD] })))).toBe(
      'The file has a second header record (HEAD) at line 11: two reports may have been joined into one file. Ask the store for each report as a file of its own.',
    );
  });

  it('reads escaped tabs and pipes in cells (Part 1 §6.6.4)', async () => {
    const text = srbFile()
      .replace('\tMorning\t', '\tMorning\\\tAfter\t')
      .replace('\tOMNI::t1\t', '\tOMNI::t1|OMNI::a\\\\|b\t');
    const { lines } = await collect(read(text));
    expect(lines[1]).toMatchObject({
      title: 'Morning\tAfter',
      proprietaryIds: ['omni-track-t1', 'omni-release-r1', 'OMNI::t1', 'OMNI::a|b'],
    });
  });
});

describe('a large file', () => {
  it('streams 20,000 lines in small chunks, gzipped, and checks their total to the nano', async () => {
    const n = 20_000;
    const lines: string[] = [];
    let total = 0n;
    for (let i = 0; i < n; i += 1) {
      const nano = BigInt(1 + ((i * 7919) % 9_999_999));
      total += nano;
      const amount = `0.${nano.toString().padStart(9, '0')}`;
      lines.push(
        sr08({
          SalesTransactionId: `T${i}`,
          NetUsage: 1 + (i % 7),
          AllocatedNetRevenueInCurrencyOfTransaction: amount,
          AllocatedNetRevenueInCurrencyOfAccounting: amount,
        }),
      );
    }
    const sum = `${total / 1_000_000_000n}.${(total % 1_000_000_000n).toString().padStart(9, '0')}`;
    const body = [
      HEAD,
      sy10({
        SummaryRecordId: '1',
        AllocatedNetRevenueInCurrencyOfTransaction: sum,
        AllocatedNetRevenueInCurrencyOfAccounting: sum,
      }),
      ...lines,
    ];
    const text = `${[...body, record('SRFO', SRB.SRFO, { NumberOfLinesInReport: body.length + 1, NumberOfSummaryRecords: 1 })].join('\n')}\n`;
    let count = 0;
    let seen = 0n;
    for await (const item of readDsr(() => streamOf(gzipped(text), 1500)).items) {
      if (item.kind !== 'line') throw new Error(item.reason);
      count += 1;
      seen += item.line.amountAcct;
    }
    expect({ count, seen }).toEqual({ count: n, seen: total });
  });
});
