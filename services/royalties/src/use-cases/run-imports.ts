// Runs statement imports, one file at a time, from the spool: read and match in chunks of CHUNK_LINES
// (each chunk, its waiting lines and the import's progress in one transaction: a crash resumes after the
// last chunk written), then publish the chunks into the ledger one transaction each, then open the file's
// unmatched lines. Memory stays one chunk whatever the file's size. A file refused midway (its footer's
// counts differ, a DSR MessageId already imported) removes its staged chunks: nothing of it is seen.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentStore, Logger } from '@omni/platform';
import type { LedgerLine } from '../domain/ledger-line';
import { formatAmount } from '../domain/money';
import type { ReadItem, StatementLine } from '../domain/statements/line';
import { StatementRefused } from '../domain/statements/line';
import { readStatement } from '../domain/statements/read-statement';
import type { Spool } from '../providers/spool/local';
import { type ImportDoc, type ImportsRepository, KEPT_REFUSED_LINES } from '../store/imports';
import type { LedgerRepository } from '../store/ledger';
import type { UnmatchedRepository } from '../store/unmatched';
import type { Matcher } from './match-lines';

/**
 * Lines per chunk: one transaction, one ledger page per owner in it. A statement lists every track
 * under each store and territory, so a chunk holds a few lines of many owners: larger chunks make fewer,
 * fuller pages (bench:royalties, 200,000 lines: 10,000 → 7.4 s, 25,000 → 5.7 s, 50,000 → 6.6 s as the
 * heap fills).
 */
export const CHUNK_LINES = 25_000;
/** Chunks published per transaction: their month sums are folded in memory first, written once per run. */
export const PUBLISH_CHUNKS = 2;
/** After a failure that is ours (catalog away, the store busy), the import is tried again after this. */
const RETRY_MS = 5000;

export interface ImportDeps {
  documents: DocumentStore;
  imports: ImportsRepository;
  ledger: LedgerRepository;
  unmatched: UnmatchedRepository;
  spool: Spool;
  matcher: () => Matcher;
  logger: Logger;
}

export class ImportRunner {
  private running: Promise<void> | null = null;
  private stopping = false;
  private again = false;

  constructor(private readonly deps: ImportDeps) {}

  /** Starts the loop if idle (a new file queued, or at start-up). */
  kick() {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.again && !this.stopping) {
        this.again = false;
        this.kick();
      }
    });
  }

  async stop() {
    this.stopping = true;
    await this.running;
  }

  /** Resolves when nothing is queued (tests, the bench). */
  async idle() {
    while (this.running) await this.running;
  }

  private async loop() {
    for (;;) {
      if (this.stopping) return;
      const [next] = await this.deps.imports.inState(['queued', 'importing', 'publishing']);
      if (!next) return;
      try {
        await this.run(next);
      } catch (err) {
        if (this.stopping) return;
        this.deps.logger.warn({ err, importId: next._id }, 'royalties: import interrupted; trying again');
        await sleep(RETRY_MS);
      }
    }
  }

  private async run(imp: ImportDoc) {
    if (imp.state !== 'publishing') {
      // The spool is the service's disk; a pod that lost it (emptyDir after a move) cannot resume the file.
      if (!(await this.deps.spool.exists(imp._id)))
        return this.refuse(
          imp._id,
          'The file was lost while it was being imported (the service moved); send it again.',
        );
      const refusal = await this.stage(imp);
      if (refusal !== null) return this.refuse(imp._id, refusal);
    }
    await this.publish(imp._id);
  }

  private async refuse(id: string, refusal: string) {
    const { documents, imports, ledger, unmatched, spool, logger } = this.deps;
    await documents.transaction(async (scope) => {
      await ledger.discardStaged(scope, id);
      await unmatched.discardStaged(scope, id);
      await imports.refuse(id, refusal, scope);
    });
    await spool.remove(id);
    logger.info({ importId: id, refusal }, 'royalties: statement refused');
  }

  /** Reads the file into staged chunks; the refusal's words when the file cannot be imported. */
  private async stage(imp: ImportDoc): Promise<string | null> {
    const { documents, imports, ledger, unmatched, spool } = this.deps;
    const matcher = this.deps.matcher();
    let bytesRead = 0;
    const reader = readStatement(imp.source, () => spool.open(imp._id, (n) => (bytesRead += n)));
    try {
      const header = await reader.header;
      const fresh = await imports.header(imp._id, {
        sender: header.sender,
        messageId: header.messageId,
        periodStart: header.periodStart,
        periodEnd: header.periodEnd,
        reportedAt: header.reportedAt,
      });
      if (!fresh) {
        const earlier = await imports.byDsrKey(`${header.sender}|${header.messageId}`);
        return `This report (MessageId ${header.messageId} from ${header.sender}) was already imported${
          earlier ? ` from ${earlier.fileName} on ${earlier.createdAt.slice(0, 10)}` : ''
        }; nothing was imported again.`;
      }
      const state = {
        lines: { ...imp.lines },
        sums: {
          file: BigInt(imp.sums.file),
          imported: BigInt(imp.sums.imported),
          unmatched: BigInt(imp.sums.unmatched),
          refused: BigInt(imp.sums.refused),
        },
        refusedLines: [...imp.refusedLines],
        chunks: imp.checkpoint.chunks,
        period: { start: imp.periodStart ?? header.periodStart, end: imp.periodEnd ?? header.periodEnd },
        // A CSV has no header naming its reporting date: the latest one its lines give.
        reportedAt: imp.reportedAt ?? header.reportedAt,
      };
      const resumeAfter = imp.checkpoint.lineNo;
      let batch: ReadItem[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const items = batch;
        batch = [];
        const lines: StatementLine[] = [];
        for (const item of items) {
          if (item.kind === 'line') lines.push(item.line);
          else {
            state.lines.total += 1;
            state.lines.refused += 1;
            if (item.amountAcct !== null) {
              state.sums.refused += item.amountAcct;
              state.sums.file += item.amountAcct;
            }
            if (state.refusedLines.length < KEPT_REFUSED_LINES)
              state.refusedLines.push({ lineNo: item.lineNo, reason: item.reason });
          }
        }
        const { matched, unmatched: waiting } = await matcher.match(lines);
        for (const l of lines) {
          state.lines.total += 1;
          state.sums.file += l.amountAcct;
          if (!state.period.start || l.saleStart < state.period.start) state.period.start = l.saleStart;
          if (!state.period.end || l.saleEnd > state.period.end) state.period.end = l.saleEnd;
          if (!header.reportedAt && l.reportedAt && (!state.reportedAt || l.reportedAt > state.reportedAt))
            state.reportedAt = l.reportedAt;
        }
        state.lines.imported += matched.length;
        state.lines.unmatched += waiting.length;
        state.sums.imported += sum(matched);
        state.sums.unmatched += sum(waiting);
        const last = items[items.length - 1] as ReadItem;
        const lineNo = last.kind === 'line' ? last.line.lineNo : last.lineNo;
        const seq = state.chunks;
        state.chunks += 1;
        await documents.transaction(async (scope) => {
          if (matched.length) await ledger.stage(scope, imp._id, seq, matched as LedgerLine[]);
          await unmatched.stage(scope, imp._id, waiting);
          await imports.set(
            imp._id,
            {
              checkpoint: { lineNo, chunks: state.chunks },
              lines: state.lines,
              sums: {
                file: state.sums.file.toString(),
                imported: state.sums.imported.toString(),
                unmatched: state.sums.unmatched.toString(),
                refused: state.sums.refused.toString(),
              },
              refusedLines: state.refusedLines,
              bytesRead: Math.min(bytesRead, imp.bytes),
              periodStart: state.period.start,
              periodEnd: state.period.end,
              reportedAt: state.reportedAt,
            },
            scope,
          );
        });
      };
      for await (const item of reader.items) {
        if (this.stopping) throw new Error('stopping');
        const lineNo = item.kind === 'line' ? item.line.lineNo : item.lineNo;
        if (lineNo <= resumeAfter) continue;
        batch.push(item);
        if (batch.length >= CHUNK_LINES) await flush();
      }
      await flush();
      await imports.set(imp._id, { state: 'publishing', bytesRead: imp.bytes });
      return null;
    } catch (err) {
      if (err instanceof StatementRefused) return err.message;
      throw err;
    }
  }

  private async publish(id: string) {
    const { documents, imports, ledger, unmatched, spool } = this.deps;
    const imp = await imports.get(id);
    if (!imp) return;
    for (let seq = imp.published; seq < imp.checkpoint.chunks; seq += PUBLISH_CHUNKS) {
      if (this.stopping) throw new Error('stopping');
      const to = Math.min(seq + PUBLISH_CHUNKS, imp.checkpoint.chunks);
      await documents.transaction(async (scope) => {
        await ledger.publish(scope, id, seq, to);
        await imports.set(id, { published: to }, scope);
      });
    }
    await documents.transaction(async (scope) => {
      await unmatched.open(scope, id);
      await imports.set(id, { state: 'done', finishedAt: new Date().toISOString() }, scope);
    });
    await spool.remove(id);
  }
}

const sum = (lines: readonly StatementLine[]) => lines.reduce((t, l) => t + l.amountAcct, 0n);

/** The reconciliation in USD decimals: imported + unmatched + refused = file, to the nano-dollar. */
export function reconcile(sums: ImportDoc['sums']) {
  const file = BigInt(sums.file);
  const imported = BigInt(sums.imported);
  const waiting = BigInt(sums.unmatched);
  const refused = BigInt(sums.refused);
  return {
    file: formatAmount(file),
    imported: formatAmount(imported),
    unmatched: formatAmount(waiting),
    refused: formatAmount(refused),
    balanced: imported + waiting + refused === file,
  };
}
