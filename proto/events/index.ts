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
 * A release's delivery changed in a way its owner and the other services care about: its rolled-up status,
 * its review, whether a store has it, whether one has it live, which stores refused it, whether the artist
 * may fix and resubmit. Delivery announces it once per such change, not once per store's step (a release to
 * 142 stores used to send about 712; now about five): catalog keeps these facts verbatim and never works
 * them out itself. `target`..`reason` say what caused the change: one store's job (`target` set) or the
 * review (`target` null). `version` grows by one per release with every event (a consumer keeps the highest).
 * Version 2 added the facts; a version 1 event still parses, with the defaults.
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
  /** A store has been sent the release: what stores identify it by (ISRCs, UPC, tracks) is fixed now. */
  reachedStores: z.boolean().default(false),
  /** At least one store has it live. */
  live: z.boolean().default(false),
  /** The stores whose last word on the release is a refusal, with their words. */
  refusals: z
    .array(z.object({ store: storeKey, reason: z.string() }))
    .max(500)
    .default([]),
  /** The artist may fix the release and resubmit it: the review, or a store, refused it. */
  canResubmit: z.boolean().default(false),
  version: z.number().int().positive(),
  at: z.string().datetime(),
});

/**
 * One store's job of a release moved without changing anything `delivery.updated` announces (packaging,
 * sent, acknowledged, one more store live...): only the release pages that are open follow it (the
 * gateway's stream reads the release's jobs again); nobody keeps it.
 */
export const deliveryProgress = z.object({
  releaseId: z.string().min(1),
  ownerId: z.string().min(1),
  target: storeKey.nullable(),
  status: z.string().min(1),
  at: z.string().datetime(),
});

/**
 * A split invitation needs a mail (royalties, issue 26): `invited` and `resent` go to the invitee's address
 * with the link (a new secret each time; the old link is dead), `lapsed` to the release's owner, who must
 * choose what happens to the share (send again, give to someone else, take it back; nothing reverts by
 * itself). Identity sends them and resolves the owner's name and address from `ownerId` (it owns accounts).
 * `link` carries the invitation's one secret: only on `invited`/`resent`, never logged, dropped by identity
 * once the mail is sent; royalties keeps only its hash. Money is a USD decimal string, percents too.
 */
export const splitInvitation = z.object({
  kind: z.enum(['invited', 'resent', 'lapsed']),
  invitationId: z.string().min(1),
  releaseId: z.string().min(1),
  releaseTitle: z.string(),
  ownerId: z.string().min(1),
  /** The owner's address as royalties knows it (a fallback for the name; identity asks its own records). */
  ownerEmail: z.string(),
  /** The invitee's address (lower case). */
  email: z.string().email(),
  /** The invitation's share of each table it is on (null target: the release default). */
  shares: z
    .array(
      z.object({
        target: z.string().nullable(),
        title: z.string(),
        percent: z.string().regex(/^\d{1,3}(\.\d{1,4})?$/),
      }),
    )
    .max(201),
  /** What the share holds so far (USD). */
  held: z.string().regex(/^-?\d+(\.\d{1,9})?$/),
  expiresAt: z.string().datetime(),
  link: z.string().url().optional(),
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
  'delivery.updated': { version: 2, schema: deliveryUpdated },
  'delivery.progress': { version: 1, schema: deliveryProgress },
  'subscription.updated': { version: 1, schema: subscriptionUpdated },
  'scan.completed': { version: 1, schema: scanCompleted },
  'split.invitation': { version: 1, schema: splitInvitation },
} as const;

export type EventType = keyof typeof catalogue;
export type EventData<T extends EventType> = z.infer<(typeof catalogue)[T]['schema']>;
/** What a producer gives: fields with a default (added in a later version) may be left out. */
export type EventInput<T extends EventType> = z.input<(typeof catalogue)[T]['schema']>;
