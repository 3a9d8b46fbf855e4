// What a batch of ledger pages comes to for each payee, summed before anything is written: the allocator
// (allocate-payees.ts) adds pages to one AllocationSums and writes its result in one transaction. Summing
// over a batch, not per page, is what keeps the writes few: a chunk of a statement touches the same payees
// on page after page, and one write per payee × release × month per batch replaced one per page
// (bench:payouts: 200,000 pages of 5 lines each were 223 s, one insert and a few updates per page).

import type { LedgerLine } from '../domain/ledger-line';
import { saleMonthOf } from '../domain/ledger-line';
import { allocateLine, type Recoupable, type Share } from '../domain/splits/allocate-line';
import { tableFor, WHOLE } from '../domain/splits/shares';
import type { PageDoc } from '../store/ledger';
import type { AllocationRow, IncomeRow, PayeeIncome, RecoupEntryDoc } from '../store/payees';
import type { VersionDoc } from '../store/splits';

export interface QueuedRecoupable extends Recoupable {
  amount: bigint;
  startedAt: bigint;
}

export class AllocationSums {
  private readonly rows = new Map<string, { row: AllocationRow; amount: bigint }>();
  private readonly repaid = new Map<string, { releaseId: string; party: string; amount: bigint }>();
  /** Per payee, by store, territory, sale month and kind: the monthly statements' income (payee_income). */
  private readonly byStore = new Map<string, Map<string, { row: IncomeRow; amount: bigint }>>();
  total = 0n;
  lines = 0;
  pages = 0;

  /** Rows and payees so far: at least the number of documents the batch will write (a payee month per
   * row at most, an income document per payee). */
  get writes(): number {
    return this.rows.size + this.byStore.size;
  }

  constructor(
    private readonly versions: ReadonlyMap<string, VersionDoc[]>,
    /** Per release, what it still owes, in repayment order; drawn down as lines are allocated. */
    private readonly owed: ReadonlyMap<string, QueuedRecoupable[]>,
  ) {}

  add(page: PageDoc, lines: readonly LedgerLine[]) {
    const owner: Share[] = [{ party: `user:${page.ownerId}`, units: WHOLE }];
    this.pages += 1;
    this.lines += lines.length;
    for (const line of lines) {
      const month = saleMonthOf(line);
      const table = tableFor(this.versions.get(line.releaseId) ?? [], line.trackId, month);
      const shares = table ? table.map((e) => ({ party: e.party, units: e.units })) : owner;
      const pieces = allocateLine(line.amountAcct, shares, this.owed.get(line.releaseId) ?? []);
      this.total += line.amountAcct;
      for (const p of pieces) {
        const key = `${p.party}|${line.releaseId}|${line.trackId}|${month}|${p.kind}`;
        const s = this.rows.get(key);
        if (s) s.amount += p.amount;
        else
          this.rows.set(key, {
            row: [p.party, line.releaseId, line.trackId, month, p.kind, ''],
            amount: p.amount,
          });
        let mine = this.byStore.get(p.party);
        if (!mine) {
          mine = new Map();
          this.byStore.set(p.party, mine);
        }
        const ik = `${line.store}|${line.territory}|${month}|${p.kind}`;
        const is = mine.get(ik);
        if (is) is.amount += p.amount;
        else mine.set(ik, { row: [line.store, line.territory, month, p.kind, ''], amount: p.amount });
        if (p.expenseId) {
          const r = this.repaid.get(p.expenseId) ?? { releaseId: line.releaseId, party: p.party, amount: 0n };
          r.amount += p.amount;
          this.repaid.set(p.expenseId, r);
        }
      }
    }
  }

  /**
   * The rows, the recoup entries and the payees' income of everything added, under the allocation's id
   * (a page's id, or a batch of chunks' `${importId}|${from}-${upTo}`).
   */
  result(id: string, at: string) {
    let check = 0n;
    const rows: AllocationRow[] = [];
    for (const { row, amount } of this.rows.values()) {
      check += amount;
      row[5] = amount.toString();
      rows.push(row);
    }
    // Cannot happen (allocateLine's pieces add up to each line); refusing beats writing money that is not there.
    if (check !== this.total) throw new Error(`payee allocation ${id} does not add up`);
    const entries: RecoupEntryDoc[] = [...this.repaid].map(([expenseId, r]) => ({
      _id: `${id}|${expenseId}`,
      releaseId: r.releaseId,
      expenseId,
      party: r.party,
      amount: r.amount.toString(),
      pageId: id,
      at,
    }));
    const period = at.slice(0, 7);
    const income: PayeeIncome[] = [...this.byStore].map(([party, m]) => {
      let sum = 0n;
      const out: IncomeRow[] = [];
      for (const { row, amount } of m.values()) {
        sum += amount;
        row[4] = amount.toString();
        out.push(row);
      }
      return { _id: `${id}|${party}`, party, period, pageId: id, total: sum.toString(), rows: out };
    });
    return { rows, entries, income };
  }
}

/** Per release, what it still owes, in repayment order: expenses before advances, oldest first. */
export function recoupQueues(
  expenses: readonly {
    _id: string;
    releaseId: string;
    party: string;
    kind: string;
    amount: string;
    recouped: string;
    createdAt: string;
  }[],
): Map<string, QueuedRecoupable[]> {
  const out = new Map<string, QueuedRecoupable[]>();
  const sorted = [...expenses].sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === 'expense' ? -1 : 1) || a.createdAt.localeCompare(b.createdAt),
  );
  for (const e of sorted) {
    const amount = BigInt(e.amount);
    const outstanding = amount - BigInt(e.recouped);
    const list = out.get(e.releaseId) ?? [];
    list.push({ id: e._id, party: e.party, outstanding, amount, startedAt: outstanding });
    out.set(e.releaseId, list);
  }
  return out;
}
