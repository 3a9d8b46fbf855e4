// Reviews: one document per release (`_id = releaseId`) holding the automatic store checks' findings and
// the admin's decision. The queue reads it oldest submission first, so its display fields (title, artist,
// upc…) are copied from catalog when the release is submitted: listing the queue never calls catalog.
import type { Collection, Doc, DocumentStore, TransactionScope } from '@omni/platform';
import type { delivery } from '@omni/proto';
import type { ReviewFinding, ReviewStatus } from '@omni/proto/api';

export const REVIEWS = 'delivery_reviews';
/** Releases their owner deleted before any store saw them: a late submission event for one is ignored. */
export const WITHDRAWN = 'delivery_withdrawn_releases';

export interface ReviewDoc extends Doc {
  ownerId: string;
  status: ReviewStatus;
  findings: ReviewFinding[];
  /** Why it was rejected (an admin's words or the automatic checks'); null otherwise. */
  reason: string | null;
  submittedAt: string;
  decidedAt: string | null;
  /** The admin's id, or 'auto' for the automatic checks; null while waiting. */
  decidedBy: string | null;
  title: string;
  artistName: string;
  releaseType: string;
  upc: string;
  stores: string[];
  artworkUrl: string;
  /** 1 for the first submission, +1 per resubmission. */
  submissions: number;
  /** The version this review is about (store/versions.ts); absent for reviews written before versions. */
  versionId?: string;
  updatedAt: string;
  /** The owner's answers to a rights hold, newest first (use-cases/submit-rights-proof.ts). */
  proofs?: RightsProofDoc[];
}

/** One answer to a rights hold: the note, and the file storage keeps (its key, never its bytes). */
export type RightsProofDoc = delivery.RightsProof;

/** Where the queue's last page ended: the keyset (submittedAt, _id). */
export interface QueuePosition {
  submittedAt: string;
  id: string;
}

export class ReviewsRepository {
  private readonly reviews: Collection<ReviewDoc>;
  private readonly withdrawn: Collection<Doc>;

  constructor(store: DocumentStore) {
    this.reviews = store.collection<ReviewDoc>(REVIEWS, {
      // The queue: one status, oldest submission first, ties broken by id.
      indexes: [{ fields: { status: 1, submittedAt: 1, _id: 1 } }, { fields: { status: 1 } }],
    });
    this.withdrawn = store.collection<Doc>(WITHDRAWN);
  }

  get(releaseId: string): Promise<ReviewDoc | null> {
    return this.reviews.findById(releaseId);
  }

  inScope(scope: TransactionScope, releaseId: string): Promise<ReviewDoc | null> {
    return scope.collection<ReviewDoc>(REVIEWS).findById(releaseId);
  }

  forReleases(releaseIds: readonly string[]): Promise<ReviewDoc[]> {
    return this.reviews.find({ _id: { $in: [...releaseIds] } });
  }

  /**
   * Remembers that the release was withdrawn (inside the caller's transaction). Written before anything of
   * the release is removed: see use-cases/withdraw-release.ts for why the order matters.
   */
  async markWithdrawn(
    scope: TransactionScope,
    releaseId: string,
    ownerId: string,
    at: string,
  ): Promise<void> {
    await scope
      .collection<Doc & { ownerId: string; at: string }>(WITHDRAWN)
      .updateOne({ _id: releaseId }, { $set: { ownerId, at } }, { upsert: true });
  }

  /** Forgets the release's review (inside the caller's transaction). */
  async remove(scope: TransactionScope, releaseId: string): Promise<void> {
    await scope.collection<ReviewDoc>(REVIEWS).deleteOne({ _id: releaseId });
  }

  async isWithdrawn(scope: TransactionScope, releaseId: string): Promise<boolean> {
    return (await scope.collection(WITHDRAWN).findById(releaseId)) !== null;
  }

  /** Which of these releases were withdrawn (read outside any transaction: what has been committed). */
  async withdrawnAmong(releaseIds: readonly string[]): Promise<Set<string>> {
    if (releaseIds.length === 0) return new Set();
    const found = await this.withdrawn.find({ _id: { $in: [...releaseIds] } });
    return new Set(found.map((d) => d._id));
  }

  /** Writes the whole review (a submission replaces the previous one's findings and decision). */
  async put(scope: TransactionScope, review: ReviewDoc): Promise<void> {
    const { _id, ...fields } = review;
    await scope.collection<ReviewDoc>(REVIEWS).updateOne({ _id }, { $set: fields }, { upsert: true });
  }

  /**
   * Records a decision, only if the review is still waiting (two admins deciding at once: one wins, the
   * other is told the release is no longer in review). Returns null when it was not waiting.
   */
  decide(
    scope: TransactionScope,
    releaseId: string,
    decision: { status: 'approved' | 'rejected'; reason: string | null; decidedBy: string; at: string },
  ): Promise<ReviewDoc | null> {
    return scope.collection<ReviewDoc>(REVIEWS).findOneAndUpdate(
      { _id: releaseId, status: 'in_review' },
      {
        $set: {
          status: decision.status,
          reason: decision.reason,
          decidedBy: decision.decidedBy,
          decidedAt: decision.at,
          updatedAt: decision.at,
        },
      },
    );
  }

  /** Puts an answer first in the review's proofs (inside the caller's transaction). */
  async addProof(scope: TransactionScope, review: ReviewDoc, proof: RightsProofDoc): Promise<void> {
    await scope
      .collection<ReviewDoc>(REVIEWS)
      .updateOne(
        { _id: review._id },
        { $set: { proofs: [proof, ...(review.proofs ?? [])], updatedAt: proof.submittedAt } },
      );
  }

  /** One page of the queue for a status, oldest submission first, after `after`. */
  page(status: ReviewStatus, after: QueuePosition | null, limit: number): Promise<ReviewDoc[]> {
    const filter = after
      ? {
          status,
          $or: [
            { submittedAt: { $gt: after.submittedAt } },
            { submittedAt: after.submittedAt, _id: { $gt: after.id } },
          ],
        }
      : { status };
    return this.reviews.find(filter, { sort: { submittedAt: 1, _id: 1 }, limit });
  }
}

export function reviewToProto(r: ReviewDoc): delivery.Review {
  return {
    releaseId: r._id,
    ownerId: r.ownerId,
    status: r.status,
    findings: r.findings.map((f) => ({ ...f, stores: [...f.stores] })),
    reason: r.reason ?? '',
    submittedAt: r.submittedAt,
    decidedAt: r.decidedAt ?? '',
    decidedBy: r.decidedBy ?? '',
    title: r.title,
    artistName: r.artistName,
    releaseType: r.releaseType,
    upc: r.upc,
    storeCount: r.stores.length,
    artworkUrl: r.artworkUrl,
    proofs: (r.proofs ?? []).map((p) => ({ ...p })),
  };
}
