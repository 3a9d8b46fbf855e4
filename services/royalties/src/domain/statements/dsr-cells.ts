// DDEX DSR flat-file cells: where each cell sits in its record, and how a line is cut into cells.
//
// Cell order is the order of each record type's xs:sequence in the profile XSDs
// (services/royalties/ddex/dsrf: FinancialReportingToRecordCompaniesProfileSRB-1.0.xsd and
// BasicAudioProfile-1.2.xsd). Cell 0 is the RecordType. A cell that may repeat (maxOccurs unbounded) is
// still one cell whose values are separated by '|' (Part 1 §6.6.3.3).
//
// Escapes (Part 1 §6.6.4): a tab inside a cell is written "\<TAB>", a pipe "\\|", a backslash "\\\".
// Most lines have no backslash at all and are split with one String.split; only the rare line with one
// takes the slow path.

const layout = <const N extends string>(names: readonly N[]): Record<N, number> =>
  Object.fromEntries(names.map((n, i) => [n, i])) as Record<N, number>;

// Both profiles share this header (SRB's RecordType-SRHE, BAP's RecordType-HEAD).
export const HEAD = layout([
  'RecordType',
  'MessageVersion',
  'Profile',
  'ProfileVersion',
  'MessageId',
  'MessageCreatedDateTime',
  'FileNumber',
  'NumberOfFiles',
  'UsageStartDate',
  'UsageEndDate',
  'SenderPartyId',
  'SenderName',
  'ServiceDescription',
  'RecipientPartyId',
  'RecipientName',
  'RepresentedRepertoire',
]);

export const SY10 = layout([
  'RecordType',
  'SummaryRecordId',
  'DistributionChannelName',
  'DistributionChannelDPID',
  'CommercialModel',
  'UseType',
  'ReportingPeriodStartDate',
  'ReportingPeriodEndDate',
  'SubscriberType',
  'Subscribers',
  'ActiveSubscribers',
  'PromotionalActivity',
  'Territory',
  'ServiceDescription',
  'OfferType',
  'Quality',
  'Usages',
  'AllocatedUsages',
  'Returns',
  'MusicUsageRatio',
  'CurrencyOfTransaction',
  'CurrencyOfAccounting',
  'ExchangeRate',
  'ExchangeRateSource',
  'DateOfCurrencyExchange',
  'GrossRevenueInCurrencyOfTransaction',
  'GrossRevenueInCurrencyOfAccounting',
  'CalculationType',
  'CalculationValue',
  'DeductionType',
  'DeductionsInCurrencyOfTransaction',
  'DeductionsInCurrencyOfAccounting',
  'NetRevenueInCurrencyOfTransaction',
  'NetRevenueInCurrencyOfAccounting',
  'AllocatedRevenueInCurrencyOfTransaction',
  'AllocatedRevenueInCurrencyOfAccounting',
  'AllocatedNetRevenueInCurrencyOfTransaction',
  'AllocatedNetRevenueInCurrencyOfAccounting',
  'RightsControllerMarketShare',
  'SubscriptionFeeInCurrencyOfTransaction',
  'SubscriptionFeeInCurrencyOfAccounting',
  'UsageIndependentFeeType',
  'UsageIndependentFeeInCurrencyOfTransaction',
  'UsageIndependentFeeInCurrencyOfAccounting',
  'FinalTotalAmountInCurrencyOfTransaction',
  'FinalTotalAmountInCurrencyOfAccounting',
]);

export const SR08 = layout([
  'RecordType',
  'SalesTransactionId',
  'ReleaseGRid',
  'ReleaseICPN',
  'DspReleaseId',
  'LabelReleaseId',
  'ProprietaryReleaseId',
  'ReleaseContextReleaseGRid',
  'ReleaseType',
  'ReleaseTitle',
  'ReleaseSubTitle',
  'ReleaseDisplayArtistName',
  'ReleaseDisplayArtistPartyId',
  'ResourceISRC',
  'ResourceISAN',
  'DspResourceId',
  'LabelResourceId',
  'ProprietaryResourceId',
  'ResourceContextReleaseGRid',
  'ResourceType',
  'ResourceTitle',
  'ResourceSubTitle',
  'ResourceDisplayArtistName',
  'ResourceDisplayArtistPartyId',
  'SummaryRecordId',
  'SalesTransactionDate',
  'TotalUsages',
  'Returns',
  'NetUsage',
  'WholesalePriceInCurrencyOfTransaction',
  'WholesalePriceInCurrencyOfAccounting',
  'SuggestedConsumerPriceInCurrencyOfTransaction',
  'SuggestedConsumerPriceInCurrencyOfAccounting',
  'PriceType',
  'PriceRangeType',
  'PriceConsumerPaidExcSalesTaxInCurrencyOfTransaction',
  'PriceConsumerPaidExcSalesTaxInCurrencyOfAccounting',
  'DeductionType',
  'DeductionsInCurrencyOfTransaction',
  'DeductionsInCurrencyOfAccounting',
  'RightSharePercentage',
  'CalculatedUnitPriceInCurrencyOfTransaction',
  'CalculatedUnitPriceInCurrencyOfAccounting',
  'AllocatedRevenueInCurrencyOfTransaction',
  'AllocatedRevenueInCurrencyOfAccounting',
  'AllocatedNetRevenueInCurrencyOfTransaction',
  'AllocatedNetRevenueInCurrencyOfAccounting',
  'CopyrightObligationWithDSP',
]);

/** SRB footer (RecordType-SRFO). */
export const SRFO = layout(['RecordType', 'NumberOfLinesInReport', 'NumberOfSummaryRecords']);

/** Multi-record-block footer (RecordType-FOOT). */
export const FOOT = layout([
  'RecordType',
  'NumberOfLinesInFile',
  'NumberOfLinesInReport',
  'NumberOfSummaryRecords',
  'NumberOfBlocksInFile',
  'NumberOfBlocksInReport',
]);

// Basic Audio Profile 1.2 (multi-record blocks).
const SY_COMMON = [
  'RecordType',
  'SummaryRecordId',
  'DistributionChannel',
  'DistributionChannelDPID',
  'CommercialModel',
  'UseType',
  'Territory',
  'ServiceDescription',
  'Usages',
] as const;

export const SY01 = layout([
  ...SY_COMMON,
  'Subscribers',
  'CurrencyOfReporting',
  'NetRevenue',
  'IndirectNetRevenue',
  'CurrencyOfTransaction',
  'ExchangeRate',
]);

export const SY02 = layout([
  ...SY_COMMON,
  'Users',
  'CurrencyOfReporting',
  'NetRevenue',
  'RightsController',
  'RightsControllerPartyId',
  'AllocatedUsages',
  'AllocatedRevenue',
  'AllocatedNetRevenue',
  'RightsType',
  'ContentCategory',
  'CurrencyOfTransaction',
  'ExchangeRate',
  'RightsTypePercentage',
]);

export const RE01 = layout([
  'RecordType',
  'BlockId',
  'ReleaseReference',
  'DspReleaseId',
  'ProprietaryReleaseId',
  'CatalogNumber',
  'ICPN',
  'DisplayArtistName',
  'DisplayArtistPartyId',
  'Title',
  'SubTitle',
  'ReleaseType',
  'Label',
  'PLine',
  'DataProvider',
]);

export const RE02 = layout([
  'RecordType',
  'BlockId',
  'ReleaseReference',
  'DspSubReleaseId',
  'ProprietarySubReleaseId',
  'UsedResources',
]);

/** AS01.01; AS02.02 has the same first eleven cells, then the musical work's. */
export const AS01 = layout([
  'RecordType',
  'BlockId',
  'ResourceReference',
  'DspResourceId',
  'ISRC',
  'Title',
  'SubTitle',
  'DisplayArtistName',
  'DisplayArtistPartyId',
  'Duration',
  'ResourceType',
]);

export const SU01 = layout([
  'RecordType',
  'BlockId',
  'SummaryRecordId',
  'SalesTransactionId',
  'TransactedRelease',
  'TransactedResource',
  'IsRoyaltyBearing',
  'SalesUpgrade',
  'Usages',
  'Returns',
  'PriceConsumerPaidExcSalesTax',
  'PromotionalActivity',
]);

export const SU02 = layout([
  'RecordType',
  'BlockId',
  'SummaryRecordId',
  'SalesTransactionId',
  'TransactedRelease',
  'TransactedResource',
  'IsRoyaltyBearing',
  'NumberOfStreams',
  'PriceConsumerPaidExcSalesTax',
  'PromotionalActivity',
]);

/** "SR08.01" → "SR08": record types may carry a version suffix, and both spellings are accepted. */
export const baseType = (recordType: string) =>
  recordType.length > 4 && recordType.charCodeAt(4) === 46 /* . */ ? recordType.slice(0, 4) : recordType;

/** Cuts a line into raw cells (escapes still in place; see `text` and `values`). */
export function cellsOf(line: string): string[] {
  if (!line.includes('\\')) return line.split('\t');
  const cells: string[] = [];
  let start = 0;
  let from = 0;
  for (;;) {
    const tab = line.indexOf('\t', from);
    if (tab === -1) break;
    if (backslashesBefore(line, tab, start) % 3 === 1) {
      from = tab + 1; // "\<TAB>" is a tab inside the cell
      continue;
    }
    cells.push(line.slice(start, tab));
    start = tab + 1;
    from = start;
  }
  cells.push(line.slice(start));
  return cells;
}

/**
 * The cells at `wanted` (ascending) of a line without backslashes (no escapes), at their places in a
 * sparse array, the others left out. A sales line has 48 cells and a reader uses 18: cutting only those
 * costs two thirds of splitting the whole line, most of a DSR's parsing time (bench:royalties; a loop over
 * the characters cost as much as the split).
 */
export function pickCells(line: string, wanted: readonly number[]): string[] {
  // Sized once: filling an empty array up to its last wanted cell grew it several times a line.
  const cells: string[] = new Array(wanted[wanted.length - 1]! + 1);
  let at = 0;
  let index = 0;
  for (const want of wanted) {
    while (index < want) {
      const tab = line.indexOf('\t', at);
      if (tab === -1) return cells;
      at = tab + 1;
      index += 1;
    }
    const end = line.indexOf('\t', at);
    cells[want] = end === -1 ? line.slice(at) : line.slice(at, end);
    if (end === -1) return cells;
    at = end + 1;
    index += 1;
  }
  return cells;
}

function backslashesBefore(s: string, at: number, floor: number): number {
  let k = 0;
  while (at - k - 1 >= floor && s.charCodeAt(at - k - 1) === 92) k += 1;
  return k;
}

/** A cell's text with its escapes resolved and surrounding spaces trimmed. */
export function text(cell: string | undefined): string {
  if (cell === undefined) return '';
  if (!cell.includes('\\')) return cell.trim();
  return cell.replace(/\\\\\\|\\\\\||\\\||\\\t/g, (m) => m.slice(-1)).trim();
}

/** A multi-value cell's values ('|'-separated; an escaped pipe stays in its value), empty ones dropped. */
export function values(cell: string | undefined): string[] {
  if (cell === undefined || cell === '') return [];
  const out: string[] = [];
  let start = 0;
  let from = 0;
  for (;;) {
    const bar = cell.indexOf('|', from);
    if (bar === -1) break;
    // "\\|" is the standard's escaped pipe; a single "\|" (seen in the DDEX samples) is read the same way.
    if (backslashesBefore(cell, bar, start) % 3 !== 0) {
      from = bar + 1;
      continue;
    }
    out.push(cell.slice(start, bar));
    start = bar + 1;
    from = start;
  }
  out.push(cell.slice(start));
  return out.map(text).filter((v) => v !== '');
}
