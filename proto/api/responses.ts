// What the gateway answers on the /api routes the web app reads. The web app parses every answer with these,
// so a server change shows up as one clear error instead of `undefined` deep inside a screen; optional
// fields get defaults so a missing extra does not. The gateway builds its answers to the same types.
import * as z from 'zod/mini';
import { dashboardEarnings } from './royalties';

export const platformsSchema = z.object({
  platforms: z.array(z.object({ key: z.string(), name: z.string() })),
  preselected: z.array(z.string()),
});
export type PlatformList = z.infer<typeof platformsSchema>;

export const jobSchema = z.object({
  target: z.string(),
  status: z.string(),
  jobKind: z._default(z.optional(z.string()), 'ingest'),
  updatedAt: z._default(z.optional(z.string()), ''),
});
export type DeliveryJob = z.infer<typeof jobSchema>;

const looseRecord = z.record(z.string(), z.unknown());

export const trackSchema = z.object({
  id: z.string(),
  trackNumber: z.number(),
  title: z.string(),
  isrc: z.string(),
  durationSeconds: z._default(z.optional(z.nullable(z.number())), 0),
  explicit: z._default(z.optional(z.boolean()), false),
  audioUrl: z._default(z.optional(z.nullable(z.string())), ''),
  discNumber: z._default(z.optional(z.number()), 1),
  featuredArtists: z._default(z.optional(z.array(z.object({ name: z.string(), role: z.string() }))), []),
  // The track's own credits (lists and texts empty: the release's apply).
  credits: z.optional(looseRecord),
  language: z._default(z.optional(z.string()), ''),
  lyrics: z._default(z.optional(z.string()), ''),
});
export type Track = z.infer<typeof trackSchema>;

export const releaseSchema = z.object({
  id: z.string(),
  title: z.string(),
  releaseType: z.string(),
  genre: z._default(z.optional(z.nullable(z.string())), ''),
  label: z._default(z.optional(z.nullable(z.string())), ''),
  releaseDate: z._default(z.optional(z.nullable(z.string())), null),
  status: z.string(),
  upc: z._default(z.optional(z.nullable(z.string())), ''),
  artworkUrl: z._default(z.optional(z.nullable(z.string())), ''),
  artist: z.object({ id: z.string(), name: z.string() }),
  tracks: z._default(z.optional(z.array(trackSchema)), []),
  metadata: z._default(
    z.optional(
      z.object({
        credits: z._default(z.optional(looseRecord), {}),
        technical: z._default(z.optional(looseRecord), {}),
        legal: z._default(z.optional(looseRecord), {}),
        content: z._default(z.optional(looseRecord), {}),
      }),
    ),
    { credits: {}, technical: {}, legal: {}, content: {} },
  ),
  delivery: z._default(
    z.optional(
      z.object({
        total: z.number(),
        byStatus: z._default(z.optional(z.record(z.string(), z.number())), {}),
        jobs: z._default(z.optional(z.array(jobSchema)), []),
        /** The delivery service did not answer: the counts are unknown, not zero. */
        unavailable: z._default(z.optional(z.boolean()), false),
      }),
    ),
    { total: 0, byStatus: {}, jobs: [], unavailable: false },
  ),
  /** The stores chosen; none for a console song submission, which is not queued for delivery. */
  stores: z._default(z.optional(z.array(z.string())), []),
  createdAt: z._default(z.optional(z.string()), ''),
  /** What some stores may refuse (each message names them); the release was accepted regardless. */
  warnings: z._default(z.optional(z.array(z.string())), []),
  /** Countries where the release is not offered; empty: worldwide. */
  excludedTerritories: z._default(z.optional(z.array(z.string())), []),
  /** YYYY-MM-DD: stores take pre-orders from then; null: no pre-order. */
  preOrderDate: z._default(z.optional(z.nullable(z.string())), null),
  /** An IANA time zone where the release starts at 00:00 everywhere at once; null: local midnight per country. */
  releaseTimeZone: z._default(z.optional(z.nullable(z.string())), null),
  /** Featured besides the main artist, release-wide. */
  featuredArtists: z._default(z.optional(z.array(z.object({ name: z.string(), role: z.string() }))), []),
  /** ISO 639-1; null: not said. */
  language: z._default(z.optional(z.nullable(z.string())), null),
});
export type Release = z.infer<typeof releaseSchema>;

/** Catalog names releases with random UUIDs; anything else in /release/:id is no release at all. */
export const isReleaseId = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/**
 * GET /api/dashboard: /app's figures and the caller's recent releases. `monthlyStreams` and `totalEarnings`
 * (dollars, two decimals) were always there; a server with statements adds the rest of `dashboardEarnings`
 * (the exact USD total and which sale and reporting months the figures are from). An older server sends
 * only the numbers, so the additions are optional and the cards fall back to `totalEarnings`.
 */
export const dashboardSchema = z.extend(
  z.object({
    totalReleases: z.number(),
    monthlyStreams: dashboardEarnings.shape.monthlyStreams,
    totalEarnings: z.number(),
    collaborators: z.number(),
    releases: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: z.string(),
        createdAt: z._default(z.optional(z.string()), ''),
        artworkUrl: z._default(z.optional(z.nullable(z.string())), ''),
      }),
    ),
  }),
  {
    streamsMonth: z.optional(dashboardEarnings.shape.streamsMonth),
    totalEarningsUsd: z.optional(dashboardEarnings.shape.totalEarningsUsd),
    earningsThrough: z.optional(dashboardEarnings.shape.earningsThrough),
  },
);
export type DashboardData = z.infer<typeof dashboardSchema>;

export const storageStatusSchema = z.object({
  buckets: z.array(z.object({ name: z.string(), exists: z.boolean(), accepts: z.optional(z.string()) })),
  tables: z.array(z.object({ name: z.string(), exists: z.boolean() })),
});
export type StorageStatus = z.infer<typeof storageStatusSchema>;

export const uploadsListSchema = z.object({
  files: z.array(
    z.object({
      bucket: z.string(),
      fileKey: z.string(),
      publicUrl: z.string(),
      size: z.optional(z.number()),
      contentType: z.optional(z.string()),
      uploadedAt: z.optional(z.string()),
    }),
  ),
});
export type StoredFile = z.infer<typeof uploadsListSchema>['files'][number];

export const releaseAnswerSchema = z.object({ release: releaseSchema });

export const songAnswerSchema = z.object({ isrc: z.string(), release: z.object({ id: z.string() }) });

/** A release as the gateway writes it (before the web app's defaults fill in what it left out). */
export type ReleaseJson = z.input<typeof releaseSchema>;
