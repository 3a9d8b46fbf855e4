// Accepting a release: check both files with storage, find or create the artist, allocate the codes and
// write release + track (+ event) in one transaction. A UPC or allocated ISRC that turns out to be taken
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
  audio: FileRefDoc;
  artwork: FileRefDoc | null;
  source: ReleaseDoc['source'];
  /** Codes the person typed in (song submission); allocated when absent. */
  isrc?: string;
  upc?: string;
  /** Whether the release is announced to delivery (release.created) in the same transaction. */
  announce: boolean;
}

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

export async function submitRelease(store: CatalogStore, files: FileChecker, s: Submission) {
  const [audio, artwork] = await Promise.all([
    checkFile(files, 'audio', s.ownerId, s.audio),
    s.artwork ? checkFile(files, 'artwork', s.ownerId, s.artwork) : Promise.resolve(undefined),
  ]);
  const artist = await store.artistFor(s.ownerId, s.artistName);
  const inspection = audio.inspection!;
  const warnings = [
    ...inspection.warnings,
    ...(artwork?.inspection?.warnings ?? []),
    ...releaseWarnings([inspection.durationSeconds]),
  ];

  let upc = s.upc ?? generateUpc();
  let isrc = s.isrc ?? (await store.allocateIsrc());
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
      metadata: s.metadata,
      source: s.source,
      ...(warnings.length > 0 ? { warnings } : {}),
      createdAt,
    };
    const track: TrackDoc = {
      _id: randomUUID(),
      releaseId: release._id,
      artistId: artist._id,
      userId: s.ownerId,
      trackNumber: 1,
      title: s.trackTitle,
      isrc,
      audio: s.audio,
      audioUrl: audio.publicUrl,
      explicit: s.explicit,
      genre: s.genre,
      lyrics: s.metadata.content.lyrics,
      // Whole milliseconds are plenty; the stores want seconds.
      durationSeconds: Math.round(inspection.durationSeconds * 1000) / 1000,
      audioFormat: {
        format: inspection.format,
        sampleRate: inspection.sampleRate,
        bitDepth: inspection.bitDepth,
        channels: inspection.channels,
      },
      createdAt,
    };
    try {
      await store.createRelease(release, track, s.announce);
      return { release, artist, track };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      if (err.index === UPC_INDEX) {
        if (s.upc) throw alreadyExists(`UPC ${s.upc} is already used by another release.`);
        upc = generateUpc();
      } else if (err.index === ISRC_INDEX) {
        if (s.isrc) throw alreadyExists(`ISRC ${s.isrc} is already used by another track.`);
        isrc = await store.allocateIsrc();
      } else throw err;
      if (attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
