// CatalogService over gRPC. The gateway validates too, but every service defends its own boundary:
// requests are checked here with the spec's messages before anything is read or written.
import {
  fail,
  GrpcError,
  GrpcStatus,
  invalidArgument,
  type UnaryImpl,
  unauthenticated,
} from '@omni/platform';
import { catalog } from '@omni/proto';
import type { FileChecker } from '../domain/file-rules';
import { PLATFORMS, PRESELECTED_KEYS, resolveStores } from '../domain/platforms';
import { type ArtistDoc, releaseToProto, trackToProto } from '../domain/release';
import { InputError, parseReleaseInput } from '../domain/release-input';
import { versionToProto } from '../domain/versions';
import { type CatalogStore, IsrcExhaustedError } from '../store/catalog-store';
import { CursorError, decodeCursor, encodeCursor } from '../store/catalogue-pages';
import { deleteRelease } from '../use-cases/delete-release';
import { discardingRefusedFiles } from '../use-cases/discard-refused-files';
import { editRelease } from '../use-cases/edit-release';
import { resubmitRelease } from '../use-cases/resubmit-release';
import { submitRelease } from '../use-cases/submit-release';
import { submitSong } from '../use-cases/submit-song';
import { findRecordings } from './recordings';

const owner = (id: string) => {
  if (!id.trim()) throw unauthenticated('Please sign in first.');
  return id;
};

/** Domain errors → gRPC statuses with the same message. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof InputError) throw invalidArgument(err.message);
    if (err instanceof CursorError) throw invalidArgument(err.message);
    if (err instanceof IsrcExhaustedError) throw new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, err.message);
    throw err;
  }
}

export function catalogHandlers(deps: {
  store: CatalogStore;
  files: FileChecker;
  /** Publishes what the outbox holds, right after a commit (its sweep covers a failure or a crash). */
  relay: () => void;
  /** A refused submission's file that could not be removed. */
  onCleanupError?: (err: unknown) => void;
}): UnaryImpl<typeof catalog.CatalogServiceService> {
  const { store, files, relay } = deps;
  const cleanup = { store, files, onError: deps.onCleanupError };

  return {
    resubmitRelease: (req) =>
      guarded(async () => {
        const { release, artist, track } = await resubmitRelease(store, files, owner(req.ownerId), req);
        relay();
        return { release: releaseToProto(release, artist, [track]) };
      }),

    editRelease: (req) =>
      guarded(async () => {
        const { release, artistName, tracks, version } = await editRelease(store, owner(req.ownerId), req);
        if (version) relay();
        const latest = version ?? (await store.versionsOf(release._id))[0];
        return {
          release: releaseToProto(release, { _id: release.artistId, name: artistName } as ArtistDoc, tracks),
          version: latest ? versionToProto(latest) : undefined,
          changed: version !== null,
        };
      }),

    deleteRelease: (req) =>
      guarded(async () =>
        deleteRelease(store, files, owner(req.ownerId), req.releaseId, deps.onCleanupError),
      ),

    async listReleaseVersions(req) {
      const versions = req.releaseId
        ? await store.versionsVisibleTo(req.releaseId, req.callerId, req.callerIsAdmin)
        : null;
      // Someone else's release answers exactly like a missing one.
      if (!versions) throw fail('release_not_found', 'No such release.');
      return { versions: versions.map(versionToProto) };
    },

    async listLatestVersions(req) {
      if (req.releaseIds.length > 200) throw invalidArgument('Ask for at most 200 releases at once.');
      const versions = await store.latestVersions(req.releaseIds);
      return { versions: versions.map((v) => ({ releaseId: v.releaseId, version: versionToProto(v) })) };
    },

    async listPlatforms() {
      return { platforms: PLATFORMS.map((p) => ({ ...p })), preselected: [...PRESELECTED_KEYS] };
    },

    createRelease: (req) =>
      discardingRefusedFiles(
        cleanup,
        req.ownerId,
        [req.audio, req.artwork, ...req.tracks.map((t) => t.audio)],
        () =>
          guarded(async () => {
            const ownerId = owner(req.ownerId);
            const input = parseReleaseInput(req);
            const { stores, unknown } = resolveStores(input.stores);
            if (unknown.length > 0)
              throw invalidArgument(
                `Unknown store ${unknown.map((k) => `"${k}"`).join(', ')}. Choose stores from the platform list.`,
              );
            const { release, artist, tracks } = await submitRelease(store, files, {
              ownerId,
              artistName: input.artistName,
              releaseTitle: input.releaseTitle,
              trackTitle: input.trackTitle,
              releaseType: input.releaseType,
              genre: input.genre,
              label: input.label,
              releaseDate: input.releaseDate,
              explicit: input.explicit,
              artwork: input.artwork,
              metadata: input.metadata,
              stores,
              tracks: input.tracks,
              excludedTerritories: input.excludedTerritories,
              preOrderDate: input.preOrderDate,
              releaseTimeZone: input.releaseTimeZone,
              featuredArtists: input.featuredArtists,
              language: input.language,
              source: 'artist-upload',
              announce: true,
            });
            relay();
            return { release: releaseToProto(release, artist, tracks) };
          }),
      ),

    submitSong: (req) =>
      discardingRefusedFiles(cleanup, req.ownerId, [req.audio], () =>
        guarded(async () => {
          const { release, artist, tracks } = await submitSong(store, files, {
            ...req,
            ownerId: owner(req.ownerId),
          });
          return { release: releaseToProto(release, artist, tracks), isrc: tracks[0]!.isrc };
        }),
      ),

    async getRelease(req) {
      const found = req.releaseId ? await store.releaseWithParts(req.releaseId) : null;
      // Someone else's release answers exactly like a missing one.
      if (!found || (found.release.userId !== req.callerId && !req.callerIsAdmin))
        throw fail('release_not_found', 'No such release.');
      return { release: releaseToProto(found.release, found.artist, found.tracks) };
    },

    async listReleases(req) {
      const ownerId = owner(req.ownerId);
      const limit = req.limit > 0 ? Math.min(req.limit, 200) : 50;
      const { releases, total } = await store.listForOwner(ownerId, limit);
      return {
        total,
        releases: releases.map((r) => releaseToProto(r.release, r.artist, r.tracks)),
      };
    },

    listCatalogueTracks: (req) =>
      guarded(async () => {
        const ownerId = owner(req.ownerId);
        if (req.limit < 0) throw invalidArgument('limit must be between 0 and 1000.');
        const limit = req.limit === 0 ? 500 : Math.min(req.limit, 1000);
        const position = req.cursor ? decodeCursor(req.cursor) : null;
        const [page, total] = await Promise.all([
          store.cataloguePage(ownerId, position, limit),
          position ? Promise.resolve(0) : store.trackCount(ownerId),
        ]);
        return {
          tracks: page.tracks.map(({ release, track }) => ({
            // The release without its other tracks: a page stays small however large the releases are.
            release: releaseToProto(release, page.artists.get(release.artistId) ?? null, []),
            track: trackToProto(track),
          })),
          nextCursor: page.next ? encodeCursor(page.next) : '',
          total,
        };
      }),

    findRecordings: (req) => guarded(() => findRecordings(store, req)),

    allocateIsrc: () => guarded(async () => ({ isrc: await store.allocateIsrc() })),
  };
}
