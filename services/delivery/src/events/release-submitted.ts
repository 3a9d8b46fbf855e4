// release.created and release.resubmitted → the release's review: the automatic store checks run
// (prepare, outside the transaction: they call catalog and storage), then in the consumer's transaction the
// review is written (in_review, or rejected by the checks) and the jobs are made to match the release's
// stores, held until an admin approves; a resubmission first holds again what was let go. One handling for
// both events, each in its own consumer group. Idempotent twice over: the consumer's processed-event
// marker skips a redelivered event, and an existing review makes a re-sent release.created change only
// the held jobs' store list.
import {
  consumeEvents,
  type DocumentStore,
  type EventBus,
  type Logger,
  type Subscription,
} from '@omni/platform';
import { prepareReview, type ReviewSources } from '../use-cases/prepare-review';
import { type ReviewDeps, submitForReview } from '../use-cases/review-release';

const GROUPS = {
  'release.created': 'delivery.release-created',
  'release.resubmitted': 'delivery.release-resubmitted',
} as const;

export function onReleaseSubmitted(
  type: keyof typeof GROUPS,
  bus: EventBus,
  store: DocumentStore,
  deps: Pick<ReviewDeps, 'jobs' | 'reviews' | 'versions'>,
  sources: ReviewSources,
  logger: Logger,
): Promise<Subscription> {
  return consumeEvents({
    bus,
    store,
    groupId: GROUPS[type],
    type,
    logger,
    prepare: (event) =>
      prepareReview(sources, {
        releaseId: event.data.releaseId,
        ownerId: event.data.ownerId,
        stores: event.data.stores,
        eventId: event.id,
        resubmission: type === 'release.resubmitted',
      }),
    async handle(event, { scope, prepared }) {
      if (!prepared) {
        logger.info(
          { releaseId: event.data.releaseId, type },
          'release deleted before its review; nothing to do',
        );
        return;
      }
      const review = await submitForReview(scope, deps, prepared);
      if (review)
        logger.info(
          { releaseId: event.data.releaseId, stores: prepared.stores.length, review: review.status, type },
          'release in review; its delivery jobs are held',
        );
    },
  });
}
