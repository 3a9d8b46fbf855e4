// Accepting a release: check both files with storage, find or create the artist, allocate the codes and
// write release + tracks (+ event) in one transaction. A UPC or allocated ISRC that turns out to be taken
// (random UPC collision, or an ISRC someone typed in by hand) is replaced and the write retried.
import { randomUUID } from 'node:crypto';
import { alreadyExists, DuplicateKeyError, invalidArgument } from '@omni/platform';
import { generateUpc } from '../domain/codes';
import {
  type FileChecker,
  type FileInfo,
  type FileRole,
  fileProblem,
  releaseWarnings,
} from '../domain/file-rules';
import type { FileRefDoc, ReleaseDoc, TrackDoc } from '../domain/release';
import type { ReleaseInput } from '../domain/release-input';
import { type CatalogStore, ISRC_INDEX, UPC_INDEX } from '../store/catalog-store';

const MAX_ATTEMPTS = 5;

/** A release input (the artist form's fields, parsed) with what the caller adds: whose it is, where from. */
export interface Submission extends Omit<ReleaseInput, 'audio' | 'artwork'> {
  ownerId: string;
  artwork: FileRefDoc | null;
  source: ReleaseDoc['source'];
  /** A UPC the person typed in (song submission); allocated when absent. */
  upc?: string;
  /** Whether the release is announced to delivery (release.created) in the same transaction. */
  announce: boolean;
}

/** Masters checked with storage at once at most (an album of 100 must not open 100 inspections). */
const CHECKS_AT_ONCE = 8;

export async function checkFile(
  files: FileChecker,
  role: FileRole,
  ownerId: string,
  ref: FileRefDoc,
): Promise<FileInfo> {
  const info = await files.info(ownerId, ref.bucket, ref.fileKey, role);
  const problem = fileProblem(role, info, ownerId);
  if (problem) throw invalidArgument(problem);
  return info;
}

/** Each track's master judged by storage, a few at a time, in track order; the first refusal names its track. */
async function checkMasters(files: FileChecker, s: Submission): Promise<FileInfo[]> {
  const out: FileInfo[] = new Array(s.tracks.length);
  let next = 0;
  const worker = async () => {
    while (next < s.tracks.length) {
      const i = next++;
      const track = s.tracks[i]!;
      try {
        out[i] = await checkFile(files, 'audio', s.ownerId, track.audio);
      } catch (err) {
        if (s.tracks.length > 1 && err instanceof Error)
          err.message = `Track ${i + 1} ("${track.title}"): ${err.message}`;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, s.tracks.length) }, worker));
  return out;
}

export async function submitRelease(store: CatalogStore, files: FileChecker, s: Submission) {
  const [masters, artwork] = await Promise.all([
    checkMasters(files, s),
    s.artwork ? checkFile(files, 'artwork', s.ownerId, s.artwork) : Promise.resolve(undefined),
  ]);
  const artist = await store.artistFor(s.ownerId, s.artistName);
  const inspections = masters.map((m) => m.inspection!);
  const warnings = [
    ...new Set([
      ...inspections.flatMap((inspection, i) =>
        inspection.warnings.map((w) => (s.tracks.length > 1 ? `Track ${i + 1}: ${w}` : w)),
      ),
      ...(artwork?.inspection?.warnings ?? []),
      ...releaseWarnings(
        inspections.map((i) => i.durationSeconds),
        s.releaseType,
      ),
    ]),
  ];

  let upc = s.upc ?? generateUpc();
  const isrcs: string[] = [];
  for (const t of s.tracks) isrcs.push(t.isrc || (await store.allocateIsrc()));
  for (let attempt = 1; ; attempt++) {
    const createdAt = new Date().toISOString();
    const release: ReleaseDoc = {
      _id: randomUUID(),
      userId: s.ownerId,
      artistId: artist._id,
      title: s.releaseTitle,
      releaseType: s.releaseType,
      genre: s.genre,
      label: s.label,
      releaseDate: s.releaseDate,
      upc,
      status: 'draft',
      artwork: s.artwork,
      artworkUrl: artwork?.publicUrl ?? '',
      stores: s.stores,
      ...(s.excludedTerritories.length > 0 ? { excludedTerritories: s.excludedTerritories } : {}),
      ...(s.preOrderDate ? { preOrderDate: s.preOrderDate } : {}),
      ...(s.releaseTimeZone ? { releaseTimeZone: s.releaseTimeZone } : {}),
      ...(s.featuredArtists.length > 0 ? { featuredArtists: s.featuredArtists } : {}),
      ...(s.language ? { language: s.language } : {}),
      metadata: s.metadata,
      source: s.source,
      ...(warnings.length > 0 ? { warnings } : {}),
      createdAt,
    };
    const tracks = s.tracks.map((t, i): TrackDoc => {
      const inspection = inspections[i]!;
      return {
        _id: randomUUID(),
        releaseId: release._id,
        artistId: artist._id,
        userId: s.ownerId,
        trackNumber: i + 1,
        title: t.title,
        isrc: isrcs[i]!,
        audio: t.audio,
        audioUrl: masters[i]!.publicUrl,
        explicit: t.explicit,
        genre: s.genre,
        lyrics: t.lyrics,
        // Whole milliseconds are plenty; the stores want seconds.
        durationSeconds: Math.round(inspection.durationSeconds * 1000) / 1000,
        audioFormat: {
          format: inspection.format,
          sampleRate: inspection.sampleRate,
          bitDepth: inspection.bitDepth,
          channels: inspection.channels,
        },
        credits: t.credits,
        featuredArtists: t.featuredArtists,
        discNumber: t.discNumber,
        language: t.language,
        createdAt,
      };
    });
    try {
      await store.createRelease(release, tracks, s.announce, artist.name);
      return { release, artist, tracks };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      if (err.index === UPC_INDEX) {
        if (s.upc) throw alreadyExists(`UPC ${s.upc} is already used by another release.`);
        upc = generateUpc();
      } else if (err.index === ISRC_INDEX) {
        // Which ISRC is taken the error does not say: a typed one is looked up, allocated ones are replaced.
        for (const [i, t] of s.tracks.entries()) {
          if (t.isrc && (await store.isrcInUse(t.isrc)))
            throw alreadyExists(
              `ISRC ${t.isrc}${s.tracks.length > 1 ? ` (track ${i + 1})` : ''} is already used by another track.`,
            );
        }
        for (const [i, t] of s.tracks.entries()) {
          if (!t.isrc && (await store.isrcInUse(isrcs[i]!))) isrcs[i] = await store.allocateIsrc();
        }
      } else throw err;
      if (attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
