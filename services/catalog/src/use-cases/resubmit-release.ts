// Fix and resubmit: the artist's corrected form replaces a rejected release's fields (the same rules as a
// new release: parseReleaseInput), a replaced file is judged again by storage (an unchanged one was judged
// when it was uploaded), and release + track + `release.resubmitted` commit together, so delivery reviews
// exactly what was written. Only the owner, and only a rejected release.
import { fail, invalidArgument } from '@omni/platform';
import type { catalog } from '@omni/proto';
import { DELIVERY_MESSAGES } from '@omni/proto/api';
import { type FileChecker, releaseWarnings } from '../domain/file-rules';
import { resolveStores } from '../domain/platforms';
import type { FileRefDoc, ReleaseDoc, TrackDoc } from '../domain/release';
import { parseReleaseInput } from '../domain/release-input';
import { snapshotOf } from '../domain/versions';
import type { CatalogStore } from '../store/catalog-store';
import { checkFile } from './submit-release';

const sameFile = (a: FileRefDoc | null, b: FileRefDoc) => a?.bucket === b.bucket && a.fileKey === b.fileKey;

export async function resubmitRelease(
  store: CatalogStore,
  files: FileChecker,
  ownerId: string,
  req: catalog.ResubmitReleaseRequest,
) {
  const found = req.releaseId ? await store.releaseWithParts(req.releaseId) : null;
  // Someone else's release answers exactly like a missing one.
  if (!found || found.release.userId !== ownerId) throw fail('release_not_found', 'No such release.');
  const { release: current, tracks } = found;
  const currentTrack = tracks[0];
  // Rejected by review, or by a store while the rest may be live (the store's reason says what to fix).
  if (!(current.status === 'rejected' || current.needsFix) || !currentTrack)
    throw fail('release_not_rejected', DELIVERY_MESSAGES.notRejected);

  // A file left unset keeps the current one; the stores left empty keep the current ones.
  const input = parseReleaseInput({
    ...req,
    // Resubmitting changes the first track's master and the release's fields (an album's other tracks
    // stay as they are until releases can be edited track by track).
    tracks: [],
    audio: req.audio ?? currentTrack.audio,
    artwork: req.artwork ?? current.artwork ?? undefined,
    stores: req.stores.length > 0 ? req.stores : current.stores,
    // The resubmit form does not show them: they stay as they are (an edit changes them).
    excludedTerritories: current.excludedTerritories ?? [],
    preOrderDate: current.preOrderDate ?? '',
    releaseTimeZone: current.releaseTimeZone ?? '',
    featuredArtists: current.featuredArtists ?? [],
    language: current.language ?? '',
  });
  const { stores, unknown } = resolveStores(input.stores);
  if (unknown.length > 0)
    throw invalidArgument(
      `Unknown store ${unknown.map((k) => `"${k}"`).join(', ')}. Choose stores from the platform list.`,
    );
  const newAudio = sameFile(currentTrack.audio, input.audio) ? null : input.audio;
  const newArtwork = sameFile(current.artwork, input.artwork) ? null : input.artwork;
  const [audio, artwork] = await Promise.all([
    newAudio ? checkFile(files, 'audio', ownerId, newAudio) : undefined,
    newArtwork ? checkFile(files, 'artwork', ownerId, newArtwork) : undefined,
  ]);
  const artist = await store.artistFor(ownerId, input.artistName);
  const inspection = audio?.inspection;
  const durationSeconds = inspection
    ? Math.round(inspection.durationSeconds * 1000) / 1000
    : currentTrack.durationSeconds;
  // The warnings are storage's and the release rules' about the files as they are now.
  const warnings = inspection
    ? [
        ...inspection.warnings,
        ...(artwork?.inspection?.warnings ?? []),
        // Every track's length (the first with its new master): an album is judged as the album it is.
        ...releaseWarnings(
          tracks.map((t, i) => (i === 0 ? durationSeconds : t.durationSeconds)),
          input.releaseType,
        ),
      ]
    : [...(current.warnings ?? []), ...(artwork?.inspection?.warnings ?? [])];

  const release: ReleaseDoc = {
    ...current,
    artistId: artist._id,
    title: input.releaseTitle,
    releaseType: input.releaseType,
    genre: input.genre,
    label: input.label,
    releaseDate: input.releaseDate,
    // Delivery answers with the review's status (delivery.updated); until then the artist sees it waiting.
    status: 'in_review',
    // Nothing to fix until delivery says so again (a store's rejection is cleared when it is resent).
    needsFix: false,
    artwork: input.artwork,
    artworkUrl: artwork?.publicUrl ?? current.artworkUrl,
    stores,
    metadata: input.metadata,
    warnings,
  };
  if (warnings.length === 0) delete release.warnings;
  const track: TrackDoc = {
    ...currentTrack,
    artistId: artist._id,
    title: input.trackTitle,
    explicit: input.explicit,
    genre: input.genre,
    lyrics: input.metadata.content.lyrics,
    audio: input.audio,
    audioUrl: audio?.publicUrl ?? currentTrack.audioUrl,
    durationSeconds,
    audioFormat: inspection
      ? {
          format: inspection.format,
          sampleRate: inspection.sampleRate,
          bitDepth: inspection.bitDepth,
          channels: inspection.channels,
        }
      : currentTrack.audioFormat,
  };
  const versions = {
    before: snapshotOf(current, found.artist?.name ?? '', tracks),
    after: snapshotOf(
      release,
      artist.name,
      tracks.map((t) => (t._id === track._id ? track : t)),
    ),
  };
  if (!(await store.resubmitRelease(release, track, versions)))
    throw fail('release_not_rejected', DELIVERY_MESSAGES.notRejected);
  return { release, artist, track };
}
