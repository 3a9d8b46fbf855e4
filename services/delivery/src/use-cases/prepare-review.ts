// Gathers what a review needs from the other services, before the consumer's transaction: the release
// from catalog (its own read, as admin) and storage's inspection of the cover; then runs the automatic
// store checks on them (pure: domain/checks).
import { GrpcStatus, isServiceError, type PromiseClient } from '@omni/platform';
import type { catalog, storage } from '@omni/proto';
import { type CoverFacts, runStoreChecks } from '../domain/checks';
import type { FileFacts, VersionFiles } from '../store/versions';
import { checkRights, type RightsDeps } from './check-rights';
import type { ReviewSubmission } from './review-release';
import { StageError } from './stage-files';

export interface ReviewSources {
  catalog: PromiseClient<typeof catalog.CatalogServiceService>;
  storage: PromiseClient<typeof storage.StorageServiceService>;
  /** The pipeline's stager: fetches a file once per content and says its hash and size. */
  stage?: (
    releaseId: string,
    bucket: string,
    fileKey: string,
  ) => Promise<{ sha256: string; size: number; path?: string }>;
  /** The rights check (fingerprints); absent in unit tests that do not stage files. */
  rights?: RightsDeps;
}

export async function prepareReview(
  sources: ReviewSources,
  input: { releaseId: string; ownerId: string; stores: string[]; eventId: string; resubmission: boolean },
): Promise<ReviewSubmission | null> {
  const { release } = await sources.catalog
    .getRelease({ releaseId: input.releaseId, callerId: '', callerIsAdmin: true })
    // Deleted by its owner since the event was written: nothing to review (anything else is retried).
    .catch((err: unknown) => {
      if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND) return { release: null };
      throw err;
    });
  if (!release) return null;
  const cover = await inspectCover(sources, release);
  const paths = new Map<string, string>();
  const files = await fileFacts(sources, release, paths);
  const rights = sources.rights ? await checkRights(sources.rights, release, paths) : [];
  return {
    releaseId: input.releaseId,
    ownerId: input.ownerId,
    stores: input.stores,
    title: release.title,
    artistName: release.artist?.name ?? '',
    releaseType: release.releaseType,
    upc: release.upc,
    artworkUrl: release.artworkUrl,
    findings: [...runStoreChecks({ release, stores: input.stores, cover }), ...rights],
    release,
    cover,
    files,
    eventId: input.eventId,
    resubmission: input.resubmission,
    at: new Date().toISOString(),
  };
}

const TRANSIENT = new Set<number>([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.RESOURCE_EXHAUSTED,
  GrpcStatus.ABORTED,
]);

/**
 * Each master's and the cover's SHA-256 and size, fetched into the staging folder now (packaging needs them
 * there anyway, and reuses them). A file storage cannot give has no facts: the store checks say what is
 * wrong, and packaging would refuse it.
 */
async function fileFacts(
  sources: ReviewSources,
  release: catalog.Release,
  paths: Map<string, string>,
): Promise<VersionFiles | null> {
  const stage = sources.stage;
  if (!stage) return null;
  const facts = async (ref: catalog.FileRef | undefined, trackId?: string): Promise<FileFacts | null> => {
    if (!ref?.bucket || !ref.fileKey) return null;
    try {
      const staged = await stage(release.id, ref.bucket, ref.fileKey);
      if (trackId && staged.path) paths.set(trackId, staged.path);
      return { sha256: staged.sha256, size: staged.size };
    } catch (err) {
      // Retried (by the consumer) only when retrying may help: storage busy or away. A file storage will not
      // give (gone, refused, a storage without downloads) leaves the version without its facts.
      if (err instanceof StageError) return null;
      if (isServiceError(err) && !TRANSIENT.has(err.code)) return null;
      throw err;
    }
  };
  const audio: Record<string, FileFacts> = {};
  for (const track of release.tracks) {
    const found = await facts(track.audio, track.id);
    if (found) audio[track.id] = found;
  }
  return { audio, cover: await facts(release.artwork) };
}

/** Storage's look at the cover, judged as artwork; null when the release has none or it is gone. */
async function inspectCover(sources: ReviewSources, release: catalog.Release): Promise<CoverFacts | null> {
  if (!release.artwork?.bucket || !release.artwork.fileKey) return null;
  const info = await sources.storage
    .getObjectInfo({
      ownerId: release.ownerId,
      bucket: release.artwork.bucket,
      fileKey: release.artwork.fileKey,
      role: 'artwork',
    })
    .catch((err: unknown) => {
      // The cover is gone: the checks say so. Anything else is retried by the consumer.
      if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND) return null;
      throw err;
    });
  const inspection = info?.exists ? info.inspection : undefined;
  if (!inspection) return null;
  return {
    width: inspection.width,
    height: inspection.height,
    colorMode: inspection.colorMode,
    format: inspection.format,
  };
}
