// release.resubmitted → the review again: fresh checks on the fixed release (prepare, outside the
// transaction), then the review back in_review (or rejected by the checks), every job held again, jobs
// for added stores created and held jobs of removed stores dropped, in the consumer's transaction.
import {
  consumeEvents,
  type DocumentStore,
  type EventBus,
  type Logger,
  type Subscription,
} from '@omni/platform';
import { prepareReview, type ReviewSources } from '../use-cases/prepare-review';
import { type ReviewDeps, submitForReview } from '../use-cases/review-release';

export const RESUBMITTED_GROUP = 'delivery.release-resubmitted';

export function onReleaseResubmitted(
  bus: EventBus,
  store: DocumentStore,
  deps: Pick<ReviewDeps, 'jobs' | 'reviews' | 'publish'>,
  sources: ReviewSources,
  logger: Logger,
): Promise<Subscription> {
  return consumeEvents({
    bus,
    store,
    groupId: RESUBMITTED_GROUP,
    type: 'release.resubmitted',
    logger,
    prepare: (event) =>
      prepareReview(sources, {
        releaseId: event.data.releaseId,
        ownerId: event.data.ownerId,
        stores: event.data.stores,
        eventId: event.id,
        resubmission: true,
      }),
    async handle(event, { scope, prepared }) {
      const review = await submitForReview(scope, deps, prepared);
      logger.info(
        { releaseId: event.data.releaseId, review: review?.status },
        'resubmitted release back in review',
      );
    },
  });
}
