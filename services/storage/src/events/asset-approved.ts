// When cms publishes an asset, its file becomes publicly readable: storage records it in its own list of
// public objects (store/public-objects.ts). Idempotent by event id (consumeEvents) and by asset id.
import { consumeEvents, type DocumentStore, type EventBus, type Logger } from '@omni/platform';
import { PublicObjects } from '../store/public-objects';

export function onAssetApproved(bus: EventBus, store: DocumentStore, logger: Logger) {
  const publicObjects = new PublicObjects(store);
  return consumeEvents({
    bus,
    store,
    groupId: 'storage.asset-approved',
    type: 'asset.approved',
    logger,
    handle: async (event, { scope }) => {
      await publicObjects.recordPublished(scope, {
        assetId: event.data.assetId,
        publishedAt: event.data.publishedAt,
        eventId: event.id,
      });
      logger.info({ assetId: event.data.assetId, eventId: event.id }, 'asset published: file made public');
    },
  });
}
