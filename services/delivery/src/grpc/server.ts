// DeliveryService over gRPC: the jobs of a release and per-release summaries, composed with the review's
// calls (review-handlers.ts) and the pipeline's (job-handlers.ts). Catalog owns who may see a release;
// the gateway asks it first and only then asks here.
import { invalidArgument, type UnaryImpl } from '@omni/platform';
import type { delivery } from '@omni/proto';
import { jobToProto, summarize } from '../domain/job';
import { stillMoving } from '../domain/job-states';
import { countJobs, reviewForRollUp, rollUpReleaseStatus } from '../domain/release-status';
import type { JobsRepository } from '../store/jobs';
import { type ReviewDoc, reviewToProto } from '../store/reviews';
import type { ReviewDeps } from '../use-cases/review-release';
import { type JobHandlerDeps, jobHandlers } from './job-handlers';
import { reviewHandlers } from './review-handlers';

const MAX_RELEASES_PER_SUMMARY = 200;

export function deliveryHandlers(
  jobs: JobsRepository,
  review: ReviewDeps,
  pipeline: Omit<JobHandlerDeps, 'jobs'>,
): UnaryImpl<typeof delivery.DeliveryServiceService> {
  return {
    ...jobHandlers({ jobs, ...pipeline }),
    // The review (engineer R): the queue, approve, reject.
    ...reviewHandlers(review),
    async listJobs(req) {
      if (!req.releaseId) throw invalidArgument('A release id is required.');
      const found = await review.reviews.get(req.releaseId);
      const list = await jobs.forRelease(req.releaseId);
      const counts = countJobs(list);
      return {
        jobs: list.map(jobToProto),
        summary: summarize(
          req.releaseId,
          counts,
          rollUpReleaseStatus({ review: reviewForRollUp(found?.status, counts), counts }),
        ),
        review: found ? reviewToProto(found) : undefined,
        moving: stillMoving(found?.status ?? null, list, new Date().toISOString()),
      };
    },

    async summarizeReleases(req) {
      const ids = [...new Set(req.releaseIds.filter(Boolean))];
      if (ids.length > MAX_RELEASES_PER_SUMMARY)
        throw invalidArgument(`Ask for at most ${MAX_RELEASES_PER_SUMMARY} releases at a time.`);
      if (ids.length === 0) return { summaries: [] };
      const reviewed = new Map<string, ReviewDoc>(
        (await review.reviews.forReleases(ids)).map((r) => [r._id, r]),
      );
      const countsOf = await jobs.countsOf(ids);
      return {
        summaries: ids.map((id) => {
          const counts = countsOf.get(id) ?? {};
          const status = reviewForRollUp(reviewed.get(id)?.status, counts);
          return summarize(id, counts, rollUpReleaseStatus({ review: status, counts }));
        }),
      };
    },
  };
}
