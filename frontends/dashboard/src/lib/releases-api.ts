// Clients for the gateway's release, dashboard, platform and storage-status endpoints (issue 4 REST
// contracts). Responses are parsed with zod so a server change shows up as one clear error instead
// of `undefined` deep inside a screen; optional fields get defaults so a missing extra does not.

// The schemas are the API contract's (zod's mini build, so they cost the bundle a few kilobytes).
import {
  type CreateReleaseRequest,
  dashboardSchema,
  type EditReleaseRequest,
  type jobSchema,
  platformsSchema,
  type ReleaseVersionJson,
  type ResubmitReleaseRequest,
  releaseAnswerSchema,
  releaseSchema,
  releaseVersionSchema,
  releaseVersionsResponse,
  type SubmitSongRequest,
  songAnswerSchema,
  storageStatusSchema,
  type trackSchema,
  uploadsListSchema,
} from '@omni/proto/api';
import { apiFetch, apiResponse } from '@omni/ui';
import * as z from 'zod/mini';

const takedownAnswerSchema = z.pipe(
  z.object({ jobs: z.array(z.unknown()), message: z.string() }),
  z.transform((a) => ({ count: a.jobs.length, message: a.message })),
);

export {
  type CreateReleaseRequest,
  type EditReleaseRequest,
  type FileRef,
  isReleaseId,
  RELEASE_TYPES,
  type ReleaseType,
  type ReleaseVersionJson,
  type SubmitSongRequest,
} from '@omni/proto/api';

export type PlatformList = z.infer<typeof platformsSchema>;
export type DeliveryJob = z.infer<typeof jobSchema>;
export type Track = z.infer<typeof trackSchema>;
export type Release = z.infer<typeof releaseSchema>;
/**
 * /app's figures, as the contract's `dashboardSchema` parses them: the earnings fields are optional there
 * (an older server sends only the numbers), and the cards fall back to `totalEarnings` without them.
 */
export type DashboardData = z.infer<typeof dashboardSchema>;
export type StorageStatus = z.infer<typeof storageStatusSchema>;
export type StoredFile = z.infer<typeof uploadsListSchema>['files'][number];

export async function fetchPlatforms(): Promise<PlatformList> {
  return platformsSchema.parse(await apiFetch('/api/platforms', {}, { auth: false }));
}

export async function createRelease(request: CreateReleaseRequest): Promise<Release> {
  const body = await apiFetch('/api/releases', { method: 'POST', body: JSON.stringify(request) });
  return releaseAnswerSchema.parse(body).release;
}

export async function fetchRelease(id: string): Promise<Release> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}`);
  return releaseAnswerSchema.parse(body).release;
}

const releasesListSchema = z.object({ releases: z.array(releaseSchema) });

/** The most a page of GET /api/releases holds (the gateway's limit); the list says when there may be more. */
export const RELEASES_LIST_LIMIT = 200;

/** The caller's releases, newest first, each with its delivery counts (GET /api/releases). */
export async function fetchReleases(): Promise<Release[]> {
  const body = await apiFetch(`/api/releases?limit=${RELEASES_LIST_LIMIT}`);
  return releasesListSchema.parse(body).releases;
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

export async function submitSong(request: SubmitSongRequest): Promise<{ isrc: string; releaseId: string }> {
  const body = await apiFetch('/api/songs', { method: 'POST', body: JSON.stringify(request) });
  const parsed = songAnswerSchema.parse(body);
  return { isrc: parsed.isrc, releaseId: parsed.release.id };
}

/** Takes the release down from the chosen stores (none = every store); answers the contract's message. */
export async function takeDownRelease(
  id: string,
  stores: string[],
): Promise<{ count: number; message: string }> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}/takedown`, {
    method: 'POST',
    body: JSON.stringify({ stores }),
  });
  return takedownAnswerSchema.parse(body);
}

/**
 * Releases it again to the chosen stores it was taken down from (none = every such store): a new delivery
 * to each; answers the contract's message.
 */
export async function reReleaseRelease(
  id: string,
  stores: string[],
): Promise<{ count: number; message: string }> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}/rerelease`, {
    method: 'POST',
    body: JSON.stringify({ stores }),
  });
  return takedownAnswerSchema.parse(body);
}

/** Admins only: removes the release from the chosen stores (none = all) completely (PurgeReleaseMessage). */
export async function purgeRelease(
  id: string,
  stores: string[],
): Promise<{ count: number; message: string }> {
  const body = await apiFetch(`/api/admin/releases/${encodeURIComponent(id)}/purge`, {
    method: 'POST',
    body: JSON.stringify({ stores }),
  });
  return takedownAnswerSchema.parse(body);
}

/** Sends a rejected release back to review with the artist's fixes (a file left out keeps the current one). */
const editAnswerSchema = z.object({
  release: releaseSchema,
  version: z.nullable(releaseVersionSchema),
  changed: z.boolean(),
});
export type EditAnswer = z.infer<typeof editAnswerSchema>;

/** PATCH /api/releases/:id: the fields given change; a change goes back to review (and then to the stores). */
export async function editRelease(id: string, request: EditReleaseRequest): Promise<EditAnswer> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: JSON.stringify(request),
  });
  return editAnswerSchema.parse(body);
}

export async function fetchVersions(id: string): Promise<ReleaseVersionJson[]> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}/versions`);
  return releaseVersionsResponse.parse(body).versions;
}

/** DELETE /api/releases/:id: a release no store was sent, with its files; the message to show. */
export async function deleteRelease(id: string): Promise<string> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return z.object({ message: z.string() }).parse(body).message;
}

export async function resubmitRelease(id: string, request: ResubmitReleaseRequest): Promise<Release> {
  const body = await apiFetch(`/api/releases/${encodeURIComponent(id)}/resubmit`, {
    method: 'POST',
    body: JSON.stringify(request),
  });
  return releaseAnswerSchema.parse(body).release;
}

/**
 * Saves the DDEX message sent to a store. A link cannot carry the session's bearer, so the file is fetched
 * and handed to the browser as a download under the server's file name.
 */
export async function downloadErn(id: string, store: string): Promise<void> {
  const res = await apiResponse(
    `/api/releases/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(store)}/ern`,
    { headers: { accept: 'application/xml' } },
  );
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${store}.xml`;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
