// PATCH /api/releases/:id: the fields given replace the release's, the rest stay. The merged release goes
// through the same rules as a new one (parseReleaseInput), so an edit can never store what a submission
// could not. A release that has reached stores keeps what they identify it by: its ISRCs, UPC and track
// list (DDEX has no update message; a store matches the complete NewReleaseMessage sent again by those).
// Every edit that changes something makes a version and goes back to review (release.resubmitted);
// delivery sends the approved version to every store that has the release.
import { fail, invalidArgument } from '@omni/platform';
import { catalog } from '@omni/proto';
import { RELEASE_MESSAGES } from '@omni/proto/api';
import type { ReleaseDoc, TrackDoc } from '../domain/release';
import { parseReleaseInput } from '../domain/release-input';
import { changesBetween, snapshotOf, type VersionDoc } from '../domain/versions';
import type { CatalogStore } from '../store/catalog-store';

/** Whether the release has been (or is being) sent to stores: its identifiers are theirs now. */
export const reachedStores = (r: ReleaseDoc) =>
  r.reachedStores === true || r.status === 'delivering' || r.status === 'live' || r.status === 'taken_down';

export interface EditOutcome {
  release: ReleaseDoc;
  artistName: string;
  tracks: TrackDoc[];
  version: VersionDoc | null;
}

export async function editRelease(
  store: CatalogStore,
  ownerId: string,
  req: catalog.EditReleaseRequest,
): Promise<EditOutcome> {
  const found = req.releaseId ? await store.releaseWithParts(req.releaseId) : null;
  // Someone else's release answers exactly like a missing one.
  if (!found || found.release.userId !== ownerId) throw fail('release_not_found', 'No such release.');
  const { release: current, tracks } = found;
  const artistName = found.artist?.name ?? '';
  if (current.status === 'taken_down') throw fail('release_taken_down', RELEASE_MESSAGES.editTakenDown);
  if (req.tracks.length > 0 && req.tracks.length !== tracks.length)
    throw invalidArgument(RELEASE_MESSAGES.editTrackCount(tracks.length));

  const given = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
  const input = parseReleaseInput(
    catalog.CreateReleaseRequest.fromPartial({
      ownerId,
      artistName: given(req.artistName, artistName),
      releaseTitle: given(req.releaseTitle, current.title),
      releaseType: given(req.releaseType, current.releaseType),
      genre: given(req.genre, current.genre),
      label: given(req.label, current.label),
      releaseDate: given(req.releaseDate, current.releaseDate ?? ''),
      preOrderDate: given(req.preOrderDate, current.preOrderDate ?? ''),
      releaseTimeZone: given(req.releaseTimeZone, current.releaseTimeZone ?? ''),
      featuredArtists: req.featuredArtistsGiven ? req.featuredArtists : (current.featuredArtists ?? []),
      language: given(req.language, current.language ?? ''),
      artwork: current.artwork ?? undefined,
      metadata: {
        credits: given(req.credits, current.metadata.credits),
        technical: req.technical ?? {
          ...current.metadata.technical,
          bpm: current.metadata.technical.bpm ?? undefined,
        },
        legal: given(req.legal, current.metadata.legal),
        content: given(req.content, current.metadata.content),
      },
      stores: current.stores,
      excludedTerritories: req.excludedTerritoriesGiven
        ? req.excludedTerritories
        : (current.excludedTerritories ?? []),
      tracks: tracks.map((t, i) => {
        const edit = req.tracks[i];
        return {
          title: given(edit?.title, t.title),
          audio: t.audio,
          isrc: given(edit?.isrc, t.isrc),
          explicit: given(edit?.explicit, t.explicit),
          credits: given(edit?.credits, t.credits ?? catalog.Credits.fromPartial({})),
          lyrics: given(edit?.lyrics, t.lyrics ?? ''),
          featuredArtists: edit?.featuredArtistsGiven ? edit.featuredArtists : (t.featuredArtists ?? []),
          language: given(edit?.language, t.language ?? ''),
          discNumber: t.discNumber ?? 1,
        };
      }),
    }),
  );

  const delivered = reachedStores(current);
  if (delivered) {
    for (const [i, t] of input.tracks.entries()) {
      if (t.isrc !== tracks[i]!.isrc) throw invalidArgument(RELEASE_MESSAGES.isrcLocked(i + 1));
    }
  }
  // A cleared ISRC on a release no store has seen is allocated again, as at creation.
  const isrcs = await Promise.all(
    input.tracks.map(async (t, i) => {
      if (t.isrc === tracks[i]!.isrc) return t.isrc;
      if (!t.isrc) return store.allocateIsrc();
      if (await store.isrcInUse(t.isrc))
        throw invalidArgument(`Track ${i + 1}: ISRC ${t.isrc} is already used by another recording.`);
      return t.isrc;
    }),
  );
  const artist = await store.artistFor(ownerId, input.artistName);
  const edited: TrackDoc[] = tracks.map((t, i) => {
    const next = input.tracks[i]!;
    const track: TrackDoc = {
      ...t,
      artistId: artist._id,
      title: next.title,
      isrc: isrcs[i]!,
      explicit: next.explicit,
      genre: input.genre,
      lyrics: next.lyrics,
      credits: next.credits,
      featuredArtists: next.featuredArtists,
      language: next.language,
    };
    return track;
  });
  const release: ReleaseDoc = {
    ...current,
    artistId: artist._id,
    title: input.releaseTitle,
    releaseType: input.releaseType,
    genre: input.genre,
    label: input.label,
    releaseDate: input.releaseDate,
    metadata: input.metadata,
    excludedTerritories: input.excludedTerritories,
    preOrderDate: input.preOrderDate,
    releaseTimeZone: input.releaseTimeZone,
    featuredArtists: input.featuredArtists,
    language: input.language,
    // Delivery answers with the review's status (delivery.updated); until then the artist sees it waiting.
    status: 'in_review',
    needsFix: false,
  };
  const before = snapshotOf(current, artistName, tracks);
  const after = snapshotOf(release, artist.name, edited);
  // Nothing differs: no version, no review; the release stays as it was.
  if (changesBetween(before, after).length === 0)
    return { release: current, artistName, tracks, version: null };
  const changed = edited.filter((t, i) => JSON.stringify(t) !== JSON.stringify(tracks[i]));
  const version = await store.editRelease(release, changed, { before, after });
  return { release, artistName: artist.name, tracks: edited, version };
}
