// Clients for the gateway's release, dashboard, platform and storage-status endpoints (issue 4 REST
// contracts). Responses are parsed with zod so a server change shows up as one clear error instead
// of `undefined` deep inside a screen; optional fields get defaults so a missing extra does not.
import { apiFetch } from '@omni/ui';
// zod's mini build (functional API): the classic build would add ~100 KB of script to every dashboard page.
import * as z from 'zod/mini';

export const RELEASE_TYPES = ['single', 'ep', 'album'] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];

const platformsSchema = z.object({
  platforms: z.array(z.object({ key: z.string(), name: z.string() })),
  preselected: z.array(z.string()),
});
export type PlatformList = z.infer<typeof platformsSchema>;

const jobSchema = z.object({
  target: z.string(),
  status: z.string(),
  jobKind: z._default(z.optional(z.string()), 'ingest'),
  updatedAt: z._default(z.optional(z.string()), ''),
});
export type DeliveryJob = z.infer<typeof jobSchema>;

const trackSchema = z.object({
  id: z.string(),
  trackNumber: z.number(),
  title: z.string(),
  isrc: z.string(),
  durationSeconds: z._default(z.optional(z.nullable(z.number())), 0),
  explicit: z._default(z.optional(z.boolean()), false),
  audioUrl: z._default(z.optional(z.nullable(z.string())), ''),
});
export type Track = z.infer<typeof trackSchema>;

const looseRecord = z.record(z.string(), z.unknown());

const releaseSchema = z.object({
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
});
export type Release = z.infer<typeof releaseSchema>;

/** Catalog names releases with random UUIDs; anything else in /release/:id is no release at all. */
export const isReleaseId = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

const dashboardSchema = z.object({
  totalReleases: z.number(),
  monthlyStreams: z.number(),
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
});
export type DashboardData = z.infer<typeof dashboardSchema>;

const storageStatusSchema = z.object({
  buckets: z.array(z.object({ name: z.string(), exists: z.boolean(), accepts: z.optional(z.string()) })),
  tables: z.array(z.object({ name: z.string(), exists: z.boolean() })),
});
export type StorageStatus = z.infer<typeof storageStatusSchema>;

const uploadsListSchema = z.object({
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

export interface FileRef {
  bucket: string;
  fileKey: string;
}

/** POST /api/releases body (contract: issue 4). Empty `stores` means every platform. */
export interface CreateReleaseRequest {
  artistName: string;
  releaseTitle: string;
  trackTitle: string;
  releaseType: ReleaseType;
  genre: string;
  label?: string;
  releaseDate?: string;
  explicit: boolean;
  audio: FileRef;
  artwork: FileRef;
  credits: {
    producers?: string[];
    writers?: string[];
    musicians?: string[];
    engineer?: string;
    instruments?: string;
  };
  technical: {
    bpm?: number;
    musicalKey?: string;
    style?: string;
    mood?: string;
    recordedIn?: string;
    masteringStudio?: string;
    recordingDate?: string;
  };
  legal: {
    copyrightLine?: string;
    publishingLine?: string;
    pro?: string;
    ipi?: string;
    iswc?: string;
    isni?: string;
  };
  content: { summary?: string; lyrics?: string };
  stores: string[];
}

export async function fetchPlatforms(): Promise<PlatformList> {
  return platformsSchema.parse(await apiFetch('/api/platforms', {}, { auth: false }));
}

export async function createRelease(request: CreateReleaseRequest): Promise<Release> {
  const body = await apiFetch('/api/releases', { method: 'POST', body: JSON.stringify(request) });
  return z.object({ release: releaseSchema }).parse(body).release;
}

export async function fetchRelease(id: string): Promise<Release> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}`);
  return z.object({ release: releaseSchema }).parse(body).release;
}

export async function fetchDashboard(): Promise<DashboardData> {
  return dashboardSchema.parse(await apiFetch('/api/dashboard'));
}

export async function fetchStorageStatus(): Promise<StorageStatus> {
  return storageStatusSchema.parse(await apiFetch('/api/storage/status'));
}

export async function fetchUploads(limit = 20): Promise<StoredFile[]> {
  return uploadsListSchema.parse(await apiFetch(`/api/uploads?limit=${limit}`)).files;
}

export interface SubmitSongRequest {
  title: string;
  artistName: string;
  isrc?: string;
  upc?: string;
  audio: FileRef;
}

export async function submitSong(request: SubmitSongRequest): Promise<{ isrc: string; releaseId: string }> {
  const body = await apiFetch('/api/songs', { method: 'POST', body: JSON.stringify(request) });
  const parsed = z.object({ isrc: z.string(), release: z.object({ id: z.string() }) }).parse(body);
  return { isrc: parsed.isrc, releaseId: parsed.release.id };
}
