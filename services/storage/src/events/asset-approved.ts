// When cms publishes an asset, its file becomes publicly readable: storage records it in its own list of
// public objects (the download side consults it). Idempotent by event id (consumeEvents) and by asset id.
import { consumeEvents, type DocumentStore, type EventBus, type Logger } from '@omni/platform';

export interface PublicObjectDoc {
  _id: string;
  assetId: string;
  fileKey: string;
  publishedAt: string;
  eventId: string;
  traceId?: string;
  [field: string]: unknown;
}

export function onAssetApproved(bus: EventBus, store: DocumentStore, logger: Logger) {
  store.collection<PublicObjectDoc>('public_objects', {
    indexes: [{ fields: { assetId: 1 }, unique: true }],
  });
  return consumeEvents({
    bus,
    store,
    groupId: 'storage.asset-approved',
    type: 'asset.approved',
    logger,
    handle: async (event, { scope }) => {
      await scope.collection<PublicObjectDoc>('public_objects').updateOne(
        { _id: event.data.assetId },
        {
          $set: { publishedAt: event.data.publishedAt, eventId: event.id },
          $setOnInsert: { assetId: event.data.assetId, fileKey: '' },
        },
        { upsert: true },
      );
      logger.info({ assetId: event.data.assetId, eventId: event.id }, 'asset published: file made public');
    },
  });
}
