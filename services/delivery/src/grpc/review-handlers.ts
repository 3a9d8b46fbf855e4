// The admin review over gRPC: the queue (keyset pages over (submittedAt, _id), oldest first: first come,
// first reviewed), approve and reject. The gateway checks that the caller is an admin before it asks.
import { invalidArgument, type UnaryImpl } from '@omni/platform';
import type { delivery } from '@omni/proto';
import { REVIEW_STATUSES, type ReviewStatus } from '@omni/proto/api';
import { type QueuePosition, reviewToProto } from '../store/reviews';
import { approve, type ReviewDeps, reject } from '../use-cases/review-release';
import { submitRightsProof } from '../use-cases/submit-rights-proof';
import { withdrawRelease } from '../use-cases/withdraw-release';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
const BAD_CURSOR = 'This page cursor is not valid. Start again from the first page.';

type ReviewHandlers = Pick<
  UnaryImpl<typeof delivery.DeliveryServiceService>,
  'listReviewQueue' | 'approveRelease' | 'rejectRelease' | 'withdrawRelease' | 'submitRightsProof'
>;

export function reviewHandlers(deps: ReviewDeps): ReviewHandlers {
  return {
    async listReviewQueue(req) {
      const status = (req.status || 'in_review') as ReviewStatus;
      if (!REVIEW_STATUSES.includes(status))
        throw invalidArgument(`status must be one of ${REVIEW_STATUSES.join(', ')}.`);
      if (req.limit < 0 || req.limit > MAX_LIMIT)
        throw invalidArgument(`limit must be between 1 and ${MAX_LIMIT}.`);
      const limit = req.limit || DEFAULT_LIMIT;
      const after = req.cursor ? decodeCursor(req.cursor) : null;
      // One more than asked tells whether there is a next page without a count.
      const page = await deps.reviews.page(status, after, limit + 1);
      const read = page.slice(0, limit);
      const last = read.at(-1);
      // A review its withdrawal raced and missed (use-cases/withdraw-release.ts) is not shown: the release
      // is deleted. The page goes on from the last one read, shown or not.
      const withdrawn = await deps.reviews.withdrawnAmong(read.map((r) => r._id));
      return {
        reviews: read.filter((r) => !withdrawn.has(r._id)).map(reviewToProto),
        nextCursor:
          page.length > limit && last ? encodeCursor({ submittedAt: last.submittedAt, id: last._id }) : '',
      };
    },

    async approveRelease(req) {
      return { review: reviewToProto(await approve(deps, req.releaseId, req.adminId)) };
    },

    async rejectRelease(req) {
      return { review: reviewToProto(await reject(deps, req.releaseId, req.adminId, req.reason)) };
    },

    async submitRightsProof(req) {
      if (!req.proof) throw invalidArgument('A note and a file are required.');
      return { review: reviewToProto(await submitRightsProof(deps, req.releaseId, req.callerId, req.proof)) };
    },

    async withdrawRelease(req) {
      await withdrawRelease(deps, req.releaseId, req.callerId);
      return {};
    },
  };
}

export function encodeCursor(p: QueuePosition): string {
  return Buffer.from(JSON.stringify([p.submittedAt, p.id])).toString('base64url');
}

export function decodeCursor(cursor: string): QueuePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string'
    )
      return { submittedAt: value[0], id: value[1] };
  } catch {
    // falls through to the 400 below
  }
  throw invalidArgument(BAD_CURSOR);
}
