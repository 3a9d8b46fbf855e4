// delivery.updated → the release's status as delivery rolled it up (in review, delivering, live, rejected,
// taken down), so every read of a release (the dashboard, GET /api/releases/:id) shows it without asking
// delivery. Ordered and idempotent: the event's per-release `version` is kept beside the status and an
// event not newer than it changes nothing.
import {
  consumeEvents,
  type DocumentStore,
  type EventBus,
  type Logger,
  type Subscription,
} from '@omni/platform';
import type { CatalogStore } from '../store/catalog-store';

export const CATALOG_DELIVERY_GROUP = 'catalog.delivery-updated';

export function onDeliveryUpdated(
  bus: EventBus,
  documents: DocumentStore,
  store: CatalogStore,
  logger: Logger,
): Promise<Subscription> {
  return consumeEvents({
    bus,
    store: documents,
    groupId: CATALOG_DELIVERY_GROUP,
    type: 'delivery.updated',
    logger,
    async handle(event, { scope }) {
      const { releaseId, releaseStatus, version, target, status } = event.data;
      await store.applyDeliveryStatus(scope, {
        releaseId,
        status: releaseStatus,
        version,
        target,
        storeStatus: status,
      });
    },
  });
}
