// delivery.updated → the release's facts as delivery announced them (its status rolled up: in review,
// delivering, live, rejected, taken down; whether a store has it; which stores refused it; whether the
// artist may resubmit), kept as given, so every read of a release (the dashboard, GET /api/releases/:id)
// shows them without asking delivery, and catalog never works them out itself. Ordered and idempotent: the event's per-release `version` is kept beside the status and an
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
      const { releaseId, releaseStatus, version, reachedStores, refusals, canResubmit } = event.data;
      await store.applyDeliveryStatus(scope, {
        releaseId,
        status: releaseStatus,
        version,
        reachedStores,
        rejectedStores: refusals.map((r) => r.store),
        canResubmit,
      });
    },
  });
}
