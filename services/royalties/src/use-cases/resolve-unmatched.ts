// An admin decides about lines no recording matched: attach them to an Omni recording (ISRC) or release
// (UPC) — they enter the ledger then, as new lines of their own import, published at once — or mark them
// as not ours (they stay, counted and visible, outside the ledger).
//
// An identifier may have hundreds of thousands of lines (a label's back catalogue reported before it came
// to Omni): they move BATCH at a time, each batch in a transaction of its own — its lines marked (only if
// still open), their ledger page, the queue's summary and the resolution's progress — so memory stays a
// batch and no transaction outgrows what MongoDB (or the journal) carries. The resolution is claimed
// first (one per identifier: a second one is refused while it runs) and kept until its last batch, so a
// restart carries on where it stopped. The admin's request waits a few seconds (every group but the
// biggest is done by then) and answers with the lines being moved; the rest follows in the background.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentStore, Logger } from '@omni/platform';
import type { LedgerLine } from '../domain/ledger-line';
import type { LedgerRepository } from '../store/ledger';
import { breathe, lineOf, type ResolutionDoc, type UnmatchedRepository } from '../store/unmatched';
import type { Matcher } from './match-lines';

export class ResolveRefused extends Error {}

export interface ResolveDeps {
  documents: DocumentStore;
  ledger: LedgerRepository;
  unmatched: UnmatchedRepository;
  matcher: () => Matcher;
  logger: Logger;
}

export interface ResolveOptions {
  /** How long the admin's request waits for the lines to move (the gateway's gRPC deadline is 5 s). */
  answerWithinMs?: number;
  /** A claim not written for this long belongs to a process that died: another may take it over. */
  staleMs?: number;
  retryMs?: number;
}

export class UnmatchedResolver {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  private readonly answerWithinMs: number;
  private readonly staleMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly deps: ResolveDeps,
    options: ResolveOptions = {},
  ) {
    this.answerWithinMs = options.answerWithinMs ?? 3000;
    this.staleMs = options.staleMs ?? 5 * 60_000;
    this.retryMs = options.retryMs ?? 5000;
  }

  /** Claims the identifier and moves its lines; answers how many were waiting when the admin asked. */
  async resolve(input: {
    identifier: string;
    action: 'attach' | 'not_ours';
    to: string;
    adminId: string;
  }): Promise<number> {
    const { unmatched, matcher } = this.deps;
    const group = await unmatched.openGroup(input.identifier);
    if (!group || group.lines <= 0)
      throw new ResolveRefused(`No lines are waiting for ${input.identifier || 'that identifier'}.`);
    const to = input.action === 'attach' ? input.to.trim() : '';
    let target: ResolutionDoc['target'] = null;
    if (input.action === 'attach') {
      const found = await matcher().find(to);
      if (!found)
        throw new ResolveRefused(
          `No Omni recording has the ISRC ${to} and no release has the UPC ${to}. Check the code.`,
        );
      target = {
        ownerId: found.ownerId,
        releaseId: found.releaseId,
        trackId: found.kind === 'isrc' ? found.trackId : '',
      };
    }
    const claim = await unmatched.claim(
      {
        _id: input.identifier,
        action: input.action,
        to,
        target,
        resolvedBy: input.adminId,
        lines: group.lines,
      },
      this.staleMs,
    );
    if (!claim)
      throw new ResolveRefused(
        `The lines of ${input.identifier} are being resolved already; they will have moved in a moment.`,
      );
    const work = this.run(claim);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      work,
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.answerWithinMs);
      }),
    ]);
    clearTimeout(timer);
    return claim.lines;
  }

  /** Carries on with the resolutions a stop or a crash interrupted. */
  async resume(): Promise<void> {
    for (const claim of await this.deps.unmatched.resolving()) void this.run(claim);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  /** Resolves when no resolution runs (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private run(claim: ResolutionDoc): Promise<void> {
    const running = this.running.get(claim._id);
    if (running) return running;
    const work = this.loop(claim).finally(() => this.running.delete(claim._id));
    this.running.set(claim._id, work);
    return work;
  }

  private async loop(claim: ResolutionDoc) {
    for (;;) {
      try {
        while (!this.stopping && (await this.batch(claim)) > 0) await breathe();
        return;
      } catch (err) {
        if (this.stopping) return;
        this.deps.logger.warn(
          { err, identifier: claim._id },
          'royalties: resolving unmatched lines interrupted; trying again',
        );
        await sleep(this.retryMs);
      }
    }
  }

  /** One batch, in one transaction; 0 when nothing is left (the claim is then removed) or it was taken over. */
  private batch(claim: ResolutionDoc): Promise<number> {
    const { documents, ledger, unmatched } = this.deps;
    return documents.transaction(async (scope) => {
      if (!(await unmatched.holds(scope, claim))) return 0;
      const waiting = await unmatched.openBatch(scope, claim._id);
      if (waiting.length === 0) {
        await unmatched.finish(scope, claim._id);
        return 0;
      }
      if (claim.action === 'attach') {
        const byImport = new Map<string, LedgerLine[]>();
        for (const w of waiting) {
          const list = byImport.get(w.importId) ?? [];
          list.push({ ...lineOf(w.line), ...claim.target! });
          byImport.set(w.importId, list);
        }
        // Keyed by the batch's first line of the import: a line is attached once (it is no longer open
        // after), so a page id never repeats, and a batch run twice fails on its page rather than count twice.
        for (const [importId, lines] of byImport)
          await ledger.append(scope, importId, `attached-${lines[0]!.lineNo}`, lines);
      }
      await unmatched.resolve(scope, waiting, {
        status: claim.action === 'attach' ? 'attached' : 'not_ours',
        resolvedBy: claim.resolvedBy,
        ...(claim.action === 'attach' ? { attachedTo: claim.to } : {}),
      });
      await unmatched.progress(scope, claim._id, waiting.length);
      return waiting.length;
    });
  }
}
