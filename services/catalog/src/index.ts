// catalog: artists, releases, tracks, ISRC and UPC allocation, release validation. Checks uploaded files
// with storage (GetObjectInfo) and announces accepted releases as `release.created` through its outbox.
import { Outbox, type ServiceModule } from '@omni/platform';
import { catalog, storage } from '@omni/proto';
import { catalogHandlers } from './grpc/server';
import { storageFileChecker } from './grpc/storage-files';
import { CatalogStore } from './store/catalog-store';

export const catalogService: ServiceModule = {
  name: 'catalog',
  description: 'artists, releases, tracks, ISRC and UPC allocation',
  // Asks storage about each uploaded file before accepting a release.
  calls: ['storage'],
  consumes: [],
  produces: ['release.created'],
  ports: ['documents', 'events'],
  async init(ctx) {
    const { config } = ctx;
    const documents = await ctx.ports.documents('catalog');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['release.created']);
    const outbox = new Outbox(documents, bus, 'catalog', ctx.logger);
    const store = new CatalogStore(documents, outbox);
    const files = storageFileChecker(ctx.client('storage', storage.StorageServiceService));
    // A test hook (honoured only when NODE_ENV=test): the crash test holds the relay so a release is
    // committed but its event not yet published when the process is killed; the restart must deliver it.
    const held = config.env.NODE_ENV === 'test' && process.env.OMNI_TEST_HOLD_OUTBOX === 'catalog';
    const relay = held ? () => undefined : () => void outbox.flush().catch(() => undefined);
    ctx.grpc.add(catalog.CatalogServiceService, catalogHandlers({ store, files, relay }));
    ctx.readiness('documents', () => documents.healthy());
    ctx.readiness('events', () => bus.healthy());
    if (held) ctx.logger.warn('catalog outbox relay held (OMNI_TEST_HOLD_OUTBOX); events stay unpublished');
    else {
      ctx.onStarted(() => outbox.start());
      ctx.onStop(() => outbox.stop());
    }
  },
};
