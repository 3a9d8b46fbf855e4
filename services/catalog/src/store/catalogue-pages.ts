// An owner's whole catalogue, one page of tracks at a time (catalog's ListCatalogueTracks, read by the
// Finder's scan). Order: release createdAt, release id, track number — stable, since none of them changes
// after creation. The cursor names the last track handed out, so a page reads only the releases from there
// on (at most limit + 1 of them, each with at least one track) and their tracks: a page costs the same on a
// 10-track and a 100,000-track catalogue, and nothing holds the catalogue in memory between pages.
import type { Collection, Filter } from '@omni/platform';
import type { ReleaseDoc, TrackDoc } from '../domain/release';

export interface CataloguePosition {
  /** The release's createdAt and id, and the number of the last track of it already handed out. */
  createdAt: string;
  releaseId: string;
  trackNumber: number;
}

export interface CataloguePage {
  tracks: Array<{ release: ReleaseDoc; track: TrackDoc }>;
  /** Where the next page starts; null on the last page. */
  next: CataloguePosition | null;
}

export class CursorError extends Error {
  override name = 'CursorError';
}

/** The opaque cursor: the position as base64url JSON (a caller passes back what it was given). */
export function encodeCursor(position: CataloguePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.releaseId, position.trackNumber])).toString(
    'base64url',
  );
}

export function decodeCursor(cursor: string): CataloguePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      Number.isInteger(value[2])
    )
      return { createdAt: value[0], releaseId: value[1], trackNumber: value[2] };
  } catch {
    // falls through to the refusal below
  }
  throw new CursorError('The cursor is not one this service gave out; start again from the first page.');
}

export async function readCataloguePage(
  releases: Collection<ReleaseDoc>,
  tracks: Collection<TrackDoc>,
  ownerId: string,
  after: CataloguePosition | null,
  limit: number,
): Promise<CataloguePage> {
  const filter: Filter = after
    ? {
        userId: ownerId,
        $or: [
          { createdAt: { $gt: after.createdAt } },
          { createdAt: after.createdAt, _id: { $gte: after.releaseId } },
        ],
      }
    : { userId: ownerId };
  // limit + 1 releases: every release has a track, so more than `limit` tracks come back whenever more exist.
  const page = await releases.find(filter, { sort: { createdAt: 1, _id: 1 }, limit: limit + 1 });
  if (page.length === 0) return { tracks: [], next: null };
  const byRelease = new Map<string, TrackDoc[]>(page.map((r) => [r._id, []]));
  for (const track of await tracks.find({ releaseId: { $in: page.map((r) => r._id) } }))
    byRelease.get(track.releaseId)?.push(track);
  const ordered: Array<{ release: ReleaseDoc; track: TrackDoc }> = [];
  for (const release of page) {
    const own = byRelease.get(release._id)!.sort((a, b) => a.trackNumber - b.trackNumber);
    for (const track of own) {
      // The release the previous page stopped inside: skip the tracks already handed out.
      if (after && release._id === after.releaseId && track.trackNumber <= after.trackNumber) continue;
      ordered.push({ release, track });
    }
  }
  const handed = ordered.slice(0, limit);
  const last = handed.at(-1);
  const more = ordered.length > limit || page.length > limit;
  if (!more) return { tracks: handed, next: null };
  if (!last) {
    // Only track-less releases in this window (none exist today): step past them.
    const lastRelease = page[page.length - 2] ?? page[0]!;
    return {
      tracks: [],
      next: {
        createdAt: lastRelease.createdAt,
        releaseId: lastRelease._id,
        trackNumber: Number.MAX_SAFE_INTEGER,
      },
    };
  }
  return {
    tracks: handed,
    next: {
      createdAt: last.release.createdAt,
      releaseId: last.release._id,
      trackNumber: last.track.trackNumber,
    },
  };
}
