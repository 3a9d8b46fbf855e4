// catalog: artists, releases, tracks, ISRC and UPC allocation, release validation. Checks uploaded files
// with storage (GetObjectInfo) and announces accepted releases as `release.created` through its outbox.
import { Outbox, type ServiceModule } from '@omni/platform';
import { catalog, storage } from '@omni/proto';
import { onDeliveryUpdated } from './events/delivery-updated';
import { catalogHandlers } from './grpc/server';
import { storageFileChecker } from './grpc/storage-files';
import { CatalogStore } from './store/catalog-store';

export const catalogService: ServiceModule = {
  name: 'catalog',
  description: 'artists, releases, tracks, ISRC and UPC allocation',
  // Asks storage about each uploaded file before accepting a release.
  calls: ['storage'],
  // Keeps each release's status as delivery reports it.
  consumes: ['delivery.updated'],
  produces: ['release.created', 'release.resubmitted'],
  ports: ['documents', 'events'],
  async init(ctx) {
    const documents = await ctx.ports.documents('catalog');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['release.created', 'release.resubmitted']);
    const outbox = new Outbox(documents, bus, 'catalog', ctx.logger);
    const store = new CatalogStore(documents, outbox);
    const files = storageFileChecker(ctx.client('storage', storage.StorageServiceService));
    // Publishes right after the commit; a failure leaves the event in the outbox for the sweep.
    const relay = () => void outbox.flush().catch(() => undefined);
    const onCleanupError = (err: unknown) =>
      ctx.logger.warn({ err }, 'a refused submission’s file could not be removed; it stays in storage');
    ctx.grpc.add(catalog.CatalogServiceService, catalogHandlers({ store, files, relay, onCleanupError }));
    const statuses = await onDeliveryUpdated(bus, documents, store, ctx.logger);
    ctx.readiness('documents', () => documents.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(async () => {
      await statuses.close();
      await outbox.stop();
    });
  },
};
