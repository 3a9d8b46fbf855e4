// The Financial Reporting to Record Companies profile, single-record-block variant 1.0 (DSR Part 9): the
// profile meant for labels and distributors. HEAD, one or more SY10 summaries (the sales context: period,
// territory, service, commercial model, use type, currencies and exchange rate), SR08 lines each carrying
// its own money, optional DE01 deal cells, and the SRFO footer (a FOOT is accepted too). One pass.
//
// Money of a line: AllocatedNetRevenueInCurrencyOf{Transaction,Accounting}, the amount allocated to the
// recipient. Omni accounts in USD: when the accounting currency is USD that amount is taken as is (and the
// summary's ExchangeRate is the txn→USD rate); when only the transaction currency is USD, the transaction
// amount is the USD amount; otherwise the line is refused (the file gives no rate to USD).
//
// Totals check: per SY10, the SR08 lines' accounting amounts must add up exactly to the summary's
// AllocatedNetRevenueInCurrencyOfAccounting, the same quantity summed (XSD: "Net Revenue generated that is
// to be allocated to the MessageRecipient"). FinalTotalAmount is not compared: by its definition it also
// holds the usage-independent fees, which no SR08 line carries; those fees are read from the SY10 and
// become a line of their own (adjustment 'usage_independent_fee') so that money is not lost.
import { formatAmount, normalizeRate, parseAmount } from '../money';
import {
  baseType,
  cellsOf,
  pickCells,
  SR08 as SR08_CELLS,
  SY10 as SY10_CELLS,
  text,
  values,
} from './dsr-cells';
import { afterFooter, checkFooter, type Head, noFooter, recordLine, unknownRecord } from './dsr-file';
import {
  count,
  currency,
  isoDay,
  isoPeriod,
  isrc,
  type Period,
  territory,
  upc,
  usageOfUseType,
  wholeNumber,
} from './fields';
import { type ReadItem, refused, type StatementLine, StatementRefused } from './line';

// Module-local copies: a property read per cell per line, kept off the module-export getters that
// CommonJS output puts in front of an imported binding.
const SR08 = { ...SR08_CELLS };
const SY10 = { ...SY10_CELLS };
/** The SR08 cells lineOf reads (and the record type), ascending: a sales line is cut only there. */
const SR08_READ = [
  SR08.RecordType,
  SR08.ReleaseICPN,
  SR08.LabelReleaseId,
  SR08.ProprietaryReleaseId,
  SR08.ReleaseTitle,
  SR08.ReleaseDisplayArtistName,
  SR08.ResourceISRC,
  SR08.LabelResourceId,
  SR08.ProprietaryResourceId,
  SR08.ResourceTitle,
  SR08.ResourceDisplayArtistName,
  SR08.SummaryRecordId,
  SR08.SalesTransactionDate,
  SR08.TotalUsages,
  SR08.Returns,
  SR08.NetUsage,
  SR08.AllocatedNetRevenueInCurrencyOfTransaction,
  SR08.AllocatedNetRevenueInCurrencyOfAccounting,
].sort((a, b) => a - b);
/** "SR08\t" or "SR08.": a sales line. */
const isSalesLine = (line: string) =>
  line.charCodeAt(0) === 83 &&
  line.charCodeAt(1) === 82 &&
  line.charCodeAt(2) === 48 &&
  line.charCodeAt(3) === 56 &&
  (line.charCodeAt(4) === 9 || line.charCodeAt(4) === 46);

interface Summary {
  id: string;
  lineNo: number;
  store: string;
  serviceTier: string;
  territory: string | null;
  territoryText: string;
  usageType: StatementLine['usageType'];
  period: Period | null;
  currencyTxn: string | null;
  currencyAcct: string | null;
  fxRate: string;
  fxDate: string;
  /** AllocatedNetRevenueInCurrencyOfAccounting, when given. */
  expected: bigint | null;
  sum: bigint;
  /** A line's accounting amount could not be read: the total cannot be checked (that line is refused). */
  unchecked: boolean;
}

/** `acctCell` is the accounting-currency cell as read, for the summary's total check. */
type Money = { acctCell: bigint | null | 'bad' } & (
  | { ok: true; amountTxn: bigint; currencyTxn: string; amountAcct: bigint; fxRate: string; fxDate: string }
  | { ok: false; reason: string; amountAcct: bigint | null }
);

/** A cell's text: `text` (escapes resolved), or `plainText` for a line known to have no escapes. */
type CellText = (cell: string | undefined) => string;
const plainText: CellText = (cell) => (cell === undefined ? '' : cell.trim());

function amountOrNull(cell: string | undefined, read: CellText = text): bigint | null | 'bad' {
  const t = read(cell);
  if (t === '') return null;
  try {
    return parseAmount(t);
  } catch {
    return 'bad';
  }
}

function moneyOf(
  sy: Summary,
  txnCell: string | undefined,
  acctCell: string | undefined,
  read: CellText,
): Money {
  const txn = amountOrNull(txnCell, read);
  // In one currency the two cells nearly always read the same: read once.
  const acct = acctCell === txnCell ? txn : amountOrNull(acctCell, read);
  return moneyFrom(sy, txn, acct, txn === 'bad' ? text(txnCell) : text(acctCell));
}

/** The line's money from its two amounts as read; `shown` is the cell quoted when one is not a number. */
function moneyFrom(
  sy: Summary,
  txn: bigint | null | 'bad',
  acct: bigint | null | 'bad',
  shown: string,
): Money {
  const { currencyTxn, currencyAcct } = sy;
  // A refused line still says what it was worth when its accounting amount is in USD and readable.
  const usd = currencyAcct === 'USD' && typeof acct === 'bigint' ? acct : null;
  const no = (reason: string): Money => ({ ok: false, reason, amountAcct: usd, acctCell: acct });
  if (!currencyTxn || !currencyAcct)
    return no(`its summary record (${sy.id}) does not name both currencies.`);
  if (txn === 'bad' || acct === 'bad') return no(`the amount "${shown.slice(0, 40)}" is not a number.`);
  if (currencyAcct === 'USD') {
    if (acct === null) return no('it has no amount.');
    if (txn === null || currencyTxn === 'USD') {
      const currency = txn === null ? 'USD' : currencyTxn;
      return {
        ok: true,
        amountTxn: txn ?? acct,
        currencyTxn: currency,
        amountAcct: acct,
        fxRate: '1',
        fxDate: '',
        acctCell: acct,
      };
    }
    return {
      ok: true,
      amountTxn: txn,
      currencyTxn,
      amountAcct: acct,
      fxRate: sy.fxRate,
      fxDate: sy.fxDate,
      acctCell: acct,
    };
  }
  if (currencyTxn === 'USD') {
    if (txn === null) return no('it has no amount in US dollars.');
    return {
      ok: true,
      amountTxn: txn,
      currencyTxn,
      amountAcct: txn,
      fxRate: '1',
      fxDate: '',
      acctCell: acct,
    };
  }
  return no(
    `its amounts are in ${currencyTxn} and ${currencyAcct}; Omni accounts in US dollars and the file gives no rate to US dollars.`,
  );
}

function readSummary(cells: string[], lineNo: number, head: Head): Summary {
  const start = isoPeriod(text(cells[SY10.ReportingPeriodStartDate]));
  const end = isoPeriod(text(cells[SY10.ReportingPeriodEndDate]));
  const currencyTxn = currency(text(cells[SY10.CurrencyOfTransaction]));
  const currencyAcct = currency(text(cells[SY10.CurrencyOfAccounting]));
  let fxRate = '1';
  if (currencyTxn !== currencyAcct) {
    try {
      fxRate = normalizeRate(text(cells[SY10.ExchangeRate]));
    } catch {
      fxRate = '';
    }
  }
  const expected = amountOrNull(cells[SY10.AllocatedNetRevenueInCurrencyOfAccounting]);
  if (expected === 'bad') {
    throw new StatementRefused(
      `The summary record on line ${count(lineNo)} gives "${text(cells[SY10.AllocatedNetRevenueInCurrencyOfAccounting]).slice(0, 40)}" as its total, which is not a number. Ask the store for the file again.`,
    );
  }
  const territoryText = text(cells[SY10.Territory]);
  return {
    id: text(cells[SY10.SummaryRecordId]),
    lineNo,
    store: text(cells[SY10.DistributionChannelName]) || head.senderName,
    // The CommercialModel is from DDEX's allowed-value set, so it means the same from every store;
    // ServiceDescription is each store's own words.
    serviceTier:
      text(cells[SY10.CommercialModel]) || text(cells[SY10.ServiceDescription]) || head.serviceDescription,
    territory: territory(territoryText),
    territoryText,
    usageType: usageOfUseType(text(cells[SY10.UseType])),
    period: start && end ? { start: start.start, end: end.end } : null,
    currencyTxn,
    currencyAcct,
    fxRate,
    fxDate: isoDay(text(cells[SY10.DateOfCurrencyExchange])) ?? '',
    expected,
    sum: 0n,
    unchecked: false,
  };
}

/** The values of a multi-value amount cell added up; null when empty, 'bad' when one is not a number. */
function sumOf(cell: string | undefined): bigint | null | 'bad' {
  let total: bigint | null = null;
  for (const v of values(cell)) {
    const a = amountOrNull(v);
    if (a === 'bad') return 'bad';
    if (a !== null) total = (total ?? 0n) + a;
  }
  return total;
}

/**
 * The SY10's usage-independent fees (minimum guarantees and the like): one line for all of them, named
 * by their types, so that no two items share a line number (an import resumes after a line number).
 */
function feeLine(cells: string[], sy: Summary, head: Head): ReadItem | null {
  const types = values(cells[SY10.UsageIndependentFeeType]);
  const txn = sumOf(cells[SY10.UsageIndependentFeeInCurrencyOfTransaction]);
  const acct = sumOf(cells[SY10.UsageIndependentFeeInCurrencyOfAccounting]);
  if (txn === null && acct === null) return null;
  const m = moneyFrom(
    sy,
    txn,
    acct,
    text(
      cells[
        txn === 'bad'
          ? SY10.UsageIndependentFeeInCurrencyOfTransaction
          : SY10.UsageIndependentFeeInCurrencyOfAccounting
      ],
    ),
  );
  const problem = problemOf(sy) ?? (m.ok ? null : m.reason);
  if (!m.ok || problem) {
    return refused(
      sy.lineNo,
      `The fees in the summary record on line ${count(sy.lineNo)} cannot be used: ${problem}`,
      m.amountAcct,
    );
  }
  return {
    kind: 'line',
    line: {
      lineNo: sy.lineNo,
      saleStart: sy.period!.start,
      saleEnd: sy.period!.end,
      reportedAt: head.reportedAt,
      store: sy.store,
      serviceTier: sy.serviceTier,
      territory: sy.territory!,
      usageType: 'other',
      isrc: '',
      upc: '',
      proprietaryIds: [],
      title: types.join(', '),
      artist: '',
      quantity: 0,
      amountTxn: m.amountTxn,
      currencyTxn: m.currencyTxn,
      amountAcct: m.amountAcct,
      fxRate: m.fxRate,
      fxDate: m.fxDate,
      adjustmentType: 'usage_independent_fee',
    },
  };
}

/** What makes every line of a summary unusable, if anything. */
function problemOf(sy: Summary): string | null {
  if (!sy.territory)
    return `the territory "${sy.territoryText.slice(0, 20)}" is not a two-letter country code.`;
  if (!sy.period) return `its summary record (${sy.id}) has no usable reporting period.`;
  if (sy.fxRate === '') return `its summary record (${sy.id}) has no usable exchange rate.`;
  return null;
}

function lineOf(cells: string[], lineNo: number, sy: Summary, head: Head, read: CellText): ReadItem {
  const m = moneyOf(
    sy,
    cells[SR08.AllocatedNetRevenueInCurrencyOfTransaction],
    cells[SR08.AllocatedNetRevenueInCurrencyOfAccounting],
    read,
  );
  // The summary's total counts every line's accounting amount, refused lines included (they are in the file).
  if (typeof m.acctCell === 'bigint') sy.sum += m.acctCell;
  else sy.unchecked = true;
  const usd = m.amountAcct;
  const problem = problemOf(sy);
  if (problem) return refused(lineNo, `Line ${count(lineNo)} cannot be used: ${problem}`, usd);
  if (!m.ok) return refused(lineNo, `Line ${count(lineNo)} cannot be used: ${m.reason}`, usd);

  const dateText = read(cells[SR08.SalesTransactionDate]);
  // The sale date is mandatory; a line without one is dated by its summary's period.
  const period = dateText === '' ? sy.period : isoPeriod(dateText);
  if (!period)
    return refused(
      lineNo,
      `Line ${count(lineNo)} cannot be used: the sale date "${dateText.slice(0, 30)}" is not a date like 2024-03-31.`,
      usd,
    );

  const netText = read(cells[SR08.NetUsage]);
  let quantity = netText === '' ? null : wholeNumber(netText);
  if (netText === '') {
    const total = wholeNumber(read(cells[SR08.TotalUsages]));
    const returns = wholeNumber(read(cells[SR08.Returns]) || '0');
    quantity = total === null || returns === null ? null : total - returns;
  }
  if (quantity === null) {
    return refused(
      lineNo,
      `Line ${count(lineNo)} cannot be used: the number of usages "${(netText || read(cells[SR08.TotalUsages])).slice(0, 20)}" is not a whole number.`,
      usd,
    );
  }

  // The ids the store echoes, each once, in this order (a loop: spreading and filtering made three
  // arrays a line).
  const ids: string[] = [];
  const keep = (v: string) => {
    if (v !== '' && !ids.includes(v)) ids.push(v);
  };
  keep(read(cells[SR08.LabelResourceId]));
  keep(read(cells[SR08.LabelReleaseId]));
  for (const v of values(cells[SR08.ProprietaryResourceId])) keep(v);
  for (const v of values(cells[SR08.ProprietaryReleaseId])) keep(v);

  return {
    kind: 'line',
    line: {
      lineNo,
      saleStart: period.start,
      saleEnd: period.end,
      reportedAt: head.reportedAt,
      store: sy.store,
      serviceTier: sy.serviceTier,
      territory: sy.territory!,
      usageType: sy.usageType,
      isrc: isrc(read(cells[SR08.ResourceISRC])),
      upc: upc(read(cells[SR08.ReleaseICPN])),
      proprietaryIds: ids,
      title: read(cells[SR08.ResourceTitle]) || read(cells[SR08.ReleaseTitle]),
      artist: read(cells[SR08.ResourceDisplayArtistName]) || read(cells[SR08.ReleaseDisplayArtistName]),
      quantity,
      amountTxn: m.amountTxn,
      currencyTxn: m.currencyTxn,
      amountAcct: m.amountAcct,
      fxRate: m.fxRate,
      fxDate: m.fxDate,
      adjustmentType: quantity < 0 ? 'return' : '',
    },
  };
}

function checkTotals(summaries: Map<string, Summary>): void {
  for (const sy of summaries.values()) {
    if (sy.expected === null || sy.unchecked || sy.sum === sy.expected) continue;
    const cur = sy.currencyAcct ?? '';
    throw new StatementRefused(
      `Summary record ${sy.id} (line ${count(sy.lineNo)}) says its lines add up to ${formatAmount(sy.expected)} ${cur}, but they add up to ${formatAmount(sy.sum)} ${cur}. The file does not agree with itself; ask the store to check it and send it again.`,
    );
  }
}

/** Reads the records after the HEAD (line `head.lineNo`), a batch of items per batch of lines. */
export async function* readFinancial(
  head: Head,
  batches: AsyncIterable<string[]>,
): AsyncGenerator<ReadItem[]> {
  const summaries = new Map<string, Summary>();
  let last: Summary | null = null;
  let lineNo = head.lineNo;
  let footerAt = 0;
  for await (const batch of batches) {
    const out: ReadItem[] = [];
    for (const line of batch) {
      lineNo += 1;
      if (!recordLine(line)) continue;
      if (footerAt) throw afterFooter(lineNo);
      // A sales line without escapes (nearly all) is cut only at the cells it needs.
      const plain = isSalesLine(line) && !line.includes('\\');
      const cells = plain ? pickCells(line, SR08_READ) : cellsOf(line);
      const read = plain ? plainText : text;
      const type = baseType(read(cells[0]));
      if (type === 'SR08') {
        // A summary's lines come together: the last line's summary nearly always answers.
        const id = read(cells[SR08.SummaryRecordId]);
        const sy: Summary | undefined = last && id === last.id ? last : summaries.get(id);
        last = sy ?? null;
        if (!sy) {
          out.push(
            refused(
              lineNo,
              `Line ${count(lineNo)} cannot be used: it refers to summary record "${text(cells[SR08.SummaryRecordId]).slice(0, 20)}", which is not in the file.`,
            ),
          );
          continue;
        }
        out.push(lineOf(cells, lineNo, sy, head, read));
      } else if (type === 'SY10') {
        const sy = readSummary(cells, lineNo, head);
        if (summaries.has(sy.id)) {
          throw new StatementRefused(
            `Two summary records have the id "${sy.id.slice(0, 20)}" (the second on line ${count(lineNo)}). The file is damaged; ask the store for it again.`,
          );
        }
        summaries.set(sy.id, sy);
        const fee = feeLine(cells, sy, head);
        if (fee) out.push(fee);
      } else if (type === 'SRFO' || type === 'FOOT') {
        footerAt = lineNo;
        checkFooter(type, cells, lineNo, { lines: lineNo, summaries: summaries.size });
        checkTotals(summaries);
      } else if (type !== 'DE01') {
        throw unknownRecord(lineNo, type, 'Financial Reporting');
      }
    }
    if (out.length > 0) yield out;
  }
  if (!footerAt) throw noFooter();
}
