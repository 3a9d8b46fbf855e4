// What the ledger's lines came to for each payee: the only reader and writer of `payee_allocations`
// (one per batch of chunks, or per page appended later: the pieces summed per payee, release, track, sale
// month and kind),
// `payee_months` (per payee × release × sale month: what earnings and statements read), `recoup_entries`
// (the recoup ledger every payee of a release sees) and `allocation_cursors` (per import, the next chunk
// to allocate). Written only by the allocator, each allocation in one transaction with its cursor, so a
// page is allocated once or not at all; never rewritten (a later change of shares applies to later sales).
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';

export const ALLOCATIONS = 'payee_allocations';
export const PAYEE_MONTHS = 'payee_months';
export const RECOUP_ENTRIES = 'recoup_entries';
export const CURSORS = 'allocation_cursors';
export const PAYEE_INCOME = 'payee_income';

/** [party, releaseId, trackId, saleMonth, kind, amount (nano string)] */
export type AllocationRow = [string, string, string, string, 'split' | 'recoup', string];

export interface AllocationDoc extends Doc {
  /** _id: `${importId}|${seq}-${upTo}` for a batch of chunks, or the page's id for a page appended later. */
  importId: string;
  /** The chunks [seq, upTo) it allocated; an appended page: -1, -1. */
  seq: number;
  upTo: number;
  pages: number;
  lines: number;
  /** The allocation's amount, nano string: the rows add up to it exactly. */
  total: string;
  /** AllocationRows packed by `packRows` (FerretDB stores no arrays inside arrays). */
  rows: string;
  createdAt: string;
}

export interface PayeeMonthDoc extends Doc {
  party: string;
  releaseId: string;
  saleMonth: string;
  /** Nano strings: shares, and repayments of expenses. */
  split: string;
  recoup: string;
  updatedAt: string;
}

export interface RecoupEntryDoc extends Doc {
  releaseId: string;
  expenseId: string;
  party: string;
  amount: string;
  /** The ledger page it was repaid from. */
  pageId: string;
  at: string;
}

/** [store, territory, saleMonth, kind, amount (nano string)] */
export type IncomeRow = [string, string, string, 'split' | 'recoup', string];

/**
 * One payee's part of one ledger page, by store, territory and sale month: what the monthly statements
 * read (period = the month it was allocated in). _id: `${pageId}|${party}`; written with the page's
 * allocation, never changed.
 */
export interface PayeeIncomeDoc extends Doc {
  party: string;
  /** YYYY-MM the page was allocated in: the statement it belongs to. */
  period: string;
  pageId: string;
  /** Nano string: the rows add up to it. */
  total: string;
  /** IncomeRows packed by `packRows`. */
  rows: string;
}

// Rows are kept as text: FerretDB (the cluster's MongoDB) refuses arrays inside arrays, and objects per
// row would repeat five key names a hundred thousand times. Fields never hold control characters (ids,
// months, store names, decimal strings), so US and RS separate them.
const FIELD = '\u001f';
const ROW = '\u001e';

function packRows(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.join(FIELD)).join(ROW);
}

function unpack(text: string): string[][] {
  return text === '' ? [] : text.split(ROW).map((r) => r.split(FIELD));
}

/** A payee's part of an allocation as the allocator hands it over: its rows not packed yet. */
export type PayeeIncome = Omit<PayeeIncomeDoc, 'rows'> & { rows: readonly IncomeRow[] };

export const allocationRowsOf = (doc: Pick<AllocationDoc, 'rows'>) => unpack(doc.rows) as AllocationRow[];
export const incomeRowsOf = (doc: Pick<PayeeIncomeDoc, 'rows'>) => unpack(doc.rows) as IncomeRow[];

export interface CursorDoc extends Doc {
  /** Next chunk of the import to allocate. */
  next: number;
  updatedAt: string;
}

export class PayeesRepository {
  readonly allocations;
  readonly months;
  readonly recoups;
  readonly cursors;
  readonly income;

  constructor(store: DocumentStore) {
    this.allocations = store.collection<AllocationDoc>(ALLOCATIONS, {
      indexes: [{ fields: { importId: 1, seq: 1 } }],
    });
    this.months = store.collection<PayeeMonthDoc>(PAYEE_MONTHS, {
      indexes: [{ fields: { party: 1 } }, { fields: { releaseId: 1 } }],
    });
    this.recoups = store.collection<RecoupEntryDoc>(RECOUP_ENTRIES, {
      indexes: [{ fields: { releaseId: 1 } }],
    });
    this.cursors = store.collection<CursorDoc>(CURSORS);
    this.income = store.collection<PayeeIncomeDoc>(PAYEE_INCOME, {
      indexes: [{ fields: { party: 1, period: 1 } }],
    });
  }

  async cursorsOf(importIds: readonly string[]): Promise<Map<string, number>> {
    if (importIds.length === 0) return new Map();
    const found = await this.cursors.find({ _id: { $in: [...importIds] } });
    return new Map(found.map((c) => [c._id, c.next]));
  }

  setCursor(scope: TransactionScope, importId: string, next: number) {
    return scope
      .collection<CursorDoc>(CURSORS)
      .updateOne(
        { _id: importId },
        { $set: { next, updatedAt: new Date().toISOString() } },
        { upsert: true },
      );
  }

  async allocatedAmong(pageIds: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < pageIds.length; i += 500)
      for (const d of await this.allocations.find({ _id: { $in: pageIds.slice(i, i + 500) } }))
        out.add(d._id);
    return out;
  }

  /** Writes an allocation and its rows, and adds them to the payees' months, in the caller's transaction. */
  async record(
    scope: TransactionScope,
    doc: Omit<AllocationDoc, 'rows'>,
    rows: readonly AllocationRow[],
    entries: RecoupEntryDoc[],
    income: readonly PayeeIncome[] = [],
  ) {
    await scope.collection<AllocationDoc>(ALLOCATIONS).insertOne({ ...doc, rows: packRows(rows) });
    if (income.length)
      await scope
        .collection<PayeeIncomeDoc>(PAYEE_INCOME)
        .insertMany(income.map((i) => ({ ...i, rows: packRows(i.rows) })));
    const sums = new Map<
      string,
      { party: string; releaseId: string; saleMonth: string; split: bigint; recoup: bigint }
    >();
    for (const [party, releaseId, , saleMonth, kind, amount] of rows) {
      const id = `${party}|${releaseId}|${saleMonth}`;
      let s = sums.get(id);
      if (!s) {
        s = { party, releaseId, saleMonth, split: 0n, recoup: 0n };
        sums.set(id, s);
      }
      s[kind] += BigInt(amount);
    }
    const months = scope.collection<PayeeMonthDoc>(PAYEE_MONTHS);
    const ids = [...sums.keys()];
    const existing = new Map<string, PayeeMonthDoc>();
    for (let i = 0; i < ids.length; i += 500)
      for (const d of await months.find({ _id: { $in: ids.slice(i, i + 500) } })) existing.set(d._id, d);
    const now = new Date().toISOString();
    const fresh: PayeeMonthDoc[] = [];
    for (const [id, s] of sums) {
      const row = existing.get(id);
      if (!row)
        fresh.push({
          _id: id,
          party: s.party,
          releaseId: s.releaseId,
          saleMonth: s.saleMonth,
          split: s.split.toString(),
          recoup: s.recoup.toString(),
          updatedAt: now,
        });
      else
        await months.updateOne(
          { _id: id },
          {
            $set: {
              split: (BigInt(row.split) + s.split).toString(),
              recoup: (BigInt(row.recoup) + s.recoup).toString(),
              updatedAt: now,
            },
          },
        );
    }
    if (fresh.length) await months.insertMany(fresh);
    if (entries.length) await scope.collection<RecoupEntryDoc>(RECOUP_ENTRIES).insertMany(entries);
  }

  monthsOfParties(parties: readonly string[]) {
    if (parties.length === 0) return Promise.resolve([] as PayeeMonthDoc[]);
    return this.months.find({ party: { $in: [...parties] } });
  }

  monthsOfRelease(releaseId: string) {
    return this.months.find({ releaseId });
  }

  /** A payee's income docs (their parties), all periods or one. */
  incomeOf(parties: readonly string[], period?: string) {
    if (parties.length === 0) return Promise.resolve([] as PayeeIncomeDoc[]);
    return this.income.find(
      period ? { party: { $in: [...parties] }, period } : { party: { $in: [...parties] } },
    );
  }

  recoupsOf(releaseId: string) {
    return this.recoups.find({ releaseId }, { sort: { at: 1 } });
  }
}
