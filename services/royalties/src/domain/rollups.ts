// The sums the /app cards and /app/analytics read, folded from ledger lines. They are not balances kept
// beside the ledger: each is a pure function of the published lines (LedgerRepository.refold folds the
// whole ledger again and must give the same sums), kept so that a figure is a read of a few documents
// instead of a pass over millions of lines.
//
// A month row per owner × sale month × reporting month: the /app cards read a handful whatever the size of
// the ledger. (Analytics reads the owner's own ledger pages instead: a monthly statement's lines are
// already sums per track, store and territory, so a finer rollup would be as large as the ledger.)
import { type LedgerLine, reportMonthOf, saleMonthOf, streamsOf } from './ledger-line';

export interface MonthSum {
  ownerId: string;
  saleMonth: string;
  reportMonth: string;
  streams: number;
  quantity: number;
  amount: bigint;
}

export const monthKey = (s: Pick<MonthSum, 'ownerId' | 'saleMonth' | 'reportMonth'>) =>
  `${s.ownerId}|${s.saleMonth}|${s.reportMonth}`;
export interface Folded {
  months: Map<string, MonthSum>;
}

export const emptyFold = (): Folded => ({ months: new Map() });

/** Adds lines into running sums (a chunk's lines as they are staged; a whole ledger to check). */
export function foldLines(lines: Iterable<LedgerLine>, into: Folded = emptyFold()): Folded {
  for (const line of lines)
    addSum(into, {
      ownerId: line.ownerId,
      saleMonth: saleMonthOf(line),
      reportMonth: reportMonthOf(line),
      streams: streamsOf(line),
      quantity: line.quantity,
      amount: line.amountAcct,
    });
  return into;
}

/** Adds one sum into running sums (a publish adds chunk after chunk into one). */
export function addSum({ months }: Folded, sum: MonthSum): void {
  const mk = monthKey(sum);
  const ms = months.get(mk);
  if (!ms) months.set(mk, { ...sum });
  else {
    ms.streams += sum.streams;
    ms.quantity += sum.quantity;
    ms.amount += sum.amount;
  }
}
