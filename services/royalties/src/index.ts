// royalties: money and plays coming back. Stores' sales reports (DDEX DSR flat files, CSV/TSV reports
// mapped by per-source templates) are imported into an append-only earnings ledger per rights owner;
// lines no recording matches wait for an admin; the /app cards, /app/analytics and the Finder read
// figures folded from the ledger. Trend reports (estimated daily streams) are kept apart from it.
import { Outbox, type ServiceModule, storeReportsDir } from '@omni/platform';
import { catalog, royalties } from '@omni/proto';
import { runDateOf } from './domain/payouts/payout';
import { royaltiesHandlers } from './grpc/server';
import { statementUploadRoutes } from './http/statement-upload';
import { ReportFolder } from './providers/inbox/folder';
import { describePayouts, openPayouts } from './providers/payouts/open';
import { Spool } from './providers/spool/local';
import { ImportsRepository } from './store/imports';
import { LedgerRepository } from './store/ledger';
import { PayeesRepository } from './store/payees';
import { PayoutsRepository } from './store/payouts';
import { RecordingsRepository } from './store/recordings';
import { SplitsRepository } from './store/splits';
import { TrendsRepository } from './store/trends';
import { UnmatchedRepository } from './store/unmatched';
import { PayeeAllocator } from './use-cases/allocate-payees';
import { importTrends } from './use-cases/import-trends';
import { Matcher } from './use-cases/match-lines';
import type { MySplitsDeps } from './use-cases/my-splits';
import type { PayoutDeps } from './use-cases/payouts/context';
import { retryDue, runPayouts } from './use-cases/payouts/run';
import { receiveFromInbox } from './use-cases/receive-statement';
import { UnmatchedResolver } from './use-cases/resolve-unmatched';
import { ImportRunner } from './use-cases/run-imports';
import { lapseDue, type SplitNotices } from './use-cases/splits';
import { readInWorker } from './use-cases/statement-reader/client';

export const royaltiesService: ServiceModule = {
  name: 'royalties',
  description: 'statements in, an earnings ledger, the figures artists read',
  // Asks catalog whose each reported ISRC/UPC is.
  calls: ['catalog'],
  consumes: [],
  // Split invitations and their lapses, for identity to mail.
  produces: ['split.invitation'],
  ports: ['documents', 'events'],
  providers: {
    spool: (config) => `statement files wait in ${config.dataDir}/royalties/spool`,
    reports: (config) => `stores' reports read from ${storeReportsDir(config)}`,
    payouts: describePayouts,
  },
  async init(ctx) {
    const { config, logger } = ctx;
    const documents = await ctx.ports.documents('royalties');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['split.invitation']);
    const outbox = new Outbox(documents, bus, 'royalties', logger);
    const imports = new ImportsRepository(documents);
    const ledger = new LedgerRepository(documents, (ids) => imports.publishedOf(ids));
    const unmatched = new UnmatchedRepository(documents);
    const recordings = new RecordingsRepository(documents);
    const trends = new TrendsRepository(documents);
    const spool = new Spool(config.dataDir);
    await spool.ready();
    const catalogClient = ctx.client('catalog', catalog.CatalogServiceService);
    const matcher = () => new Matcher(catalogClient, recordings);
    const runner = new ImportRunner({
      read: readInWorker,
      documents,
      imports,
      ledger,
      unmatched,
      spool,
      matcher,
      logger,
    });
    // Attaching (or marking not ours) an identifier's waiting lines, a batch at a time.
    const resolver = new UnmatchedResolver({ documents, ledger, unmatched, matcher, logger });
    const deps = {
      documents,
      imports,
      ledger,
      unmatched,
      resolver,
      recordings,
      trends,
      spool,
      runner,
      matcher,
    };

    // Splits: share tables, invitations and expenses, and the payees' allocations of the published
    // ledger (a step after publishing that only reads the ledger).
    const splits = new SplitsRepository(documents);
    const payees = new PayeesRepository(documents);
    const allocator = new PayeeAllocator({ documents, imports, ledger, splits, payees, logger });
    // Invitations and lapses are mailed by identity (which owns mail) from a `split.invitation` event
    // written with the change; the new link also goes back once to the owner who created it. The event
    // carries the link: it is never logged.
    const notices: SplitNotices = {
      add: async (scope, notice) => {
        await outbox.add(scope, 'split.invitation', notice.invitationId, notice);
      },
      flush: () => void outbox.flush().catch(() => undefined),
    };
    const split: MySplitsDeps = {
      splits,
      payees,
      catalog: catalogClient,
      releases: catalogClient,
      notices,
      publicUrl: config.publicUrl,
    };
    const lapseTimer = setInterval(
      () =>
        void lapseDue(split).catch((err: unknown) => logger.warn({ err }, 'royalties: lapse sweep failed')),
      60_000,
    );
    lapseTimer.unref();

    // Payouts: a run every 30 days (checked hourly: a missed day is run when the service is back; a run
    // already made pays nobody twice) and retries of failed payouts. The rail's events change the records.
    const rail = await openPayouts(config, {
      // The sandbox's records (a small Stripe Connect of its own) live in their own store.
      documents: () => ctx.ports.documents('royalties-sandbox'),
      logger,
    });
    ctx.onStop(() => rail.provider.close());
    if (rail.router) ctx.http.use(rail.router);
    const payout: PayoutDeps = {
      documents,
      payouts: new PayoutsRepository(documents),
      payees,
      splits,
      provider: rail.provider,
      publicUrl: config.publicUrl,
      livemode: rail.livemode,
      logger,
    };
    const payoutSweep = async () => {
      // The run of this 30-day window once (an admin's "run now" may pay who became ready since).
      const runDate = runDateOf(new Date());
      if (!(await payout.payouts.runs.findById(runDate))?.finishedAt) await runPayouts(payout, runDate);
      await retryDue(payout);
    };
    const payoutTimer = setInterval(
      () =>
        void payoutSweep().catch((err: unknown) => logger.warn({ err }, 'royalties: payout run interrupted')),
      3_600_000,
    );
    payoutTimer.unref();

    // An upload cut off by a stop or a crash has no whole file: it is refused (the admin sends it again).
    for (const imp of await imports.inState(['receiving']))
      await imports.refuse(
        imp._id,
        'The upload was interrupted before the whole file arrived; send the file again.',
      );

    const folder = new ReportFolder(
      storeReportsDir(config),
      async (file, open) => {
        if (file.kind === 'dsr')
          await receiveFromInbox(deps, { source: 'dsr', fileName: file.name, body: open() as never });
        else await importTrendFile(file.name, open);
      },
      logger,
    );
    const importTrendFile = async (name: string, open: () => NodeJS.ReadableStream) => {
      const { createHash } = await import('node:crypto');
      const hash = createHash('sha256');
      for await (const chunk of open()) hash.update(chunk as Buffer);
      const sha = hash.digest('hex');
      if (await trends.seen(sha)) return;
      const { rows, unknown } = await importTrends(open() as never, { trends, matcher: matcher() });
      await trends.record(sha, name, rows, unknown);
    };

    ctx.http.use(statementUploadRoutes(deps));
    ctx.grpc.add(
      royalties.RoyaltiesServiceService,
      royaltiesHandlers({ ...deps, split, payout, lookAtReports: () => folder.look(true) }),
    );
    ctx.readiness('documents', () => documents.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(() => outbox.stop());
    ctx.onStarted(async () => {
      // Data from before the queue's summary gets it built once, now rather than at the first look.
      void unmatched
        .ready()
        .then(() => resolver.resume())
        .catch((err: unknown) => logger.warn({ err }, 'royalties: unmatched queue summary not built yet'));
      runner.kick();
      allocator.start();
      await folder.start();
    });
    ctx.onStop(async () => {
      clearInterval(lapseTimer);
      clearInterval(payoutTimer);
      await folder.stop();
      await runner.stop();
      await resolver.stop();
      await allocator.stop();
    });
  },
};
