// The sums the /app cards and /app/analytics read, folded from ledger lines. They are not balances kept
// beside the ledger: each is a pure function of the published lines (LedgerRepository.refold folds the
// whole ledger again and must give the same sums), kept so that a figure is a read of a few documents
// instead of a pass over millions of lines.
//
// Two shapes: a month row per owner × sale month × reporting month (the /app cards read a handful), and a
// cube per owner × sale month holding one cell per store × territory × release × track (analytics reads
// one document per month of the artist's history, whatever the number of lines behind it).
import { type LedgerLine, reportMonthOf, saleMonthOf, streamsOf } from './ledger-line';

export interface MonthSum {
  ownerId: string;
  saleMonth: string;
  reportMonth: string;
  streams: number;
  quantity: number;
  amount: bigint;
}

/** One cell: streams, quantity, amount (nano-USD), ISRC (empty for a whole release). */
export type Cell = { streams: number; quantity: number; amount: bigint; isrc: string };

export interface CubeSum {
  ownerId: string;
  saleMonth: string;
  cells: Map<string, Cell>;
}

const SEP = '\u001f';
export const cellKey = (store: string, territory: string, releaseId: string, trackId: string) =>
  [store, territory, releaseId, trackId].join(SEP);
export const cellParts = (key: string) => {
  const [store = '', territory = '', releaseId = '', trackId = ''] = key.split(SEP);
  return { store, territory, releaseId, trackId };
};

export const monthKey = (s: Pick<MonthSum, 'ownerId' | 'saleMonth' | 'reportMonth'>) =>
  `${s.ownerId}|${s.saleMonth}|${s.reportMonth}`;
export const cubeKey = (s: Pick<CubeSum, 'ownerId' | 'saleMonth'>) => `${s.ownerId}|${s.saleMonth}`;

export interface Folded {
  months: Map<string, MonthSum>;
  cube: Map<string, CubeSum>;
}

export const emptyFold = (): Folded => ({ months: new Map(), cube: new Map() });

/** Adds lines into running sums (a publish folds chunk after chunk into one). */
export function foldLines(lines: Iterable<LedgerLine>, into: Folded = emptyFold()): Folded {
  const { months, cube } = into;
  for (const line of lines) {
    const saleMonth = saleMonthOf(line);
    const streams = streamsOf(line);
    const m = { ownerId: line.ownerId, saleMonth, reportMonth: reportMonthOf(line) };
    const mk = monthKey(m);
    let ms = months.get(mk);
    if (!ms) months.set(mk, (ms = { ...m, streams: 0, quantity: 0, amount: 0n }));
    ms.streams += streams;
    ms.quantity += line.quantity;
    ms.amount += line.amountAcct;
    const ck = cubeKey({ ownerId: line.ownerId, saleMonth });
    let cs = cube.get(ck);
    if (!cs) cube.set(ck, (cs = { ownerId: line.ownerId, saleMonth, cells: new Map() }));
    const k = cellKey(line.store, line.territory, line.releaseId, line.trackId);
    let cell = cs.cells.get(k);
    if (!cell) cs.cells.set(k, (cell = { streams: 0, quantity: 0, amount: 0n, isrc: line.isrc }));
    cell.streams += streams;
    cell.quantity += line.quantity;
    cell.amount += line.amountAcct;
  }
  return into;
}
