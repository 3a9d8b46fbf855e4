// Starting a scan (the spec's check-finder-subscription + run-finder-scan). The server asks billing whether
// the account holds the Finder subscription — the page's check is only a courtesy. One scan runs at a time
// per account (the jobs store holds that under concurrency); the scan itself runs in the background, page
// by page through catalog's ListCatalogueTracks, so the catalogue never sits in memory at once, and the
// caller waits at most `waitMs` for it. The completed job and `scan.completed` commit together (outbox).
import { type DocumentStore, fail, type Logger, type Outbox, type PromiseClient } from '@omni/platform';
import { billing, type catalog, type royalties } from '@omni/proto';
import { FINDER_MESSAGES, type FinderResult, MAX_SCAN_ISRCS } from '@omni/proto/api';
import type { PlayCount, Scanner } from '../domain/scan-model';
import type { RegistryConnector } from '../providers/registries/port';
import type { JobDoc, JobsRepository } from '../store/jobs';
import type { PlaysRepository } from '../store/plays';
import { toRecording } from './catalogue-recording';

/** What a scanner is built from for one scan. */
export interface ScanInputs {
  registries: RegistryConnector[];
  /** The account's supplied plays of one recording, by canonical ISRC. */
  plays: (isrc: string) => PlayCount[];
  now: Date;
}
export type ScannerFactory = (inputs: ScanInputs) => Scanner;

/** Tracks per ListCatalogueTracks page: catalog's maximum, so a 10,000-track scan is ten calls. */
const PAGE = 1000;
/** How often a caller waiting on a scan it cannot await re-reads the job. */
const POLL_MS = 100;
export const INTERRUPTED = 'The scan was interrupted by a restart; run the scan again.';

export interface ScanDeps {
  documents: DocumentStore;
  jobs: JobsRepository;
  plays: PlaysRepository;
  outbox: Outbox;
  relay: () => void;
  catalog: PromiseClient<typeof catalog.CatalogServiceService>;
  billing: PromiseClient<typeof billing.BillingServiceService>;
  /** Plays the stores reported, from the earnings ledger. */
  royalties: Pick<PromiseClient<typeof royalties.RoyaltiesServiceService>, 'getPlays'>;
  scanner: ScannerFactory;
  /** The registries a scan can ask, read when it starts (snapshot files today). */
  registries: () => Promise<RegistryConnector[]>;
  logger: Logger;
}

export interface StartScanInput {
  accountId: string;
  scope: 'global' | 'isrcs';
  isrcs: string[];
  waitMs: number;
}

export class Scans {
  /** Scans running in this process, by job id, so a caller can wait on one. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly deps: ScanDeps) {}

  async start(input: StartScanInput): Promise<JobDoc> {
    const { jobs } = this.deps;
    const isrcs = normaliseScope(input.scope, input.isrcs);
    const subscription = await this.deps.billing.getSubscription({
      accountId: input.accountId,
      product: billing.Product.PRODUCT_FINDER,
    });
    if (!subscription.subscribed) throw fail('subscription_required', FINDER_MESSAGES.subscriptionRequired);
    const { job, created } = await jobs.startOrRunning(input.accountId, { scan_scope: input.scope, isrcs });
    if (created) {
      const run = this.run(job).finally(() => this.running.delete(job._id));
      this.running.set(job._id, run);
    }
    return this.waitFor(job, input.waitMs);
  }

  /**
   * The job once it has ended, or as it stands after `waitMs`. A scan this process runs is awaited; one
   * started by another request whose run is not visible here yet (or by another replica) is re-read from
   * the store every POLL_MS.
   */
  private async waitFor(job: JobDoc, waitMs: number): Promise<JobDoc> {
    const deadline = Date.now() + waitMs;
    let current = job;
    while (current.status === 'running' && Date.now() < deadline) {
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const run = this.running.get(job._id);
      await Promise.race([
        run ?? new Promise<void>(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, run ? left : Math.min(POLL_MS, left));
        }),
      ]);
      clearTimeout(timer);
      current = (await this.deps.jobs.byId(job._id)) ?? current;
    }
    return current;
  }

  /** Resolves when every scan started here has ended (for a clean stop). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private async run(job: JobDoc): Promise<void> {
    const { jobs, logger } = this.deps;
    try {
      const { result, done } = await this.scan(job);
      await this.deps.documents.transaction(async (scope) => {
        await jobs.complete(scope, job._id, result, done);
        await this.deps.outbox.add(scope, 'scan.completed', job._id, {
          jobId: job._id,
          accountId: job.user_id,
          scanned: result.scanned,
          flagged: result.flagged,
          estimatedValueAtRiskUsd: result.estimated_value_at_risk_usd,
          completedAt: new Date().toISOString(),
        });
      });
      this.deps.relay();
    } catch (err) {
      logger.error({ err, jobId: job._id }, 'finder scan failed');
      await jobs
        .fail(job._id, failureSentence(err))
        .catch((e) => logger.error({ err: e }, 'could not mark scan failed'));
    }
  }

  /** Streams per recording from statements; none (the supplied file alone) when royalties is away. */
  private async ledgerPlays(userId: string): Promise<Map<string, PlayCount[]>> {
    const out = new Map<string, PlayCount[]>();
    try {
      const { plays } = await this.deps.royalties.getPlays({ ownerId: userId, isrcs: [] });
      for (const p of plays) {
        const list = out.get(p.isrc) ?? [];
        list.push({ isrc: p.isrc, territory: p.territory, plays: Number(p.streams), year: p.year });
        out.set(p.isrc, list);
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'finder: royalties did not answer; valuing with supplied plays only');
    }
    return out;
  }

  private async scan(job: JobDoc): Promise<{ result: FinderResult; done: number }> {
    const [supplied, fromLedger, registries] = await Promise.all([
      this.deps.plays.byIsrc(job.user_id),
      this.ledgerPlays(job.user_id),
      this.deps.registries(),
    ]);
    const scanner = this.deps.scanner({
      registries,
      // Plays the stores reported (royalties' ledger) first; the account's own play-count file for a
      // recording no statement has reported yet.
      plays: (isrc) => fromLedger.get(isrc) ?? supplied.get(isrc) ?? [],
      now: new Date(),
    });
    const wanted = job.scan_scope === 'isrcs' ? new Set(job.isrcs) : null;
    let cursor = '';
    let done = 0;
    let total = 0;
    do {
      const page = await this.deps.catalog.listCatalogueTracks({ ownerId: job.user_id, cursor, limit: PAGE });
      if (!cursor) total = page.total;
      for (const item of page.tracks) {
        const recording = toRecording(item);
        if (recording && (!wanted || wanted.has(recording.isrc))) await scanner.add(recording);
      }
      done += page.tracks.length;
      cursor = page.nextCursor;
      // The catalogue may grow while it is read: the total never shows less than what was read.
      await this.deps.jobs.progress(job._id, done, Math.max(total, done));
    } while (cursor);
    return { result: await scanner.finish(), done };
  }
}

/** ISRCs as catalog stores them (upper case, no separators); refuses a malformed list with a sentence. */
function normaliseScope(scope: string, isrcs: string[]): string[] {
  if (scope !== 'global' && scope !== 'isrcs')
    throw fail('invalid_request', "scan_scope must be 'global' or 'isrcs'.");
  if (scope === 'global') return [];
  const list = [...new Set(isrcs.map((i) => i.toUpperCase().replace(/[\s-]/g, '')).filter(Boolean))];
  if (list.length === 0) throw fail('invalid_request', "An 'isrcs' scan needs at least one ISRC in isrcs.");
  if (list.length > MAX_SCAN_ISRCS)
    throw fail('invalid_request', `At most ${MAX_SCAN_ISRCS} ISRCs in one scan.`);
  return list;
}

/** What a failed job says: a sentence for the artist, never a stack (the log has that). */
function failureSentence(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  // gRPC UNAVAILABLE (14) / DEADLINE_EXCEEDED (4): catalog could not be reached.
  if (code === 14 || code === 4)
    return 'The catalogue could not be read just now; run the scan again in a moment.';
  return 'The scan stopped on an unexpected error; run the scan again. If it fails again, contact support.';
}
