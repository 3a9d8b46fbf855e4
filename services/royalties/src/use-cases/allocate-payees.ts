// Allocates the published ledger to payees: each ledger page's lines, by the split table in force for
// each line's sale month, after what the release owes its recoupable expenses. A step of its own after
// publishing: it only reads what the import path exports (imports' states and cursors, ledger pages,
// unpackLines) and never changes the ledger.
//
// Resumable and idempotent: per import a cursor says the next chunk to allocate; a batch of chunks' pages
// (up to BATCH_LINES lines), their payee sums, the expenses they repaid and the cursor move in one
// transaction, so a chunk is allocated once or not at all. Pages an admin appends later (waiting lines
// attached to a recording: chunk -1) are allocated one by one under their own id, and found by id. It polls (every POLL_MS) rather
// than being called by the import runner, so the import path keeps no knowledge of payees.
import type { DocumentStore, Logger, TransactionScope } from '@omni/platform';
import { unpackLines } from '../domain/ledger-line';
import type { ImportsRepository } from '../store/imports';
import type { LedgerRepository, PageDoc } from '../store/ledger';
import type { PayeesRepository } from '../store/payees';
import type { SplitsRepository, VersionDoc } from '../store/splits';
import { AllocationSums, type QueuedRecoupable, recoupQueues } from './allocation-sums';

const POLL_MS = 2000;
/**
 * Lines summed into one allocation (one transaction): enough that a batch's writes (one per payee ×
 * release × sale month, one income row set per payee) are shared by many pages, few enough that the
 * transaction stays short (the service's other writes wait for it) and the sums stay small.
 */
const BATCH_LINES = 100_000;
/**
 * And at most about this many documents written per transaction (`AllocationSums.writes`, an upper bound):
 * on FerretDB a transaction is journaled — one before-image (≤ ~300 bytes for a payee month) per document
 * written, in one journal document that MongoDB caps at 16 MB — and a catalogue of many small releases
 * writes far more per line than a few big ones. bench:payouts' batches stay under it (≈ 35,000).
 */
const BATCH_WRITES = 40_000;

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
      let seq = cursors.get(imp._id) ?? 0;
      while (seq < published) {
        if (this.stopping) return pages;
        const done = await this.allocateChunks(imp._id, seq, published);
        pages += done.pages;
        seq = done.next;
      }
      // Only an import with waiting lines can have pages appended later: each is allocated on its own,
      // under its own id, so it is found allocated by id.
      if (imp.state === 'done' && imp.lines.unmatched > 0) {
        const appended = await ledger.pages.find({ importId: imp._id, seq: -1 });
        const done = await payees.allocatedAmong(appended.map((p) => p._id));
        for (const page of appended.filter((p) => !done.has(p._id))) {
          if (this.stopping) return pages;
          pages += await this.allocatePage(page);
        }
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

  /**
   * Allocates the chunks from `from` on, up to BATCH_LINES lines, in one transaction with the cursor: the
   * chunks' pages are read and summed one chunk at a time (memory follows the payees, not the lines), and
   * written as one allocation.
   */
  private allocateChunks(importId: string, from: number, published: number) {
    const { documents, ledger, payees, splits } = this.deps;
    return documents.transaction(async (scope) => {
      const owed = new Map<string, QueuedRecoupable[]>();
      const sums = new AllocationSums(this.versions, owed);
      let next = from;
      while (next < published && sums.lines < BATCH_LINES && sums.writes < BATCH_WRITES) {
        const chunk = await ledger.pages.find({ importId, seq: next });
        const unpacked = chunk.map((p) => ({ page: p, lines: unpackLines(p.lines) }));
        const releaseIds = [...new Set(unpacked.flatMap((u) => u.lines.map((l) => l.releaseId)))];
        await this.versionsOf(releaseIds);
        const fresh = releaseIds.filter((r) => !owed.has(r));
        for (const r of fresh) owed.set(r, []);
        for (const [r, queue] of recoupQueues(await splits.expensesIn(scope, fresh))) owed.set(r, queue);
        for (const { page, lines } of unpacked) sums.add(page, lines);
        next += 1;
      }
      const id = `${importId}|${from}-${next}`;
      await this.write(scope, id, sums, { importId, seq: from, upTo: next }, owed);
      await payees.setCursor(scope, importId, next);
      return { pages: sums.pages, next };
    });
  }

  /** Allocates one page appended after its import (waiting lines attached to a recording). */
  private async allocatePage(page: PageDoc): Promise<number> {
    const { documents, payees, splits } = this.deps;
    const lines = unpackLines(page.lines);
    const releaseIds = [...new Set(lines.map((l) => l.releaseId))];
    await this.versionsOf(releaseIds);
    return documents.transaction(async (scope) => {
      if ((await payees.allocatedAmong([page._id])).size) return 0;
      const owed = recoupQueues(await splits.expensesIn(scope, releaseIds));
      const sums = new AllocationSums(this.versions, owed);
      sums.add(page, lines);
      await this.write(
        scope,
        page._id,
        sums,
        { importId: page.importId, seq: page.seq, upTo: page.seq },
        owed,
      );
      return 1;
    });
  }

  private async write(
    scope: TransactionScope,
    id: string,
    sums: AllocationSums,
    where: { importId: string; seq: number; upTo: number },
    owed: Map<string, QueuedRecoupable[]>,
  ) {
    const at = new Date().toISOString();
    const { rows, entries, income } = sums.result(id, at);
    await this.deps.payees.record(
      scope,
      {
        _id: id,
        ...where,
        pages: sums.pages,
        lines: sums.lines,
        total: sums.total.toString(),
        createdAt: at,
      },
      rows,
      entries,
      income,
    );
    // What the lines repaid, written back to the expenses they drew down.
    for (const queue of owed.values())
      for (const r of queue)
        if (r.outstanding !== r.startedAt)
          await this.deps.splits.setRecouped(scope, r.id, r.amount - r.outstanding);
  }
}
