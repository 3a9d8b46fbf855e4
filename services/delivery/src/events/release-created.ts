// release.created → one queued ingest job per chosen store, held until the review approves the release. Idempotent twice over: the consumer's
// processed-event marker skips a redelivered event, and the (releaseId, target) unique index plus the
// "only stores not yet queued" insert make even a re-sent event with a new id create nothing twice.
import {
  consumeEvents,
  type DocumentStore,
  type EventBus,
  type Logger,
  type Subscription,
} from '@omni/platform';
import type { JobsRepository } from '../store/jobs';

export const DELIVERY_GROUP = 'delivery.release-created';

export function onReleaseCreated(
  bus: EventBus,
  store: DocumentStore,
  jobs: JobsRepository,
  logger: Logger,
): Promise<Subscription> {
  return consumeEvents({
    bus,
    store,
    groupId: DELIVERY_GROUP,
    type: 'release.created',
    logger,
    async handle(event, { scope }) {
      const { releaseId, ownerId, stores } = event.data;
      await jobs.queueHeld(scope, { releaseId, ownerId, stores, eventId: event.id });
      logger.info({ releaseId, stores: stores.length }, 'delivery jobs queued, held for review');
    },
  });
}
