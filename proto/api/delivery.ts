// Delivery and review: the REST contract of the release page's per-store status, the admin review queue,
// takedowns, purges and the dead-letter list. The delivery service speaks these words, the gateway passes
// them through, and the screens parse with the same schemas (shared/design/delivery.md, "Statuses").
import * as z from 'zod/mini';
import { MAX_STORES } from './release-constants';
import { versionChangeSchema } from './releases';

// ---- statuses -------------------------------------------------------------------------------------------

/**
 * One store's job. queued → packaging → sent (BatchComplete written) → acknowledged (the store's FileOK) →
 * live (acknowledged and the release date reached); failed = retrying with backoff (dead-lettered when the
 * attempts are spent); rejected = the store refused (its reason, needs a fix); taken_down / purged once a
 * takedown / purge is acknowledged.
 */
export const STORE_STATUSES = [
  'queued',
  'packaging',
  'sent',
  'acknowledged',
  'live',
  'failed',
  'rejected',
  'taken_down',
  'purged',
] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

/** What a job sends: the release with its deals, the release with none (takedown), or a purge. */
export const JOB_KINDS = ['ingest', 'takedown', 'purge'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The release as a whole: draft → in_review → delivering → live, or rejected; taken_down when every store is. */
export const RELEASE_STATUSES = [
  'draft',
  'in_review',
  'delivering',
  'live',
  'rejected',
  'taken_down',
] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

export const RELEASE_STATUS_LABELS: Record<ReleaseStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  delivering: 'Delivering',
  live: 'Live',
  rejected: 'Rejected',
  taken_down: 'Taken down',
};

export const STORE_STATUS_LABELS: Record<StoreStatus, string> = {
  queued: 'Queued',
  packaging: 'Packaging',
  sent: 'Sent',
  acknowledged: 'Acknowledged',
  live: 'Live',
  failed: 'Retrying',
  rejected: 'Rejected',
  taken_down: 'Taken down',
  purged: 'Purged',
};

export const REVIEW_STATUSES = ['in_review', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** An automatic store check's verdict: `error` = the named stores refuse it; `warning` = they may. */
export const FINDING_SEVERITIES = ['error', 'warning'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

export const REJECTION_REASON_MIN = 10;
export const REJECTION_REASON_MAX = 1000;

// ---- requests -------------------------------------------------------------------------------------------

const REASON_REQUIRED = `Say why the release is rejected, so the artist can fix it (at least ${REJECTION_REASON_MIN} characters).`;

export const rejectReleaseBody = z.strictObject({
  reason: z
    .string({ error: REASON_REQUIRED })
    .check(
      z.trim(),
      z.minLength(REJECTION_REASON_MIN, REASON_REQUIRED),
      z.maxLength(REJECTION_REASON_MAX, `Keep the reason under ${REJECTION_REASON_MAX} characters.`),
    ),
});
export type RejectReleaseBody = z.output<typeof rejectReleaseBody>;

const storeKeys = z
  .array(z.string().check(z.regex(/^[a-z0-9_]{1,40}$/, 'Store keys are lower-case letters, digits and _.')), {
    error: 'stores must be a list of store keys.',
  })
  .check(z.maxLength(MAX_STORES, `At most ${MAX_STORES} stores.`));

/** POST /api/releases/:id/takedown and POST /api/admin/releases/:id/purge: no stores (or none given) = all. */
export const storesBody = z.strictObject({ stores: z._default(z.optional(storeKeys), []) });
export type StoresBody = z.output<typeof storesBody>;

export const SIMULATOR_MODES = ['accept', 'reject', 'fail'] as const;
export type SimulatorMode = (typeof SIMULATOR_MODES)[number];

/**
 * POST /api/admin/store-simulator/:store (embedded mode only): how the local store simulator answers the
 * next `times` batches (0 = until told otherwise). reject = the store refuses (ManualCheckRequired),
 * fail = a processing error worth resending (ManualCheckRequired=false).
 */
export const simulatorBody = z.strictObject({
  mode: z.enum(SIMULATOR_MODES, { error: "mode must be 'accept', 'reject' or 'fail'." }),
  times: z._default(z.optional(z.int().check(z.minimum(0), z.maximum(1000))), 0),
  reason: z._default(z.optional(z.string().check(z.trim(), z.maxLength(500))), ''),
  delayMs: z.optional(z.int().check(z.minimum(0), z.maximum(600_000))),
});
export type SimulatorBody = z.output<typeof simulatorBody>;

// ---- answers --------------------------------------------------------------------------------------------

export const deliveryStepSchema = z.object({ status: z.string(), at: z.string() });
export type DeliveryStep = z.infer<typeof deliveryStepSchema>;

export const deliveryJobSchema = z.object({
  target: z.string(),
  /** The store's display name. */
  storeName: z._default(z.optional(z.string()), ''),
  status: z.string(),
  jobKind: z.string(),
  /** A rejection's or the last failure's reason, in the store's words; null when none. */
  reason: z._default(z.optional(z.nullable(z.string())), null),
  attempts: z._default(z.optional(z.number()), 0),
  nextAttemptAt: z._default(z.optional(z.nullable(z.string())), null),
  /** Retries spent: waiting for an admin's replay. */
  deadLettered: z._default(z.optional(z.boolean()), false),
  /** Each status the job reached, oldest first, with its time. */
  steps: z._default(z.optional(z.array(deliveryStepSchema)), []),
  /** A DDEX message was made for this store: GET …/deliveries/:store/ern serves it. */
  hasErn: z._default(z.optional(z.boolean()), false),
  updatedAt: z._default(z.optional(z.string()), ''),
});
export type DeliveryJobJson = z.infer<typeof deliveryJobSchema>;

/** The rights check's evidence on a `fingerprint-match` finding: the recording the master matched. */
export const fingerprintEvidenceSchema = z.object({
  releaseId: z.string(),
  /** 1-based, play order. */
  track: z.number().check(z.int()),
  title: z.string(),
  /** 0..1: similarity of the aligned audio times the share of the upload it covers. */
  score: z.number(),
  /** Where the upload starts in the matched recording, seconds of the matched recording. */
  offsetSeconds: z.number(),
  /** 1: as uploaded; 0.9615: the upload had been sped up by 4 %. */
  speed: z.number(),
  decision: z.enum(['hold', 'look-at', 'same-owner-duplicate']),
  /** The checked release's own track that matched (1-based; 0 in findings made before it was kept). */
  uploadTrack: z._default(z.optional(z.number().check(z.int())), 0),
});
export type FingerprintEvidence = z.infer<typeof fingerprintEvidenceSchema>;

export const reviewFindingSchema = z.object({
  /** The rule's id, e.g. `title.marketing-words`. */
  rule: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  /** The stores concerned; empty = every store. */
  stores: z._default(z.optional(z.array(z.string())), []),
  /** What is wrong and how to fix it, for the artist. */
  message: z.string(),
  /** Rule `fingerprint-match` only. */
  match: z.optional(fingerprintEvidenceSchema),
});
export type ReviewFinding = z.infer<typeof reviewFindingSchema>;

/** The types a proof of rights may be, judged from the file's first bytes (never its name). */
export const RIGHTS_PROOF_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'text/plain'] as const;
export const RIGHTS_PROOF_MAX_BYTES = 10 * 1024 * 1024;
export const RIGHTS_PROOF_MESSAGES = {
  wrongType: 'The file must be a PDF, PNG, JPEG or text file.',
  tooLarge: 'The file is larger than 10 MB.',
  noteRequired: 'Write a note: say which rights you hold and how the file shows it.',
  noteTooLong: 'The note can be at most 2000 characters.',
  sent: 'Your proof of rights was sent. An admin will read it before deciding.',
} as const;

/**
 * POST /api/releases/:id/rights-proof: the owner's answer to a rights hold. The file is uploaded first like
 * any other (POST /api/uploads/sign with purpose `console` into the private `documents` bucket, PUT, then
 * /api/uploads/complete); this names it.
 */
export const rightsProofBody = z.strictObject({
  note: z
    .string({ error: RIGHTS_PROOF_MESSAGES.noteRequired })
    .check(
      z.trim(),
      z.minLength(1, RIGHTS_PROOF_MESSAGES.noteRequired),
      z.maxLength(2000, RIGHTS_PROOF_MESSAGES.noteTooLong),
    ),
  file: z.strictObject({
    bucket: z.string().check(z.minLength(1), z.maxLength(63)),
    fileKey: z.string().check(z.minLength(1, 'Choose a file.'), z.maxLength(1024)),
    fileName: z.string().check(z.trim(), z.minLength(1, 'The file needs a name.'), z.maxLength(255)),
  }),
});
export type RightsProofBody = z.output<typeof rightsProofBody>;

/** One answer as the owner and admins read it; the file is fetched from `downloadUrl` (signed-in only). */
export const rightsProofSchema = z.object({
  id: z.string(),
  note: z.string(),
  fileName: z.string(),
  contentType: z.enum(RIGHTS_PROOF_TYPES),
  size: z.number(),
  submittedAt: z.string(),
  downloadUrl: z.string(),
});
export type RightsProofJson = z.infer<typeof rightsProofSchema>;

export const reviewSchema = z.object({
  status: z.enum(REVIEW_STATUSES),
  findings: z._default(z.optional(z.array(reviewFindingSchema)), []),
  /** The rejection's reason (an admin's, or the automatic checks'); null otherwise. */
  reason: z._default(z.optional(z.nullable(z.string())), null),
  submittedAt: z.string(),
  decidedAt: z._default(z.optional(z.nullable(z.string())), null),
  /** The owner's answers to a rights hold, newest first. */
  proofs: z._default(z.optional(z.array(rightsProofSchema)), []),
});
export type ReviewJson = z.infer<typeof reviewSchema>;

/** GET /api/releases/:id/deliveries, and the SSE stream's `snapshot` event. */
export const releaseDeliverySchema = z.object({
  releaseId: z.string(),
  releaseStatus: z.enum(RELEASE_STATUSES),
  review: z._default(z.optional(z.nullable(reviewSchema)), null),
  jobs: z.array(deliveryJobSchema),
  /** True while some store job moves by itself; the stream ends when this turns false. */
  moving: z.boolean(),
});
export type ReleaseDeliveryJson = z.infer<typeof releaseDeliverySchema>;

/**
 * Events of `GET /api/releases/:id/deliveries/stream` (text/event-stream): `snapshot` first (a
 * ReleaseDeliveryJson), then `job` (a DeliveryJobJson) and `release` ({releaseStatus}) as they change, and
 * `end` when nothing moves any more (the server closes the stream; the page reconnects only on its own
 * action). A heartbeat comment every 15 s keeps proxies from closing an idle stream.
 */
export const DELIVERY_STREAM_EVENTS = ['snapshot', 'job', 'release', 'end'] as const;

/** GET /api/admin/releases (the review queue). */
export const reviewQueueItemSchema = z.object({
  releaseId: z.string(),
  title: z.string(),
  artistName: z.string(),
  releaseType: z.string(),
  upc: z.string(),
  ownerId: z.string(),
  artworkUrl: z._default(z.optional(z.nullable(z.string())), null),
  storeCount: z.number(),
  submittedAt: z.string(),
  review: reviewSchema,
  /** The version waiting for review and what changed from the one before (empty for a first submission). */
  version: z._default(z.optional(z.nullable(z.number())), null),
  changes: z._default(z.optional(z.array(versionChangeSchema)), []),
});
export type ReviewQueueItem = z.infer<typeof reviewQueueItemSchema>;

export const reviewQueueSchema = z.object({
  items: z.array(reviewQueueItemSchema),
  nextCursor: z._default(z.optional(z.nullable(z.string())), null),
});

/** GET /api/admin/deliveries/dead-letters. */
export const deadLetterSchema = z.object({
  releaseId: z.string(),
  target: z.string(),
  storeName: z._default(z.optional(z.string()), ''),
  jobKind: z.string(),
  attempts: z.number(),
  reason: z._default(z.optional(z.nullable(z.string())), null),
  failedAt: z.string(),
});
export type DeadLetterJson = z.infer<typeof deadLetterSchema>;

// ---- words ----------------------------------------------------------------------------------------------

export const DELIVERY_MESSAGES = {
  approved: 'Release approved: delivery to its stores has started.',
  rejected: 'Release rejected. The artist sees your reason.',
  reasonRequired: REASON_REQUIRED,
  notInReview: 'This release is not waiting for review.',
  notRejected: 'Only a release that was rejected (by review or by a store) can be resubmitted.',
  resubmitted: 'Release resubmitted for review.',
  takedownQueued: (n: number) => `Takedown queued for ${n} ${n === 1 ? 'store' : 'stores'}.`,
  purgeQueued: (n: number) => `Purge queued for ${n} ${n === 1 ? 'store' : 'stores'}.`,
  nothingToTakeDown: 'None of these stores has the release: there is nothing to take down.',
  reReleaseQueued: (n: number) =>
    `Release queued again for ${n} ${n === 1 ? 'store' : 'stores'}: each gets the release anew.`,
  nothingToReRelease:
    'None of these stores has the release taken down: only a store it was taken down from can get it again.',
  storeNotInRelease: 'This release is not delivered to that store.',
  ernNotFound: 'No DDEX message has been made for this store yet.',
  deadLetterNotFound: 'That delivery is not in the dead-letter list.',
  replayed: 'Delivery queued again.',
  simulatorOnly: 'The store simulator runs only in the embedded mode (npm start).',
  autoRejected: 'Our automatic store checks found problems stores would refuse. Fix them and resubmit.',
  reviewWait: 'A person checks every release before it goes to the stores: usually within 24 to 72 hours.',
} as const;
