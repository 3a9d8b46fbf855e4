// A release's review: submitted (release.created, release.resubmitted) with the automatic store checks'
// findings, then approved or rejected by an admin. Each step is one transaction: the review, the held
// jobs and the `delivery.updated` events commit together. Whatever needs another service (catalog's
// release, storage's look at the cover) is gathered BEFORE the transaction (prepare-review.ts): a
// transaction may re-run and must not stay open across the network.
import {
  type DocumentStore,
  fail,
  invalidArgument,
  type TransactionScope,
  unauthenticated,
} from '@omni/platform';
import type { catalog } from '@omni/proto';
import { DELIVERY_MESSAGES, type ReviewFinding, rejectReleaseBody } from '@omni/proto/api';
import type { CoverFacts } from '../domain/checks';
import type { JobsRepository } from '../store/jobs';
import type { ReviewDoc, ReviewsRepository } from '../store/reviews';
import { type VersionFiles, type VersionsRepository, versionIdOf } from '../store/versions';
import { forgetRelease } from './withdraw-release';

export interface ReviewDeps {
  store: DocumentStore;
  jobs: JobsRepository;
  reviews: ReviewsRepository;
  versions: VersionsRepository;
  /** Publishes what the outbox holds right after a commit (its sweep covers a failure). */
  relay: () => void;
  /** Wakes the worker: the approved release's jobs are due now. */
  onApproved?: (releaseId: string) => void;
  /** After a rejection is committed (the rights index drops the release's masters). */
  onRejected?: (releaseId: string) => Promise<void>;
}

/** What the review of one submission needs, gathered from catalog and storage before the transaction. */
export interface ReviewSubmission {
  releaseId: string;
  ownerId: string;
  /** The release's stores after this submission. */
  stores: string[];
  /** The queue's display fields, copied from catalog. */
  title: string;
  artistName: string;
  releaseType: string;
  upc: string;
  artworkUrl: string;
  findings: ReviewFinding[];
  /** The release and its cover's facts as the checks judged them: the version the review is about. */
  release: catalog.Release;
  cover: CoverFacts | null;
  /** Each file's SHA-256 and size as review fetched them (null: not fetched, as in unit tests). */
  files?: VersionFiles | null;
  /** The event that submitted it. */
  eventId: string;
  resubmission: boolean;
  at: string;
}

/**
 * Whether the automatic checks reject the release by themselves: every chosen store is concerned by at
 * least one error (a finding with no stores concerns them all). A release some store would still take
 * waits for a person, who sees the findings.
 */
export function refusedEverywhere(findings: readonly ReviewFinding[], stores: readonly string[]): boolean {
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.some((f) => f.stores.length === 0)) return true;
  const refusing = new Set(errors.flatMap((f) => f.stores));
  return stores.length > 0 && stores.every((s) => refusing.has(s));
}

export function autoRejectionReason(findings: readonly ReviewFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').map((f) => `- ${f.message}`);
  return [DELIVERY_MESSAGES.autoRejected, ...errors].join('\n');
}

/**
 * Puts the release in review (or rejects it at once when every store would refuse it), inside the event
 * consumer's transaction. A first submission seen again (a re-sent release.created) leaves the review
 * as it is.
 */
export async function submitForReview(
  scope: TransactionScope,
  deps: Pick<ReviewDeps, 'jobs' | 'reviews' | 'versions'>,
  s: ReviewSubmission,
): Promise<ReviewDoc | null> {
  // Deleted by its owner before any store saw it: an event still on its way does not bring it back.
  if (await deps.reviews.isWithdrawn(scope, s.releaseId)) return null;
  const previous = await deps.reviews.inScope(scope, s.releaseId);
  const jobsFor = () =>
    deps.jobs.queueHeld(scope, {
      releaseId: s.releaseId,
      ownerId: s.ownerId,
      stores: s.stores,
      eventId: s.eventId,
    });
  // Withdrawn while this was written (journaled transactions interleave: withdraw-release.ts): take back
  // all of it and announce nothing. A job a store was sent means the withdrawal is refused (and undone).
  const withdrawnMeanwhile = async () => {
    if (!(await deps.reviews.isWithdrawn(scope, s.releaseId))) return false;
    if (!(await forgetRelease(scope, deps, s.releaseId)))
      throw new Error(`release ${s.releaseId} is being withdrawn but a store was sent it; trying again`);
    return true;
  };
  // A re-sent release.created: the review stands; only its store list is followed (as queueHeld does).
  if (previous && !s.resubmission) {
    await jobsFor();
    await withdrawnMeanwhile();
    return null;
  }
  const auto = refusedEverywhere(s.findings, s.stores);
  const versionId = versionIdOf(s.releaseId, s.eventId);
  await deps.versions.put(scope, {
    id: versionId,
    release: s.release,
    cover: s.cover,
    files: s.files ?? null,
    at: s.at,
  });
  const review: ReviewDoc = {
    _id: s.releaseId,
    ownerId: s.ownerId,
    status: auto ? 'rejected' : 'in_review',
    findings: s.findings,
    reason: auto ? autoRejectionReason(s.findings) : null,
    submittedAt: s.at,
    decidedAt: auto ? s.at : null,
    decidedBy: auto ? 'auto' : null,
    title: s.title,
    artistName: s.artistName,
    releaseType: s.releaseType,
    upc: s.upc,
    stores: s.stores,
    artworkUrl: s.artworkUrl,
    submissions: (previous?.submissions ?? 0) + 1,
    versionId,
    updatedAt: s.at,
  };
  // The jobs first, the review last: on a store whose transactions are journaled (FerretDB) others see each
  // write as it is made, and an admin who saw the review in_review before its held jobs existed approved a
  // release with nothing to release (the bench caught 69 of 100 releases approved with every job held).
  // A resubmission first holds what was let go (a store's rejection, a retry), then drops stores removed.
  if (s.resubmission) await deps.jobs.holdAll(scope, s.releaseId, s.at);
  await jobsFor();
  await deps.reviews.put(scope, review);
  if (await withdrawnMeanwhile()) return null;
  await deps.jobs.announceReview(scope, {
    releaseId: s.releaseId,
    ownerId: s.ownerId,
    status: review.status,
    reason: review.reason,
    at: s.at,
  });
  // Once more after the announcement, which builds the release's counts again if a withdrawal took them.
  if (await withdrawnMeanwhile()) return null;
  return review;
}

const adminOf = (adminId: string) => {
  if (!adminId.trim()) throw unauthenticated('Please sign in as an admin first.');
  return adminId;
};

async function waitingReview(deps: ReviewDeps, releaseId: string): Promise<void> {
  if (!releaseId) throw invalidArgument('A release id is required.');
  const review = await deps.reviews.get(releaseId);
  // A review left by a withdrawal it raced (withdraw-release.ts) is never decided: the release is deleted.
  if (!review || (await deps.reviews.withdrawnAmong([releaseId])).size > 0)
    throw fail('release_not_found', 'No such release.');
  if (review.status !== 'in_review') throw fail('release_not_in_review', DELIVERY_MESSAGES.notInReview);
}

/**
 * The admin approves: the review is approved and every held job of the release becomes due now, with one
 * event for the review and one per job, in one transaction; then the worker is woken.
 */
export async function approve(deps: ReviewDeps, releaseId: string, adminId: string): Promise<ReviewDoc> {
  const decidedBy = adminOf(adminId);
  await waitingReview(deps, releaseId);
  const at = new Date().toISOString();
  const review = await deps.store.transaction(async (scope) => {
    const decided = await deps.reviews.decide(scope, releaseId, {
      status: 'approved',
      reason: null,
      decidedBy,
      at,
    });
    if (!decided) return null;
    // The approved version travels with each job: packaging reads it, never catalog or storage again.
    // One announcement for the approval and every job it lets go.
    await deps.jobs.releaseHeld(scope, {
      releaseId,
      ownerId: decided.ownerId,
      at,
      ...(decided.versionId ? { versionId: decided.versionId } : {}),
    });
    return decided;
  });
  // Another admin decided between the check and the transaction.
  if (!review) throw fail('release_not_in_review', DELIVERY_MESSAGES.notInReview);
  deps.relay();
  deps.onApproved?.(releaseId);
  return review;
}

/** The admin rejects with a reason the artist reads; the jobs stay held until a resubmission is approved. */
export async function reject(
  deps: ReviewDeps,
  releaseId: string,
  adminId: string,
  reasonText: string,
): Promise<ReviewDoc> {
  const decidedBy = adminOf(adminId);
  const parsed = rejectReleaseBody.safeParse({ reason: reasonText });
  if (!parsed.success)
    throw invalidArgument(parsed.error.issues[0]?.message ?? DELIVERY_MESSAGES.reasonRequired);
  const { reason } = parsed.data;
  await waitingReview(deps, releaseId);
  const at = new Date().toISOString();
  const review = await deps.store.transaction(async (scope) => {
    const decided = await deps.reviews.decide(scope, releaseId, {
      status: 'rejected',
      reason,
      decidedBy,
      at,
    });
    if (!decided) return null;
    await deps.jobs.announceReview(scope, {
      releaseId,
      ownerId: decided.ownerId,
      status: 'rejected',
      reason,
      at,
    });
    return decided;
  });
  if (!review) throw fail('release_not_in_review', DELIVERY_MESSAGES.notInReview);
  deps.relay();
  await deps.onRejected?.(releaseId);
  return review;
}
