// Allocates the published ledger to payees: each ledger page's lines, by the split table in force for
// each line's sale month, after what the release owes its recoupable expenses. A step of its own after
// publishing: it only reads what the import path exports (imports' states and cursors, ledger pages,
// unpackLines) and never changes the ledger.
//
// Resumable and idempotent: per import a cursor says the next chunk to allocate; a chunk's pages, their
// payee sums, the expenses they repaid and the cursor move in one transaction, and a page already
// allocated (its allocation is keyed by the page's id) is never allocated again. Pages an admin appends
// later (waiting lines attached to a recording: chunk -1) are found by id. It polls (every POLL_MS) rather
// than being called by the import runner, so the import path keeps no knowledge of payees.
import type { DocumentStore, Logger } from '@omni/platform';
import { type LedgerLine, saleMonthOf, unpackLines } from '../domain/ledger-line';
import { allocateLine, type Recoupable, type Share } from '../domain/splits/allocate-line';
import { tableFor, WHOLE } from '../domain/splits/shares';
import type { ImportsRepository } from '../store/imports';
import type { LedgerRepository, PageDoc } from '../store/ledger';
import {
  type AllocationRow,
  type IncomeRow,
  type PayeeIncomeDoc,
  type PayeesRepository,
  packRows,
  type RecoupEntryDoc,
} from '../store/payees';
import type { ExpenseDoc, SplitsRepository, VersionDoc } from '../store/splits';

const POLL_MS = 2000;

export interface AllocatorDeps {
  documents: DocumentStore;
  imports: ImportsRepository;
  ledger: LedgerRepository;
  splits: SplitsRepository;
  payees: PayeesRepository;
  logger: Logger;
  pollMs?: number;
}

export class PayeeAllocator {
  private running: Promise<void> | null = null;
  private again = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  /** Versions per release for one pass (tables change between passes, never within a transaction's page). */
  private versions = new Map<string, VersionDoc[]>();

  constructor(private readonly deps: AllocatorDeps) {}

  start() {
    this.timer = setInterval(() => this.kick(), this.deps.pollMs ?? POLL_MS);
    this.timer.unref();
    this.kick();
  }

  kick() {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .then(() => undefined)
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'royalties: payee allocation interrupted'))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopping) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop() {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass over every import with pages not allocated yet; the number of pages allocated. */
  async pass(): Promise<number> {
    const { imports, ledger, payees } = this.deps;
    this.versions = new Map();
    let pages = 0;
    const open = await imports.inState(['publishing', 'done']);
    const cursors = await payees.cursorsOf(open.map((i) => i._id));
    for (const imp of open) {
      const published = imp.state === 'done' ? imp.checkpoint.chunks : imp.published;
      for (let seq = cursors.get(imp._id) ?? 0; seq < published; seq += 1) {
        if (this.stopping) return pages;
        const chunk = await ledger.pages.find({ importId: imp._id, seq });
        pages += await this.allocate(chunk, { importId: imp._id, next: seq + 1 });
      }
      // Only an import with waiting lines can have pages appended later.
      if (imp.state === 'done' && imp.lines.unmatched > 0) {
        const appended = await ledger.pages.find({ importId: imp._id, seq: -1 });
        const done = await payees.allocatedAmong(appended.map((p) => p._id));
        const fresh = appended.filter((p) => !done.has(p._id));
        if (fresh.length) pages += await this.allocate(fresh, null);
      }
    }
    return pages;
  }

  private async versionsOf(releaseIds: readonly string[]) {
    const missing = releaseIds.filter((r) => !this.versions.has(r));
    if (missing.length) {
      for (const r of missing) this.versions.set(r, []);
      for (const v of await this.deps.splits.versionsOfReleases(missing))
        this.versions.get(v.releaseId)!.push(v);
    }
  }

  /** Allocates pages (and moves the cursor) in one transaction; pages already allocated are skipped. */
  private async allocate(
    pages: PageDoc[],
    cursor: { importId: string; next: number } | null,
  ): Promise<number> {
    const { documents, payees } = this.deps;
    const unpacked = pages.map((p) => ({ page: p, lines: unpackLines(p.lines) }));
    const releaseIds = [...new Set(unpacked.flatMap((u) => u.lines.map((l) => l.releaseId)))];
    await this.versionsOf(releaseIds);
    return documents.transaction(async (scope) => {
      const done = await payees.allocatedAmong(pages.map((p) => p._id));
      const expenses = await this.deps.splits.expensesIn(scope, releaseIds);
      const owed = recoupQueues(expenses);
      let n = 0;
      for (const { page, lines } of unpacked) {
        if (done.has(page._id)) continue;
        const { rows, total, entries, income } = this.allocatePage(page, lines, owed);
        await payees.record(
          scope,
          {
            _id: page._id,
            importId: page.importId,
            seq: page.seq,
            ownerId: page.ownerId,
            lines: lines.length,
            total: total.toString(),
            rows: packRows(rows),
            createdAt: new Date().toISOString(),
          },
          entries,
          income,
        );
        n += 1;
      }
      // What the pages repaid, written back to the expenses they drew down.
      for (const queue of owed.values())
        for (const r of queue)
          if (r.outstanding !== r.startedAt)
            await this.deps.splits.setRecouped(scope, r.id, r.amount - r.outstanding);
      if (cursor) await payees.setCursor(scope, cursor.importId, cursor.next);
      return n;
    });
  }

  private allocatePage(page: PageDoc, lines: LedgerLine[], owed: Map<string, QueuedRecoupable[]>) {
    const sums = new Map<string, { row: AllocationRow; amount: bigint }>();
    const repaid = new Map<string, { releaseId: string; party: string; amount: bigint }>();
    // Per payee, by store, territory and sale month: the monthly statements' income (payee_income).
    const byStore = new Map<string, Map<string, { row: IncomeRow; amount: bigint }>>();
    const owner: Share[] = [{ party: `user:${page.ownerId}`, units: WHOLE }];
    let total = 0n;
    for (const line of lines) {
      const month = saleMonthOf(line);
      const table = tableFor(this.versions.get(line.releaseId) ?? [], line.trackId, month);
      const shares = table ? table.map((e) => ({ party: e.party, units: e.units })) : owner;
      const pieces = allocateLine(line.amountAcct, shares, owed.get(line.releaseId) ?? []);
      total += line.amountAcct;
      for (const p of pieces) {
        const key = `${p.party}|${line.releaseId}|${line.trackId}|${month}|${p.kind}`;
        const s = sums.get(key);
        if (s) s.amount += p.amount;
        else
          sums.set(key, {
            row: [p.party, line.releaseId, line.trackId, month, p.kind, ''],
            amount: p.amount,
          });
        let mine = byStore.get(p.party);
        if (!mine) {
          mine = new Map();
          byStore.set(p.party, mine);
        }
        const ik = `${line.store}|${line.territory}|${month}|${p.kind}`;
        const is = mine.get(ik);
        if (is) is.amount += p.amount;
        else mine.set(ik, { row: [line.store, line.territory, month, p.kind, ''], amount: p.amount });
        if (p.expenseId) {
          const r = repaid.get(p.expenseId) ?? { releaseId: line.releaseId, party: p.party, amount: 0n };
          r.amount += p.amount;
          repaid.set(p.expenseId, r);
        }
      }
    }
    let check = 0n;
    const rows: AllocationRow[] = [];
    for (const { row, amount } of sums.values()) {
      check += amount;
      row[5] = amount.toString();
      rows.push(row);
    }
    // Cannot happen (allocateLine's pieces add up to each line); refusing beats writing money that is not there.
    if (check !== total) throw new Error(`payee allocation of page ${page._id} does not add up`);
    const at = new Date().toISOString();
    const entries: RecoupEntryDoc[] = [...repaid].map(([expenseId, r]) => ({
      _id: `${page._id}|${expenseId}`,
      releaseId: r.releaseId,
      expenseId,
      party: r.party,
      amount: r.amount.toString(),
      pageId: page._id,
      at,
    }));
    const period = at.slice(0, 7);
    const income: PayeeIncomeDoc[] = [...byStore].map(([party, m]) => {
      let sum = 0n;
      const out: IncomeRow[] = [];
      for (const { row, amount } of m.values()) {
        sum += amount;
        row[4] = amount.toString();
        out.push(row);
      }
      return {
        _id: `${page._id}|${party}`,
        party,
        period,
        pageId: page._id,
        total: sum.toString(),
        rows: packRows(out),
      };
    });
    return { rows, total, entries, income };
  }
}

interface QueuedRecoupable extends Recoupable {
  amount: bigint;
  startedAt: bigint;
}

/** Per release, what it still owes, in repayment order: expenses before advances, oldest first. */
function recoupQueues(expenses: readonly ExpenseDoc[]): Map<string, QueuedRecoupable[]> {
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
