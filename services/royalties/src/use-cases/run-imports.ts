// Runs statement imports, one file at a time, from the spool. A worker thread reads and parses the file
// and hands it over in chunks of CHUNK_LINES grouped by code (statement-reader/); this thread asks whose
// each code is and writes each chunk — its owners' pages and month sums, its waiting lines and the
// import's progress — in one transaction (a crash resumes after the last chunk written), then publishes
// the chunks into the ledger a run at a time, then opens the file's unmatched lines. Memory stays a chunk
// or two whatever the file's size. A file refused midway (its footer's counts differ, a DSR MessageId
// already imported) removes its staged chunks: nothing of it is seen.
import { setTimeout as sleep } from 'node:timers/promises';
import { type DocumentStore, type Logger, releaseFreedMemory } from '@omni/platform';
import {
  groupLines,
  groupsRows,
  type ImportChunk,
  type RecordingText,
  settleGroup,
} from '../domain/import-chunk';
import { type PageRun, packRuns } from '../domain/ledger-line';
import { formatAmount } from '../domain/money';
import { addSum, emptyFold } from '../domain/rollups';
import { type StatementLine, StatementRefused } from '../domain/statements/line';
import type { Spool } from '../providers/spool/local';
import { type ImportDoc, type ImportsRepository, KEPT_REFUSED_LINES } from '../store/imports';
import type { LedgerRepository, OwnerPage } from '../store/ledger';
import type { RecordingDoc } from '../store/recordings';
import { BATCH as UNMATCHED_BATCH, type UnmatchedRepository } from '../store/unmatched';
import type { Matcher } from './match-lines';
import type { ChunkReader } from './statement-reader/client';
import type { ReadRequest } from './statement-reader/protocol';

/**
 * Lines per chunk: one transaction, one ledger page per owner in it. A statement lists every track
 * under each store and territory, so a chunk holds a few lines of many owners: larger chunks make fewer,
 * fuller pages. The reader keeps a chunk's lines as columns (42 bytes a line), two chunks' worth at a
 * time, and its page text is ~40 characters a line (bench:royalties, 1,000,000 lines of 10,000
 * recordings: 400,000 → 2.05 s, 200,000 → 2.1 s and ~10 MB less peak RSS, 100,000 → 2.2 s).
 */
export const CHUNK_LINES = 200_000;
/**
 * Recordings per chunk at most: a chunk's memory beyond its lines is a group per recording (the reader's,
 * then the import's), so a statement over a wide catalogue is handed over sooner.
 */
export const CHUNK_RECORDINGS = 50_000;
/**
 * Chunks published per transaction: their month sums (a row per owner and month, whatever the lines)
 * are folded in memory first and written once per run, so a run of ten touches each owner's month once
 * rather than five times (bench:royalties: publishing 1,000,000 lines 180 → ~70 ms).
 */
export const PUBLISH_CHUNKS = 10;
/** After a failure that is ours (catalog away, the store busy), the import is tried again after this. */
const RETRY_MS = 5000;

interface StageState {
  lines: ImportDoc['lines'];
  sums: { file: bigint; imported: bigint; unmatched: bigint; refused: bigint };
  refusedLines: ImportDoc['refusedLines'];
  chunks: number;
  period: { start: string | null; end: string | null };
  reportedAt: string | null;
  /** The reporting date the file's header gives (a CSV has none: its lines' latest is taken). */
  fileReportedAt: string | null;
}

export interface ImportDeps {
  /** Reads a spooled file in chunks (statement-reader/client.ts: a worker thread of its own). */
  read: (request: Omit<ReadRequest, 't'>) => ChunkReader;
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
        releaseFreedMemory();
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
    // The reader is gone: its memory (its thread's heap and columns) back to the system before the
    // publishing transaction grows.
    releaseFreedMemory();
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
    const { imports, spool } = this.deps;
    const reader = this.deps.read({
      source: imp.source,
      path: spool.path(imp._id),
      resumeAfter: imp.checkpoint.lineNo,
      chunkItems: CHUNK_LINES,
      chunkRecordings: CHUNK_RECORDINGS,
    });
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
      const state: StageState = {
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
        fileReportedAt: header.reportedAt,
      };
      const matcher = this.deps.matcher();
      const recordings = new KnownRecordings();
      for await (const { chunk, bytesRead } of reader.chunks) {
        if (this.stopping) throw new Error('stopping');
        await recordings.add(chunk, matcher);
        await this.writeChunk(imp, state, chunk, Math.min(bytesRead, imp.bytes), recordings);
        // What the chunk freed (its read buffers, its pages' bytes, the file's upload buffers on the
        // first) goes back to the system rather than staying in malloc: 1,000,000-line import peak
        // RSS -10 MB (bench:royalties, 6 alternating runs).
        releaseFreedMemory();
      }
      await imports.set(imp._id, { state: 'publishing', bytesRead: imp.bytes });
      return null;
    } catch (err) {
      if (err instanceof StatementRefused) return err.message;
      throw err;
    } finally {
      await reader.close();
    }
  }

  /**
   * One chunk, in one transaction: whose each code is, the owners' pages and month sums, the lines no
   * recording matched, the import's counts and checkpoint.
   */
  private async writeChunk(
    imp: ImportDoc,
    state: StageState,
    chunk: ImportChunk,
    bytesRead: number,
    recordings: KnownRecordings,
  ) {
    const { documents, imports, ledger, unmatched } = this.deps;
    for (const r of chunk.refused) {
      state.lines.total += 1;
      state.lines.refused += 1;
      if (r.amountAcct !== null) {
        state.sums.refused += r.amountAcct;
        state.sums.file += r.amountAcct;
      }
      if (state.refusedLines.length < KEPT_REFUSED_LINES)
        state.refusedLines.push({ lineNo: r.lineNo, reason: r.reason });
    }
    state.lines.total += chunk.lines;
    if (chunk.lines > 0) {
      if (!state.period.start || chunk.saleStart < state.period.start) state.period.start = chunk.saleStart;
      if (!state.period.end || chunk.saleEnd > state.period.end) state.period.end = chunk.saleEnd;
      if (
        !state.fileReportedAt &&
        chunk.reportedAt &&
        (!state.reportedAt || chunk.reportedAt > state.reportedAt)
      )
        state.reportedAt = chunk.reportedAt;
    }

    // Per owner, the chunk's groups in its page: numbers, and the page built only when it is written.
    const pages = new Map<string, { groups: number[]; months: Set<string> }>();
    const sums = emptyFold();
    // The groups no recording matched: their lines are made and staged a few thousand at a time in the
    // transaction (a chunk of codes Omni does not know made 200,000 line objects and documents at once).
    const waiting: number[] = [];
    const G = chunk.groups;
    for (let g = 0; g < G.count; g += 1) {
      const rec = G.rec[g]!;
      const found = recordings.owners[rec];
      if (!found) {
        const amount = settleGroup(chunk, g);
        state.sums.file += amount;
        state.lines.unmatched += G.n[g]!;
        state.sums.unmatched += amount;
        waiting.push(g);
        continue;
      }
      let page = pages.get(found.ownerId);
      if (!page) {
        page = { groups: [], months: new Set() };
        pages.set(found.ownerId, page);
      }
      page.groups.push(g);
      const pageMonths = page.months;
      const amount = settleGroup(chunk, g, (m) => {
        pageMonths.add(m.saleMonth);
        addSum(sums, { ownerId: found.ownerId, ...m });
      });
      state.sums.file += amount;
      state.lines.imported += G.n[g]!;
      state.sums.imported += amount;
    }
    // Each page is built when it is written and dropped after: a chunk's pages and their JSON alive
    // together outlived the young collections and were promoted (the service's heap grew with the file).
    const ownerPages = function* (): Generator<OwnerPage> {
      for (const [ownerId, p] of pages) {
        const runs: PageRun[] = p.groups.map((g) => {
          const rec = G.rec[g]!;
          const found = recordings.owners[rec]!;
          return {
            releaseId: found.releaseId,
            trackId: found.kind === 'isrc' ? found.trackId : '',
            recording: recordings.texts[rec]!.recording,
            n: G.n[g]!,
          };
        });
        // One text per page, written straight from the columns.
        const { rows, contexts } = groupsRows(chunk, p.groups);
        yield {
          ownerId,
          saleMonths: [...p.months].sort(),
          lines: packRuns(ownerId, runs, rows, chunk.contexts, contexts),
        };
      }
    };
    const seq = state.chunks;
    state.chunks += 1;
    await documents.transaction(async (scope) => {
      if (pages.size > 0) await ledger.stagePages(scope, imp._id, seq, ownerPages(), sums);
      // The lines and, summed per identifier, their groups (the queue's screen reads those).
      const staging = await unmatched.staging(scope, imp._id);
      let lines: StatementLine[] = [];
      for (const g of waiting) {
        for (const l of groupLines(chunk, g, recordings.texts[G.rec[g]!]!.recording)) lines.push(l);
        if (lines.length >= UNMATCHED_BATCH) {
          await staging.add(lines);
          lines = [];
        }
      }
      await staging.add(lines);
      await staging.done();
      await imports.set(
        imp._id,
        {
          checkpoint: { lineNo: chunk.lastLineNo, chunks: state.chunks },
          lines: state.lines,
          sums: {
            file: state.sums.file.toString(),
            imported: state.sums.imported.toString(),
            unmatched: state.sums.unmatched.toString(),
            refused: state.sums.refused.toString(),
          },
          refusedLines: state.refusedLines,
          bytesRead,
          periodStart: state.period.start,
          periodEnd: state.period.end,
          reportedAt: state.reportedAt,
        },
        scope,
      );
    });
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

/**
 * The reader's recordings as this thread knows them (ImportChunk.recordings), and whose each is: a
 * recording's text and owner are kept once per file, its groups in every chunk name it by number.
 */
class KnownRecordings {
  texts: RecordingText[] = [];
  owners: Array<RecordingDoc | null> = [];

  async add(chunk: ImportChunk, matcher: Matcher) {
    if (chunk.recordingsFrom === 0) {
      this.texts = [];
      this.owners = [];
    }
    if (chunk.recordingsFrom !== this.texts.length)
      throw new Error('The statement reader numbered its recordings out of turn.');
    if (chunk.recordings.length === 0) return;
    const owners = await matcher.whose(chunk.recordings);
    chunk.recordings.forEach((r, i) => {
      this.texts.push(r);
      this.owners.push(owners[i]!);
    });
  }
}

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
