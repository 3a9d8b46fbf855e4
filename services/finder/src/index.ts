// finder: the Missing Money Finder. Scans an account's catalogue (read page by page from catalog) for
// metadata gaps and unregistered recordings, as jobs with progress; only a Finder subscriber (asked of
// billing) may start one; a completed scan is announced as `scan.completed` through the outbox.
import { Outbox, type ServiceModule } from '@omni/platform';
import { billing, catalog, finder, royalties } from '@omni/proto';
import { createScanner, registryKeys } from './domain';
import { finderHandlers } from './grpc/server';
import { describeRegistries, openRegistries } from './providers/registries/open';
import { JobsRepository } from './store/jobs';
import { PlaysRepository } from './store/plays';
import { INTERRUPTED, Scans } from './use-cases/start-scan';

export const finderService: ServiceModule = {
  name: 'finder',
  description: 'catalogue scans for unclaimed royalties',
  // Reads the catalogue from catalog; asks billing whether the account holds the Finder subscription;
  // reads reported plays from royalties.
  calls: ['catalog', 'billing', 'royalties'],
  consumes: [],
  produces: ['scan.completed'],
  ports: ['documents', 'events'],
  providers: { registries: describeRegistries },
  async init(ctx) {
    const { config, logger } = ctx;
    const documents = await ctx.ports.documents('finder');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['scan.completed']);
    const outbox = new Outbox(documents, bus, 'finder', logger);
    const jobs = new JobsRepository(documents);
    const plays = new PlaysRepository(documents);
    // A job still 'running' in the store was cut off by a crash or a stop: no process will finish it.
    const interrupted = await jobs.failInterrupted(INTERRUPTED);
    if (interrupted > 0) logger.warn({ interrupted }, 'finder: marked interrupted scans as failed');
    const billingClient = ctx.client('billing', billing.BillingServiceService);
    const scans = new Scans({
      documents,
      jobs,
      plays,
      outbox,
      relay: () => void outbox.flush().catch(() => undefined),
      catalog: ctx.client('catalog', catalog.CatalogServiceService),
      billing: billingClient,
      royalties: ctx.client('royalties', royalties.RoyaltiesServiceService),
      scanner: createScanner,
      registries: openRegistries(config, registryKeys),
      logger,
    });
    ctx.grpc.add(
      finder.FinderServiceService,
      finderHandlers({ scans, jobs, plays, billing: billingClient, publicUrl: config.publicUrl }),
    );
    ctx.readiness('documents', () => documents.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(async () => {
      await scans.drain();
      await outbox.stop();
    });
  },
};
