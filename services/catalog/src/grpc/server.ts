// CatalogService over gRPC. The gateway validates too, but every service defends its own boundary:
// requests are checked here with the spec's messages before anything is read or written.
import {
  alreadyExists,
  fail,
  GrpcError,
  GrpcStatus,
  invalidArgument,
  type UnaryImpl,
  unauthenticated,
} from '@omni/platform';
import { catalog } from '@omni/proto';
import { isValidUpc, normalizeIsrc } from '../domain/codes';
import { PLATFORMS, PRESELECTED_KEYS, resolveStores } from '../domain/platforms';
import { DEFAULT_GENRE, emptyMetadata, releaseToProto } from '../domain/release';
import { hasFile, InputError, MESSAGES, parseReleaseInput } from '../domain/release-input';
import type { FileChecker } from '../files/file-checker';
import { type CatalogStore, COLLECTIONS, IsrcExhaustedError } from '../store/catalog-store';
import { submitRelease } from '../submit';

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
    if (err instanceof IsrcExhaustedError) throw new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, err.message);
    throw err;
  }
}

export function catalogHandlers(deps: {
  store: CatalogStore;
  files: FileChecker;
  /** Publishes what the outbox holds, right after a commit (its sweep covers a failure or a crash). */
  relay: () => void;
}): UnaryImpl<typeof catalog.CatalogServiceService> {
  const { store, files, relay } = deps;

  return {
    async describe() {
      return { service: 'catalog', version: '0.2.0', collections: Object.values(COLLECTIONS) };
    },

    async listPlatforms() {
      return { platforms: PLATFORMS.map((p) => ({ ...p })), preselected: [...PRESELECTED_KEYS] };
    },

    createRelease: (req) =>
      guarded(async () => {
        const ownerId = owner(req.ownerId);
        const input = parseReleaseInput(req);
        const { stores, unknown } = resolveStores(input.stores);
        if (unknown.length > 0)
          throw invalidArgument(
            `Unknown store ${unknown.map((k) => `"${k}"`).join(', ')}. Choose stores from the platform list.`,
          );
        const { release, artist, track } = await submitRelease(store, files, {
          ownerId,
          artistName: input.artistName,
          releaseTitle: input.releaseTitle,
          trackTitle: input.trackTitle,
          releaseType: input.releaseType,
          genre: input.genre,
          label: input.label,
          releaseDate: input.releaseDate,
          explicit: input.explicit,
          audio: input.audio,
          artwork: input.artwork,
          metadata: input.metadata,
          stores,
          source: 'artist-upload',
          announce: true,
        });
        relay();
        return { release: releaseToProto(release, artist, [track]) };
      }),

    submitSong: (req) =>
      guarded(async () => {
        const ownerId = owner(req.ownerId);
        const title = req.title.trim().slice(0, 200);
        const artistName = req.artistName.trim().slice(0, 200);
        if (!title || !artistName) throw invalidArgument(MESSAGES.songRequired);
        if (!hasFile(req.audio)) throw invalidArgument(MESSAGES.songAudio);
        let isrc: string | undefined;
        if (req.isrc.trim()) {
          isrc = normalizeIsrc(req.isrc);
          if (!isrc)
            throw invalidArgument(
              'ISRC must be 12 letters and digits like QZQDU2600001 (country, registrant, year, number); leave it blank to get one.',
            );
          if (await store.tracks.findOne({ isrc }))
            throw alreadyExists(`ISRC ${isrc} is already used by another track.`);
        }
        let upc: string | undefined;
        if (req.upc.trim()) {
          upc = req.upc.replace(/[\s-]/g, '');
          if (!isValidUpc(upc))
            throw invalidArgument(
              'UPC must be 12 to 14 digits ending in a valid check digit; leave it blank to get one.',
            );
          if (await store.releases.findOne({ upc }))
            throw alreadyExists(`UPC ${upc} is already used by another release.`);
        }
        const { release, artist, track } = await submitRelease(store, files, {
          ownerId,
          artistName,
          releaseTitle: title,
          trackTitle: title,
          releaseType: 'single',
          genre: DEFAULT_GENRE,
          label: '',
          releaseDate: null,
          explicit: false,
          audio: { bucket: req.audio.bucket.trim(), fileKey: req.audio.fileKey.trim() },
          artwork: null,
          metadata: emptyMetadata(),
          // A console submission has no cover art, which every store requires: it stays a draft and is
          // not announced to delivery until artwork is added (later work).
          stores: [],
          source: 'song-submission',
          isrc,
          upc,
          announce: false,
        });
        return { release: releaseToProto(release, artist, [track]), isrc: track.isrc };
      }),

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

    allocateIsrc: () => guarded(async () => ({ isrc: await store.allocateIsrc() })),
  };
}
