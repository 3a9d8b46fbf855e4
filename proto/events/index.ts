// Event contracts: one topic per event type, one zod schema per payload. Producers validate before
// they write to the outbox, consumers validate before they act; a payload that does not parse goes
// to the dead-letter topic instead of being half-handled.
import { z } from 'zod';

export const assetApproved = z.object({
  assetId: z.string().min(1),
  pageId: z.string().min(1),
  pageSlug: z.string().min(1),
  kind: z.enum(['music', 'video']),
  title: z.string(),
  publishedAt: z.string().datetime(),
  approvedBy: z.string().optional(),
});

export const assetSubmitted = z.object({
  assetId: z.string().min(1),
  pageSlug: z.string().min(1),
  kind: z.enum(['music', 'video']),
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

/** Every event type the platform knows, with its payload schema and current version. */
export const catalogue = {
  'asset.submitted': { version: 1, schema: assetSubmitted },
  'asset.approved': { version: 1, schema: assetApproved },
  'asset.rejected': { version: 1, schema: assetRejected },
  'user.registered': { version: 1, schema: userRegistered },
} as const;

export type EventType = keyof typeof catalogue;
export type EventData<T extends EventType> = z.infer<(typeof catalogue)[T]['schema']>;
