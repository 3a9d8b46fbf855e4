// Gathers what a review needs from the other services, before the consumer's transaction: the release
// from catalog (its own read, as admin) and storage's inspection of the cover; then runs the automatic
// store checks on them (pure: domain/checks).
import { GrpcStatus, isServiceError, type PromiseClient } from '@omni/platform';
import type { catalog, storage } from '@omni/proto';
import { type CoverFacts, runStoreChecks } from '../domain/checks';
import type { ReviewSubmission } from './review-release';

export interface ReviewSources {
  catalog: PromiseClient<typeof catalog.CatalogServiceService>;
  storage: PromiseClient<typeof storage.StorageServiceService>;
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
  return {
    releaseId: input.releaseId,
    ownerId: input.ownerId,
    stores: input.stores,
    title: release.title,
    artistName: release.artist?.name ?? '',
    releaseType: release.releaseType,
    upc: release.upc,
    artworkUrl: release.artworkUrl,
    findings: runStoreChecks({ release, stores: input.stores, cover }),
    release,
    cover,
    eventId: input.eventId,
    resubmission: input.resubmission,
    at: new Date().toISOString(),
  };
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
