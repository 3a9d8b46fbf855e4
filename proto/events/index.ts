// Event contracts: one topic per event type, one zod schema per payload. Producers validate before
// they write to the outbox, consumers validate before they act; a payload that does not parse goes
// to the dead-letter topic instead of being half-handled.
import { z } from 'zod';

export const assetApproved = z.object({
  assetId: z.string().min(1),
  pageId: z.string().min(1),
  pageSlug: z.string().min(1),
  kind: z.enum(['music', 'video', 'image', 'document']),
  title: z.string(),
  publishedAt: z.string().datetime(),
  approvedBy: z.string().optional(),
});

export const assetSubmitted = z.object({
  assetId: z.string().min(1),
  pageSlug: z.string().min(1),
  kind: z.enum(['music', 'video', 'image', 'document']),
  title: z.string(),
});

export const assetRejected = z.object({
  assetId: z.string().min(1),
  reason: z.string().min(1),
  rejectedBy: z.string().optional(),
});

/** A new account exists (its email may not be verified yet). Never carries a password or a token. */
export const userRegistered = z.object({
  userId: z.string().min(1),
  email: z.string().email(),
  roles: z.array(z.enum(['artist', 'admin'])),
  registeredAt: z.string().datetime(),
  /** 'signup' from the web, 'admin' from the seed or scripts/create-admin. */
  via: z.enum(['signup', 'admin']),
});

/**
 * A release was accepted by catalog (release, track and this event written in one transaction). Delivery
 * queues one ingest job per store key; `stores` is never empty (no choice = every platform).
 */
export const releaseCreated = z.object({
  releaseId: z.string().min(1),
  ownerId: z.string().min(1),
  artistId: z.string().min(1),
  upc: z.string().regex(/^\d{12,14}$/),
  trackIds: z.array(z.string().min(1)).min(1),
  isrcs: z.array(z.string().regex(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/)).min(1),
  stores: z
    .array(z.string().regex(/^[a-z0-9_]{1,40}$/))
    .min(1)
    .max(500),
  createdAt: z.string().datetime(),
});

const subscriptionStatus = z.enum([
  'active',
  'trialing',
  'past_due',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'unpaid',
  'paused',
]);

/**
 * An account's subscription to a product changed (billing applied a payments-provider webhook). Carries the
 * state after the change, so a consumer never needs to replay history; `version` orders them per
 * subscription (a consumer keeps the highest). `accountId` is the Omni user; `currentPeriodEnd` is when
 * access ends or renews. A failed renewal is `status: 'past_due'` (still subscribed while the provider
 * retries) with `lastPayment.outcome: 'failed'`. `previousStatus` and `lastPayment` were added in place
 * (optional, version 1 unchanged): consumers that do not read them are unaffected.
 */
export const subscriptionUpdated = z.object({
  accountId: z.string().min(1),
  product: z.enum(['pro', 'finder']),
  subscriptionId: z.string().min(1),
  status: subscriptionStatus,
  /** The status readers were last told (null: this is the first announcement of the subscription). */
  previousStatus: subscriptionStatus.nullable().optional(),
  /** The last charge's outcome, when one is known: a failed one says when the provider tries again. */
  lastPayment: z
    .object({
      outcome: z.enum(['paid', 'failed']),
      at: z.string().datetime(),
      /** The next attempt after a failure; null when none is planned (paid, or the last retry failed). */
      nextAttemptAt: z.string().datetime().nullable(),
    })
    .optional(),
  subscribed: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: z.string().datetime().nullable(),
  priceId: z.string(),
  /** The provider's event time (seconds) that produced this state. */
  version: z.number().int(),
  updatedAt: z.string().datetime(),
});

/** A Missing Money Finder scan finished (its result is in finder's jobs; this carries the totals). */
export const scanCompleted = z.object({
  jobId: z.string().min(1),
  accountId: z.string().min(1),
  scanned: z.number().int().nonnegative(),
  flagged: z.number().int().nonnegative(),
  estimatedValueAtRiskUsd: z.number().nonnegative(),
  completedAt: z.string().datetime(),
});

const storeKey = z.string().regex(/^[a-z0-9_]{1,40}$/);

/**
 * The artist fixed a rejected release and sent it again (catalog wrote the changes and this event in one
 * transaction). Delivery puts it back in review, with its automatic checks run again; `stores` is the
 * release's store list after the change.
 */
export const releaseResubmitted = z.object({
  releaseId: z.string().min(1),
  ownerId: z.string().min(1),
  stores: z.array(storeKey).min(1).max(500),
  resubmittedAt: z.string().datetime(),
});

/**
 * A release's delivery changed: one store's job (`target` set) or the release's review (`target` null).
 * Carries the state after the change and the release's rolled-up status, so a consumer never replays
 * history; `version` grows by one per release with every event (a consumer keeps the highest).
 */
export const deliveryUpdated = z.object({
  releaseId: z.string().min(1),
  ownerId: z.string().min(1),
  /** The store key; null when the event is about the review. */
  target: storeKey.nullable(),
  jobKind: z.enum(['ingest', 'takedown', 'purge']).nullable(),
  /** A store status (STORE_STATUSES), or the review's (in_review | approved | rejected) when target is null. */
  status: z.string().min(1),
  reason: z.string().nullable(),
  releaseStatus: z.enum(['draft', 'in_review', 'delivering', 'live', 'rejected', 'taken_down']),
  version: z.number().int().positive(),
  at: z.string().datetime(),
});

/** Every event type the platform knows, with its payload schema and current version. */
export const catalogue = {
  'asset.submitted': { version: 1, schema: assetSubmitted },
  'asset.approved': { version: 1, schema: assetApproved },
  'asset.rejected': { version: 1, schema: assetRejected },
  'user.registered': { version: 1, schema: userRegistered },
  'release.created': { version: 1, schema: releaseCreated },
  'release.resubmitted': { version: 1, schema: releaseResubmitted },
  'delivery.updated': { version: 1, schema: deliveryUpdated },
  'subscription.updated': { version: 1, schema: subscriptionUpdated },
  'scan.completed': { version: 1, schema: scanCompleted },
} as const;

export type EventType = keyof typeof catalogue;
export type EventData<T extends EventType> = z.infer<(typeof catalogue)[T]['schema']>;
