// A streaming writer of one DDEX DSR flat file in the FinancialReportingToRecordCompaniesProfileSRB 1.0
// profile (DSR Part 9, single-record-block variant): TSV, one record per line, in the order the profile's
// XSD gives (services/royalties/ddex/dsrf/FinancialReportingToRecordCompaniesProfileSRB-1.0.xsd):
//
//   HEAD (RecordType-SRHE) · SY10 × n (summaries, ≥ 1) · SR08 × m (one line = release + resource + sale) · SRFO
//
// Every cell of each record's xs:sequence is written, in that order, empty where optional and not known;
// a repeatable cell holds its values separated by `|`. Text is escaped as DSR Part 1 §6.6.4 says (tab →
// `\<TAB>`, pipe → `\\|`, backslash → `\\\`); a line break, which no record may hold, becomes a space.
//
// Summaries come before lines in the file, yet a summary's totals are the sums of its lines. The caller
// therefore computes each summary's totals first (a first pass over its own deterministic lines, adding
// each with `SummaryTotals.add`, the very arithmetic the writer uses) and hands them with the summary; the
// writer sums the lines it is given again and `end()` refuses (rejects, no footer written) when a summary's
// declared totals are not its lines' to the nano. Memory stays flat: lines are written as they come, only
// one running total per summary is kept, and output is buffered in 64 KiB chunks with backpressure.
//
// Money is bigint nano-units (nano.ts). A line's amounts are derived from its usages and unit price in the
// transaction currency; the accounting-currency amounts are each converted once with the summary's
// exchange rate (rounded to the nano, halves away from zero), and a line's net is its revenue less its
// deductions in each currency, so every line and every summary adds up exactly in both currencies.
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { formatNano, mulNano, parseNano } from './nano';

export const MESSAGE_VERSION = 'dsrf/1.3/1.4.1/1.2';
export const PROFILE = 'FinancialReportingToRecordCompaniesProfileSRB';
export const PROFILE_VERSION = '1.0';

/** The cells of each record type, in the XSD's xs:sequence order (the test reads them back from the XSD). */
export const HEAD_CELLS = [
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
] as const;

export const SY10_CELLS = [
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
] as const;

export const SR08_CELLS = [
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
] as const;

/** The footer of a single-record-block report (RecordType-SRFO; its RecordType cell says `SRFO`). */
export const SRFO_CELLS = ['RecordType', 'NumberOfLinesInReport', 'NumberOfSummaryRecords'] as const;

type Cells<T extends readonly string[]> = Partial<Record<T[number], string>>;

export interface DsrParty {
  /** A DPID (`PADPIDA…`). */
  partyId: string;
  name: string;
}

export interface DsrHead {
  /** Unique per sender; the same report written again keeps its id (a regenerated report is the same message). */
  messageId: string;
  /** RFC 3339, e.g. `2026-12-31T23:00:00Z`. */
  createdAt: string;
  /** `YYYY-MM-DD`, inclusive. */
  usageStart: string;
  usageEnd: string;
  /** The store. */
  sender: DsrParty;
  /** The licensor the report is for (Omni). */
  recipient?: DsrParty;
  /** No spaces or underscores (the file name carries it too). */
  serviceDescription?: string;
  representedRepertoire?: string[];
  messageVersion?: string;
}

export interface DsrDeduction {
  /** e.g. `spam_deduction`. */
  type: string;
  /** In the transaction currency, positive: what is taken off. */
  nano: bigint;
}

/** One SR08 line as the caller knows it; its amounts are derived (see `lineAmounts`). */
export interface Sr08Line {
  /** The id `summary()` returned. */
  summaryId: string;
  /** Default: `ST<n>`, n counting the file's lines from 1. */
  salesTransactionId?: string;
  releaseIcpn?: string;
  /** The store's own id of the release (mandatory in the profile). */
  dspReleaseId: string;
  labelReleaseId?: string;
  /** `namespace::id`, every one the ERN carried. */
  proprietaryReleaseIds?: readonly string[];
  releaseType?: string;
  releaseTitle?: string;
  releaseDisplayArtistName?: string;
  isrc?: string;
  dspResourceId?: string;
  labelResourceId?: string;
  proprietaryResourceIds?: readonly string[];
  resourceType?: string;
  resourceTitle?: string;
  resourceDisplayArtistName?: string;
  /** `YYYY-MM-DD`, inside the summary's reporting period. */
  date: string;
  usages: number;
  returns: number;
  /** What one usage earns the licensor, in the transaction currency (nano). */
  unitPriceNano: bigint;
  /** Also write the unit price as the wholesale price (downloads; streaming models leave it out). */
  wholesale?: boolean;
  deductions?: readonly DsrDeduction[];
  /** Default 100. */
  rightSharePercentage?: string;
  /** Default true (the store reports to the publishers itself). */
  copyrightObligationWithDsp?: boolean;
}

export interface LineAmounts {
  netUsage: bigint;
  unitAcc: bigint;
  revenueTxn: bigint;
  revenueAcc: bigint;
  deductions: Array<{ type: string; txn: bigint; acc: bigint }>;
  netTxn: bigint;
  netAcc: bigint;
}

const NO_DEDUCTIONS: LineAmounts['deductions'] = [];

/** The derived amounts of a line at `rateNano` (transaction → accounting): what the writer writes. */
export function lineAmounts(line: Sr08Line, rateNano: bigint): LineAmounts {
  const netUsage = BigInt(line.usages - line.returns);
  const revenueTxn = netUsage * line.unitPriceNano;
  const revenueAcc = mulNano(revenueTxn, rateNano);
  let netTxn = revenueTxn;
  let netAcc = revenueAcc;
  let deductions = NO_DEDUCTIONS;
  if (line.deductions?.length) {
    deductions = line.deductions.map((d) => ({ type: d.type, txn: d.nano, acc: mulNano(d.nano, rateNano) }));
    for (const d of deductions) {
      netTxn -= d.txn;
      netAcc -= d.acc;
    }
  }
  return {
    netUsage,
    unitAcc: mulNano(line.unitPriceNano, rateNano),
    revenueTxn,
    revenueAcc,
    deductions,
    netTxn,
    netAcc,
  };
}

/** A summary's running totals: the caller's first pass and the writer's check both add lines here. */
export class SummaryTotals {
  usages = 0n;
  returns = 0n;
  revenueTxn = 0n;
  revenueAcc = 0n;
  netTxn = 0n;
  netAcc = 0n;
  /** By deduction type, in first-seen order. */
  readonly deductions = new Map<string, { txn: bigint; acc: bigint }>();

  add(line: Sr08Line, rateNano: bigint, amounts = lineAmounts(line, rateNano)): this {
    this.usages += BigInt(line.usages);
    this.returns += BigInt(line.returns);
    this.revenueTxn += amounts.revenueTxn;
    this.revenueAcc += amounts.revenueAcc;
    this.netTxn += amounts.netTxn;
    this.netAcc += amounts.netAcc;
    for (const d of amounts.deductions) {
      const sum = this.deductions.get(d.type) ?? { txn: 0n, acc: 0n };
      this.deductions.set(d.type, { txn: sum.txn + d.txn, acc: sum.acc + d.acc });
    }
    return this;
  }

  /** What differs from `other`, or undefined when every total is equal. */
  difference(other: SummaryTotals): string | undefined {
    const keys = ['usages', 'returns', 'revenueTxn', 'revenueAcc', 'netTxn', 'netAcc'] as const;
    for (const key of keys) {
      if (this[key] !== other[key]) return `${key} ${this[key]} ≠ ${other[key]}`;
    }
    const types = new Set([...this.deductions.keys(), ...other.deductions.keys()]);
    for (const type of types) {
      const a = this.deductions.get(type) ?? { txn: 0n, acc: 0n };
      const b = other.deductions.get(type) ?? { txn: 0n, acc: 0n };
      if (a.txn !== b.txn || a.acc !== b.acc)
        return `deduction ${type} ${a.txn}/${a.acc} ≠ ${b.txn}/${b.acc}`;
    }
    return undefined;
  }
}

export interface Sy10Summary {
  commercialModel: string;
  useType: string;
  /** `YYYY-MM-DD`, inside the head's usage period. */
  start: string;
  end: string;
  /** ISO 3166-1 alpha-2 or `Worldwide`. */
  territory: string;
  serviceDescription?: string;
  subscriberType?: string;
  /** ISO 4217. */
  currency: string;
  /** Default USD. */
  accountingCurrency?: string;
  /** Transaction → accounting, a decimal with at most nine decimals (`1.085`). */
  exchangeRate: string;
  exchangeRateSource?: string;
  /** xs:dateTime. */
  dateOfCurrencyExchange?: string;
  /** A subscription's price in the transaction currency (written in both); absent: 0. */
  subscriptionFeeNano?: bigint;
  /** The service's usages in the context, everyone's; default: this report's (AllocatedUsages). */
  serviceUsages?: bigint;
  /** Default 100. */
  musicUsageRatio?: string;
  /** The sums of the lines the caller is about to give for this summary (see SummaryTotals). */
  totals: SummaryTotals;
}

export interface DsrWriteResult {
  summaries: number;
  lines: number;
  /** NumberOfLinesInReport: HEAD, summaries, lines and the footer. */
  linesInReport: number;
  /** Sum of FinalTotalAmountInCurrencyOfAccounting over the summaries (nano). */
  totalAccountingNano: bigint;
}

export interface DsrWriter {
  /** Writes one SY10 and returns its SummaryRecordId; every summary comes before the first line. */
  summary(summary: Sy10Summary): string;
  /** Writes one SR08; resolves-to-wait (a promise) only when the output asks to slow down. */
  line(line: Sr08Line): Promise<void> | undefined;
  /** Checks every summary against its lines, writes the footer, ends `out` and waits for it to finish. */
  end(): Promise<DsrWriteResult>;
}

const CHUNK = 64 * 1024;
const SPECIAL = /[\t|\\\r\n]/;

/** One cell's text, escaped (DSR Part 1 §6.6.4). */
export function escapeCell(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[\t|\\\r\n]/g, (c) =>
    c === '\t' ? '\\\t' : c === '|' ? '\\\\|' : c === '\\' ? '\\\\\\' : ' ',
  );
}

const multi = (values: readonly string[] | undefined) => (values ? values.map(escapeCell).join('|') : '');

function record<T extends readonly string[]>(order: T, type: string, values: Cells<T>): string {
  const cells: string[] = [type];
  for (let i = 1; i < order.length; i++) cells.push(values[order[i] as T[number]] ?? '');
  return cells.join('\t');
}

export function createDsrWriter(out: Writable, head: DsrHead): DsrWriter {
  const summaries = new Map<
    string,
    { input: Sy10Summary; rate: bigint; seen: SummaryTotals; units: Map<bigint, [string, string]> }
  >();
  let lines = 0;
  let buffer = '';
  let ended = false;

  const push = (text: string): Promise<void> | undefined => {
    buffer += `${text}\n`;
    if (buffer.length < CHUNK) return undefined;
    const chunk = buffer;
    buffer = '';
    if (out.write(chunk)) return undefined;
    return new Promise((resolve) => out.once('drain', resolve));
  };

  for (const [name, date] of [
    ['usageStart', head.usageStart],
    ['usageEnd', head.usageEnd],
  ] as const) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`HEAD ${name} "${date}" is not YYYY-MM-DD`);
  }
  void push(
    record(HEAD_CELLS, 'HEAD', {
      MessageVersion: head.messageVersion ?? MESSAGE_VERSION,
      Profile: PROFILE,
      ProfileVersion: PROFILE_VERSION,
      MessageId: escapeCell(head.messageId),
      MessageCreatedDateTime: head.createdAt,
      FileNumber: '1',
      NumberOfFiles: '1',
      UsageStartDate: head.usageStart,
      UsageEndDate: head.usageEnd,
      SenderPartyId: head.sender.partyId,
      SenderName: escapeCell(head.sender.name),
      ServiceDescription: escapeCell(head.serviceDescription ?? ''),
      RecipientPartyId: head.recipient?.partyId ?? '',
      RecipientName: escapeCell(head.recipient?.name ?? ''),
      RepresentedRepertoire: multi(head.representedRepertoire),
    }),
  );

  return {
    summary(s) {
      if (ended) throw new Error('the DSR is ended');
      if (lines > 0) throw new Error('every SY10 comes before the first SR08');
      if (s.start < head.usageStart || s.end > head.usageEnd || s.start > s.end)
        throw new Error(
          `SY10 period ${s.start}..${s.end} is not inside ${head.usageStart}..${head.usageEnd}`,
        );
      const id = String(summaries.size + 1);
      const rate = parseNano(s.exchangeRate);
      summaries.set(id, { input: s, rate, seen: new SummaryTotals(), units: new Map() });
      const t = s.totals;
      const fee = s.subscriptionFeeNano ?? 0n;
      const types = [...t.deductions.keys()];
      const deductions = [...t.deductions.values()];
      // With no deduction type the (mandatory) amounts say 0.
      const deductionsTxn = types.length ? deductions.map((d) => formatNano(d.txn)).join('|') : '0.00';
      const deductionsAcc = types.length ? deductions.map((d) => formatNano(d.acc)).join('|') : '0.00';
      void push(
        record(SY10_CELLS, 'SY10', {
          SummaryRecordId: id,
          CommercialModel: s.commercialModel,
          UseType: s.useType,
          ReportingPeriodStartDate: s.start,
          ReportingPeriodEndDate: s.end,
          SubscriberType: escapeCell(s.subscriberType ?? ''),
          Territory: s.territory,
          ServiceDescription: escapeCell(s.serviceDescription ?? ''),
          Usages: String(s.serviceUsages ?? t.usages),
          AllocatedUsages: String(t.usages),
          Returns: String(t.returns),
          MusicUsageRatio: s.musicUsageRatio ?? '100',
          CurrencyOfTransaction: s.currency,
          CurrencyOfAccounting: s.accountingCurrency ?? 'USD',
          ExchangeRate: formatNano(rate, 1),
          ExchangeRateSource: escapeCell(s.exchangeRateSource ?? ''),
          DateOfCurrencyExchange: s.dateOfCurrencyExchange ?? '',
          DeductionType: multi(types),
          DeductionsInCurrencyOfTransaction: deductionsTxn,
          DeductionsInCurrencyOfAccounting: deductionsAcc,
          // The simulator knows only this licensor's repertoire: the service's net revenue is what it allocates.
          NetRevenueInCurrencyOfTransaction: formatNano(t.netTxn),
          NetRevenueInCurrencyOfAccounting: formatNano(t.netAcc),
          AllocatedRevenueInCurrencyOfTransaction: formatNano(t.revenueTxn),
          AllocatedRevenueInCurrencyOfAccounting: formatNano(t.revenueAcc),
          AllocatedNetRevenueInCurrencyOfTransaction: formatNano(t.netTxn),
          AllocatedNetRevenueInCurrencyOfAccounting: formatNano(t.netAcc),
          SubscriptionFeeInCurrencyOfTransaction: formatNano(fee),
          SubscriptionFeeInCurrencyOfAccounting: formatNano(mulNano(fee, rate)),
          // No usage-independent fees: the final total is the allocated net revenue.
          FinalTotalAmountInCurrencyOfTransaction: formatNano(t.netTxn),
          FinalTotalAmountInCurrencyOfAccounting: formatNano(t.netAcc),
        }),
      );
      return id;
    },

    line(l) {
      if (ended) throw new Error('the DSR is ended');
      const summary = summaries.get(l.summaryId);
      if (!summary) throw new Error(`SR08 names SY10 "${l.summaryId}", which was not written`);
      const { input, rate, seen } = summary;
      if (l.date < input.start || l.date > input.end)
        throw new Error(`SR08 date ${l.date} is outside SY10 ${l.summaryId} (${input.start}..${input.end})`);
      const a = lineAmounts(l, rate);
      seen.add(l, rate, a);
      lines++;
      // A summary's lines mostly share a few unit prices: their text is kept, not formatted each time.
      let unit = summary.units.get(l.unitPriceNano);
      if (!unit) {
        unit = [formatNano(l.unitPriceNano), formatNano(a.unitAcc)];
        if (summary.units.size < 64) summary.units.set(l.unitPriceNano, unit);
      }
      const [unitTxn, unitAcc] = unit;
      const cells: string[] = [
        'SR08',
        l.salesTransactionId ?? `ST${lines}`,
        '',
        l.releaseIcpn ?? '',
        escapeCell(l.dspReleaseId),
        escapeCell(l.labelReleaseId ?? ''),
        multi(l.proprietaryReleaseIds),
        '',
        l.releaseType ?? '',
        escapeCell(l.releaseTitle ?? ''),
        '',
        escapeCell(l.releaseDisplayArtistName ?? ''),
        '',
        l.isrc ?? '',
        '',
        escapeCell(l.dspResourceId ?? ''),
        escapeCell(l.labelResourceId ?? ''),
        multi(l.proprietaryResourceIds),
        '',
        l.resourceType ?? '',
        escapeCell(l.resourceTitle ?? ''),
        '',
        escapeCell(l.resourceDisplayArtistName ?? ''),
        '',
        l.summaryId,
        l.date,
        String(l.usages),
        String(l.returns),
        String(a.netUsage),
        l.wholesale ? unitTxn : '',
        l.wholesale ? unitAcc : '',
        '',
        '',
        '',
        '',
        '',
        '',
        multi(a.deductions.map((d) => d.type)),
        a.deductions.map((d) => formatNano(d.txn)).join('|'),
        a.deductions.map((d) => formatNano(d.acc)).join('|'),
        l.rightSharePercentage ?? '100',
        unitTxn,
        unitAcc,
        formatNano(a.revenueTxn),
        formatNano(a.revenueAcc),
        formatNano(a.netTxn),
        formatNano(a.netAcc),
        l.copyrightObligationWithDsp === false ? 'false' : 'true',
      ];
      return push(cells.join('\t'));
    },

    async end() {
      if (ended) throw new Error('the DSR is ended');
      ended = true;
      if (summaries.size === 0) throw new Error('a DSR needs at least one SY10');
      let totalAccountingNano = 0n;
      for (const [id, { input, seen }] of summaries) {
        const wrong = input.totals.difference(seen);
        if (wrong) throw new Error(`SY10 ${id} does not add up to its SR08 lines: ${wrong}`);
        totalAccountingNano += seen.netAcc;
      }
      const linesInReport = 1 + summaries.size + lines + 1;
      buffer += `${record(SRFO_CELLS, 'SRFO', {
        NumberOfLinesInReport: String(linesInReport),
        NumberOfSummaryRecords: String(summaries.size),
      })}\n`;
      out.end(buffer);
      buffer = '';
      await finished(out);
      return { summaries: summaries.size, lines, linesInReport, totalAccountingNano };
    },
  };
}
