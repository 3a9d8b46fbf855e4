// Releases, their tracks and artists as catalog stores them, and how they read over gRPC. A release is
// created as a draft (spec §3); every field of the artist form is kept under `metadata`, not dropped.
import type { Doc } from '@omni/platform';
import { catalog } from '@omni/proto';

// The release types and the default genre are the API contract's: the form offers and sends the same.
import type { ReleaseStatus, ReleaseType } from '@omni/proto/api';

export { DEFAULT_GENRE, RELEASE_TYPES, type ReleaseType } from '@omni/proto/api';

export interface FileRefDoc {
  bucket: string;
  fileKey: string;
}

/** The artist form's extra fields as stored: the gRPC sections as they are, BPM null when not given. */
export interface MetadataDoc {
  credits: catalog.Credits;
  technical: Omit<catalog.Technical, 'bpm'> & { bpm: number | null };
  legal: catalog.Legal;
  content: catalog.Content;
}

export interface ArtistDoc extends Doc {
  userId: string;
  name: string;
  createdAt: string;
}

export interface ReleaseDoc extends Doc {
  userId: string;
  artistId: string;
  title: string;
  releaseType: ReleaseType;
  genre: string;
  label: string;
  releaseDate: string | null;
  upc: string;
  /** 'draft' at creation; then as delivery reports it (delivery.updated). */
  status: ReleaseStatus;
  /** The `version` of the delivery.updated event that set `status` (absent before the first). */
  statusVersion?: number;
  /** Stores whose last word was a rejection (delivery.updated), so the artist may fix and resubmit. */
  rejectedStores?: string[];
  /**
   * Whether the artist may fix and resubmit: the review rejected the release, or a store did while the
   * release is not waiting for review. Kept with the status so the resubmission's conditional write
   * needs no array query.
   */
  needsFix?: boolean;
  /** Set once any store was sent the release: its ISRCs, UPC and track list are the stores' now. */
  reachedStores?: boolean;
  artwork: FileRefDoc | null;
  artworkUrl: string;
  stores: string[];
  /** ISO 3166-1 alpha-2 codes where it is not offered; absent or empty: worldwide. */
  excludedTerritories?: string[];
  /** YYYY-MM-DD before the release date: stores take pre-orders from then. Absent or null: none. */
  preOrderDate?: string | null;
  /** IANA time zone where the release starts at 00:00 everywhere at once; absent or '': local midnight. */
  releaseTimeZone?: string;
  /** Featured besides the main artist, release-wide (tracks may name their own). */
  featuredArtists?: TrackArtistDoc[];
  /** ISO 639-1 of the titles and lyrics; absent or '': not said. */
  language?: string;
  metadata: MetadataDoc;
  /** Which form created it: the artist upload or the uploader's song submission. */
  source: 'artist-upload' | 'song-submission';
  /** What some stores may refuse (storage's file warnings and the release rules); accepted regardless. */
  warnings?: string[];
  createdAt: string;
}

export interface TrackDoc extends Doc {
  releaseId: string;
  artistId: string;
  userId: string;
  trackNumber: number;
  title: string;
  isrc: string;
  audio: FileRefDoc;
  audioUrl: string;
  explicit: boolean;
  genre: string;
  lyrics: string;
  durationSeconds: number;
  /** What storage found in the bytes, kept for delivery packaging. */
  audioFormat: { format: string; sampleRate: number; bitDepth: number; channels: number };
  /** The track's own credits; absent (releases before albums) or empty: the release's credits apply. */
  credits?: catalog.Credits;
  featuredArtists?: TrackArtistDoc[];
  /** 1 unless the release has more than one disc. */
  discNumber?: number;
  /** ISO 639-1 of the lyrics, or empty. */
  language?: string;
  createdAt: string;
}

export interface TrackArtistDoc {
  name: string;
  role: 'featured' | 'remixer';
}

export function emptyMetadata(): MetadataDoc {
  return {
    credits: catalog.Credits.fromPartial({}),
    technical: { ...catalog.Technical.fromPartial({}), bpm: null },
    legal: catalog.Legal.fromPartial({}),
    content: catalog.Content.fromPartial({}),
  };
}

export function metadataToProto(m: MetadataDoc): catalog.ReleaseMetadata {
  return {
    credits: { ...m.credits },
    technical: { ...m.technical, bpm: m.technical.bpm ?? undefined },
    legal: { ...m.legal },
    content: { ...m.content },
  };
}

export function trackToProto(t: TrackDoc): catalog.Track {
  return {
    id: t._id,
    trackNumber: t.trackNumber,
    title: t.title,
    isrc: t.isrc,
    durationSeconds: t.durationSeconds,
    explicit: t.explicit,
    genre: t.genre,
    audioUrl: t.audioUrl,
    audio: { bucket: t.audio.bucket, fileKey: t.audio.fileKey },
    // Delivery's store checks and packaging read what storage found in the master.
    audioFormat: t.audioFormat ? { ...t.audioFormat } : undefined,
    credits: catalog.Credits.fromPartial(t.credits ?? {}),
    featuredArtists: (t.featuredArtists ?? []).map((a) => ({ ...a })),
    discNumber: t.discNumber ?? 1,
    language: t.language ?? '',
    lyrics: t.lyrics ?? '',
  };
}

export function releaseToProto(r: ReleaseDoc, artist: ArtistDoc | null, tracks: TrackDoc[]): catalog.Release {
  return {
    id: r._id,
    ownerId: r.userId,
    title: r.title,
    releaseType: r.releaseType,
    genre: r.genre,
    label: r.label,
    releaseDate: r.releaseDate ?? '',
    status: r.status,
    upc: r.upc,
    artworkUrl: r.artworkUrl,
    artwork: r.artwork ? { ...r.artwork } : undefined,
    artist: { id: r.artistId, name: artist?.name ?? '' },
    tracks: [...tracks].sort((a, b) => a.trackNumber - b.trackNumber).map(trackToProto),
    metadata: metadataToProto(r.metadata),
    stores: r.stores,
    createdAt: r.createdAt,
    warnings: r.warnings ?? [],
    excludedTerritories: r.excludedTerritories ?? [],
    preOrderDate: r.preOrderDate ?? '',
    releaseTimeZone: r.releaseTimeZone ?? '',
    featuredArtists: (r.featuredArtists ?? []).map((a) => ({ ...a })),
    language: r.language ?? '',
  };
}
