// The sums the /app cards and /app/analytics read, folded from ledger lines. They are not balances kept
// beside the ledger: each is a pure function of the published lines (rebuildRollups in the store folds
// the whole ledger again and must give the same rows), kept so that a figure is a read of a few rows
// instead of a pass over millions of lines.
import { type LedgerLine, reportMonthOf, saleMonthOf, streamsOf } from './ledger-line';

export interface MonthSum {
  ownerId: string;
  saleMonth: string;
  reportMonth: string;
  streams: number;
  quantity: number;
  amount: bigint;
}

export interface CubeSum {
  ownerId: string;
  saleMonth: string;
  store: string;
  territory: string;
  releaseId: string;
  trackId: string;
  isrc: string;
  streams: number;
  quantity: number;
  amount: bigint;
}

export const monthKey = (s: Pick<MonthSum, 'ownerId' | 'saleMonth' | 'reportMonth'>) =>
  `${s.ownerId}|${s.saleMonth}|${s.reportMonth}`;
export const cubeKey = (
  s: Pick<CubeSum, 'ownerId' | 'saleMonth' | 'store' | 'territory' | 'releaseId' | 'trackId'>,
) => `${s.ownerId}|${s.saleMonth}|${s.store}|${s.territory}|${s.releaseId}|${s.trackId}`;

/** The deltas a batch of lines adds, keyed as the rollup rows are. */
export function foldLines(lines: Iterable<LedgerLine>) {
  const months = new Map<string, MonthSum>();
  const cube = new Map<string, CubeSum>();
  for (const line of lines) {
    const saleMonth = saleMonthOf(line);
    const streams = streamsOf(line);
    const m = { ownerId: line.ownerId, saleMonth, reportMonth: reportMonthOf(line) };
    const mk = monthKey(m);
    const ms = months.get(mk) ?? { ...m, streams: 0, quantity: 0, amount: 0n };
    ms.streams += streams;
    ms.quantity += line.quantity;
    ms.amount += line.amountAcct;
    months.set(mk, ms);
    const c = {
      ownerId: line.ownerId,
      saleMonth,
      store: line.store,
      territory: line.territory,
      releaseId: line.releaseId,
      trackId: line.trackId,
    };
    const ck = cubeKey(c);
    const cs = cube.get(ck) ?? { ...c, isrc: line.isrc, streams: 0, quantity: 0, amount: 0n };
    cs.streams += streams;
    cs.quantity += line.quantity;
    cs.amount += line.amountAcct;
    cube.set(ck, cs);
  }
  return { months, cube };
}
