// What the release page says about delivery, and whether (and how soon) it asks again. The jobs are
// written by the delivery service after it consumes release.created, so right after submission some
// may be missing; after that a queued job waits for the release's review (the support docs promise 24
// to 72 hours), which no one watches a page for. The page asks again only while something is expected
// to change within seconds, less and less often, and stops after a while in any case.
import type { Release } from './releases-api';

/** Job states that change on their own within seconds (packaging, sending, retrying: the delivery service moves them). */
const IN_MOTION = new Set(['packaging', 'sent', 'failed']);

export type DeliveryStage =
  /** Chose no store: a console song submission, which has no cover art (no store takes it without). */
  | 'not-queued'
  /** Fewer jobs than stores yet: the delivery service is still writing them. */
  | 'preparing'
  /** Some job is on its way to a store. */
  | 'moving'
  /** The delivery service did not answer. */
  | 'unavailable'
  /** Nothing changes without a review or a store's answer. */
  | 'settled';

export function deliveryStage(release: Release): DeliveryStage {
  const { delivery, stores } = release;
  if (stores.length === 0) return 'not-queued';
  if (delivery.unavailable) return 'unavailable';
  if (delivery.jobs.length < stores.length) return 'preparing';
  if (delivery.jobs.some((job) => IN_MOTION.has(job.status))) return 'moving';
  return 'settled';
}

const FIRST_DELAY_MS = 1000;
const LONGEST_DELAY_MS = 30_000;
/** The first answer and six more, 1, 2, 4, 8, 16 and 30 s apart: a minute of asking, then a button asks. */
export const MAX_POLLS = 7;

/**
 * The wait before asking again after `polls` answers, or false to stop: exponential back-off while
 * the stage is one that changes by itself, never more than MAX_POLLS times in a row.
 */
export function nextPollDelay(stage: DeliveryStage, polls: number): number | false {
  if (stage === 'not-queued' || stage === 'settled') return false;
  if (polls >= MAX_POLLS) return false;
  return Math.min(FIRST_DELAY_MS * 2 ** Math.max(polls - 1, 0), LONGEST_DELAY_MS);
}
