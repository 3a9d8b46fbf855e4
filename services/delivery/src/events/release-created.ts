// release.created → the release's review: the automatic store checks run (prepare, outside the
// transaction: they call catalog and storage), then in the consumer's transaction the review is written,
// one queued ingest job per chosen store is created held until an admin approves, and delivery.updated
// announces the review. Idempotent twice over: the consumer's processed-event marker skips a redelivered
// event, and an existing review (a re-sent event with a new id) makes submitForReview change nothing.
import {
  consumeEvents,
  type DocumentStore,
  type EventBus,
  type Logger,
  type Subscription,
} from '@omni/platform';
import { prepareReview, type ReviewSources } from '../use-cases/prepare-review';
import { type ReviewDeps, submitForReview } from '../use-cases/review-release';

export const DELIVERY_GROUP = 'delivery.release-created';

export function onReleaseCreated(
  bus: EventBus,
  store: DocumentStore,
  deps: Pick<ReviewDeps, 'jobs' | 'reviews' | 'publish'>,
  sources: ReviewSources,
  logger: Logger,
): Promise<Subscription> {
  return consumeEvents({
    bus,
    store,
    groupId: DELIVERY_GROUP,
    type: 'release.created',
    logger,
    prepare: (event) =>
      prepareReview(sources, {
        releaseId: event.data.releaseId,
        ownerId: event.data.ownerId,
        stores: event.data.stores,
        eventId: event.id,
        resubmission: false,
      }),
    async handle(event, { scope, prepared }) {
      const review = await submitForReview(scope, deps, prepared);
      if (review)
        logger.info(
          { releaseId: event.data.releaseId, stores: prepared.stores.length, review: review.status },
          'release submitted for review; its delivery jobs are held',
        );
    },
  });
}
