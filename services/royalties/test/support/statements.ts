// Test helpers: a statement line with every field set, DSR records built from cell names (the orders below are copied from the profile XSDs'
// xs:sequence, independently of src/domain/statements/dsr-cells.ts, so a wrong cell index there fails a
// test), streams that deliver a file in small chunks, and collecting a statement.
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { ReadItem, Statement, StatementHeader, StatementLine } from '../../src/domain/statements/line';

/** A statement line with every field set (a foreign-currency spam deduction), `over` replacing some. */
export const aStatementLine = (over: Partial<StatementLine> = {}): StatementLine => ({
  lineNo: 7,
  saleStart: '2026-09-01',
  saleEnd: '2026-09-30',
  reportedAt: '2026-11-15',
  store: 'Spotify',
  serviceTier: 'premium',
  territory: 'US',
  usageType: 'stream',
  isrc: 'QZOMN2600001',
  upc: '190000000001',
  proprietaryIds: ['omni:release:1', 'omni:track:2'],
  title: 'Night Drive',
  artist: 'Nova Reyes',
  quantity: -12,
  amountTxn: -123_456_789n,
  currencyTxn: 'EUR',
  amountAcct: -133_333_332n,
  fxRate: '1.08',
  fxDate: '2026-09-30',
  adjustmentType: 'spam_deduction',
  ...over,
});

const names = (s: string) => s.trim().split(/\s+/);

/** FinancialReportingToRecordCompaniesProfileSRB-1.0.xsd */
export const SRB = {
  HEAD: names(`MessageVersion Profile ProfileVersion MessageId MessageCreatedDateTime FileNumber NumberOfFiles
    UsageStartDate UsageEndDate SenderPartyId SenderName ServiceDescription RecipientPartyId RecipientName RepresentedRepertoire`),
  SY10: names(`SummaryRecordId DistributionChannelName DistributionChannelDPID CommercialModel UseType
    ReportingPeriodStartDate ReportingPeriodEndDate SubscriberType Subscribers ActiveSubscribers PromotionalActivity
    Territory ServiceDescription OfferType Quality Usages AllocatedUsages Returns MusicUsageRatio CurrencyOfTransaction
    CurrencyOfAccounting ExchangeRate ExchangeRateSource DateOfCurrencyExchange GrossRevenueInCurrencyOfTransaction
    GrossRevenueInCurrencyOfAccounting CalculationType CalculationValue DeductionType DeductionsInCurrencyOfTransaction
    DeductionsInCurrencyOfAccounting NetRevenueInCurrencyOfTransaction NetRevenueInCurrencyOfAccounting
    AllocatedRevenueInCurrencyOfTransaction AllocatedRevenueInCurrencyOfAccounting AllocatedNetRevenueInCurrencyOfTransaction
    AllocatedNetRevenueInCurrencyOfAccounting RightsControllerMarketShare SubscriptionFeeInCurrencyOfTransaction
    SubscriptionFeeInCurrencyOfAccounting UsageIndependentFeeType UsageIndependentFeeInCurrencyOfTransaction
    UsageIndependentFeeInCurrencyOfAccounting FinalTotalAmountInCurrencyOfTransaction FinalTotalAmountInCurrencyOfAccounting`),
  SR08: names(`SalesTransactionId ReleaseGRid ReleaseICPN DspReleaseId LabelReleaseId ProprietaryReleaseId
    ReleaseContextReleaseGRid ReleaseType ReleaseTitle ReleaseSubTitle ReleaseDisplayArtistName ReleaseDisplayArtistPartyId
    ResourceISRC ResourceISAN DspResourceId LabelResourceId ProprietaryResourceId ResourceContextReleaseGRid ResourceType
    ResourceTitle ResourceSubTitle ResourceDisplayArtistName ResourceDisplayArtistPartyId SummaryRecordId
    SalesTransactionDate TotalUsages Returns NetUsage WholesalePriceInCurrencyOfTransaction
    WholesalePriceInCurrencyOfAccounting SuggestedConsumerPriceInCurrencyOfTransaction
    SuggestedConsumerPriceInCurrencyOfAccounting PriceType PriceRangeType
    PriceConsumerPaidExcSalesTaxInCurrencyOfTransaction PriceConsumerPaidExcSalesTaxInCurrencyOfAccounting DeductionType
    DeductionsInCurrencyOfTransaction DeductionsInCurrencyOfAccounting RightSharePercentage
    CalculatedUnitPriceInCurrencyOfTransaction CalculatedUnitPriceInCurrencyOfAccounting
    AllocatedRevenueInCurrencyOfTransaction AllocatedRevenueInCurrencyOfAccounting
    AllocatedNetRevenueInCurrencyOfTransaction AllocatedNetRevenueInCurrencyOfAccounting CopyrightObligationWithDSP`),
  SRFO: names('NumberOfLinesInReport NumberOfSummaryRecords'),
};

/** BasicAudioProfile-1.2.xsd */
export const BAP = {
  HEAD: SRB.HEAD,
  'SY01.01':
    names(`SummaryRecordId DistributionChannel DistributionChannelDPID CommercialModel UseType Territory
    ServiceDescription Usages Subscribers CurrencyOfReporting NetRevenue IndirectNetRevenue CurrencyOfTransaction ExchangeRate`),
  'SY02.02':
    names(`SummaryRecordId DistributionChannel DistributionChannelDPID CommercialModel UseType Territory
    ServiceDescription Usages Users CurrencyOfReporting NetRevenue RightsController RightsControllerPartyId AllocatedUsages
    AllocatedRevenue AllocatedNetRevenue RightsType ContentCategory CurrencyOfTransaction ExchangeRate RightsTypePercentage`),
  RE01: names(`BlockId ReleaseReference DspReleaseId ProprietaryReleaseId CatalogNumber ICPN DisplayArtistName
    DisplayArtistPartyId Title SubTitle ReleaseType Label PLine DataProvider`),
  RE02: names('BlockId ReleaseReference DspSubReleaseId ProprietarySubReleaseId UsedResources'),
  'AS01.01':
    names(`BlockId ResourceReference DspResourceId ISRC Title SubTitle DisplayArtistName DisplayArtistPartyId
    Duration ResourceType IsMasterRecording`),
  SU01: names(`BlockId SummaryRecordId SalesTransactionId TransactedRelease TransactedResource IsRoyaltyBearing
    SalesUpgrade Usages Returns PriceConsumerPaidExcSalesTax PromotionalActivity`),
  SU02: names(`BlockId SummaryRecordId SalesTransactionId TransactedRelease TransactedResource IsRoyaltyBearing
    NumberOfStreams PriceConsumerPaidExcSalesTax PromotionalActivity`),
  FOOT: names(
    'NumberOfLinesInFile NumberOfLinesInReport NumberOfSummaryRecords NumberOfBlocksInFile NumberOfBlocksInReport',
  ),
};

/** One record: every cell of its type in XSD order, the given ones filled, the others empty. */
export function record(type: string, order: string[], cells: Record<string, string | number>): string {
  for (const name of Object.keys(cells)) {
    if (!order.includes(name)) throw new Error(`${type} has no cell ${name}`);
  }
  return [type, ...order.map((n) => String(cells[n] ?? ''))].join('\t');
}

/** The '#' line naming a record type's cells, as DSR files from DSPs carry them. */
export const commentFor = (type: string, order: string[]) => `#${[type, ...order].join('\t')}`;

export const streamOf = (data: string | Buffer, chunk = 7): Readable => {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
};

export const gzipped = (text: string) => gzipSync(Buffer.from(text));

export interface Collected {
  header: StatementHeader;
  lines: StatementLine[];
  refused: Array<Extract<ReadItem, { kind: 'refused' }>>;
  items: ReadItem[];
}

export async function collect(statement: Statement): Promise<Collected> {
  const header = await statement.header;
  const items: ReadItem[] = [];
  let last = 0;
  for await (const item of statement.items) {
    // Imports resume after a line number: every reader must give strictly increasing ones.
    const lineNo = item.kind === 'line' ? item.line.lineNo : item.lineNo;
    if (lineNo <= last) throw new Error(`line ${lineNo} came after line ${last}`);
    last = lineNo;
    items.push(item);
  }
  return {
    header,
    items,
    lines: items.flatMap((i) => (i.kind === 'line' ? [i.line] : [])),
    refused: items.flatMap((i) => (i.kind === 'refused' ? [i] : [])),
  };
}

/** The message a statement is refused with (from the header or the items, whichever comes first). */
export async function refusal(statement: Statement): Promise<string> {
  try {
    await collect(statement);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the statement was not refused');
}
