// A release's versions: what the artist submitted each time (created, resubmitted, edited), kept as an
// immutable snapshot of the fields stores receive, and what changed from the version before, in words
// the artist and the reviewing admin read ("Track 5 title").
import type { Doc } from '@omni/platform';
import type { catalog } from '@omni/proto';
import { METADATA_LABELS } from '@omni/proto/api';
import type { ReleaseDoc, TrackDoc } from './release';

export type VersionKind = 'created' | 'resubmitted' | 'edited';

/** The fields of one track a store receives, as submitted. */
export interface TrackSnapshot {
  trackNumber: number;
  discNumber: number;
  title: string;
  isrc: string;
  explicit: boolean;
  durationSeconds: number;
  audio: { bucket: string; fileKey: string };
  audioFormat: TrackDoc['audioFormat'];
  lyrics: string;
  language: string;
  credits: catalog.Credits | null;
  featuredArtists: Array<{ name: string; role: string }>;
}

export interface ReleaseSnapshot {
  artistName: string;
  title: string;
  releaseType: string;
  genre: string;
  label: string;
  releaseDate: string | null;
  upc: string;
  artwork: { bucket: string; fileKey: string } | null;
  stores: string[];
  excludedTerritories?: string[];
  preOrderDate?: string | null;
  releaseTimeZone?: string;
  featuredArtists?: ReleaseDoc['featuredArtists'];
  language?: string;
  metadata: ReleaseDoc['metadata'];
  tracks: TrackSnapshot[];
}

export interface VersionChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

export interface VersionDoc extends Doc {
  releaseId: string;
  userId: string;
  version: number;
  kind: VersionKind;
  createdAt: string;
  snapshot: ReleaseSnapshot;
  changes: VersionChange[];
}

export const versionId = (releaseId: string, version: number) => `${releaseId}:v${version}`;

export function snapshotOf(release: ReleaseDoc, artistName: string, tracks: TrackDoc[]): ReleaseSnapshot {
  return {
    artistName,
    title: release.title,
    releaseType: release.releaseType,
    genre: release.genre,
    label: release.label,
    releaseDate: release.releaseDate,
    upc: release.upc,
    artwork: release.artwork ? { bucket: release.artwork.bucket, fileKey: release.artwork.fileKey } : null,
    stores: [...release.stores],
    excludedTerritories: [...(release.excludedTerritories ?? [])],
    preOrderDate: release.preOrderDate ?? null,
    releaseTimeZone: release.releaseTimeZone ?? '',
    featuredArtists: (release.featuredArtists ?? []).map((a) => ({ ...a })),
    language: release.language ?? '',
    metadata: structuredClone(release.metadata),
    tracks: [...tracks]
      .sort((a, b) => a.trackNumber - b.trackNumber)
      .map((t) => ({
        trackNumber: t.trackNumber,
        discNumber: t.discNumber ?? 1,
        title: t.title,
        isrc: t.isrc,
        explicit: t.explicit,
        durationSeconds: t.durationSeconds,
        audio: { bucket: t.audio.bucket, fileKey: t.audio.fileKey },
        audioFormat: t.audioFormat,
        lyrics: t.lyrics ?? '',
        language: t.language ?? '',
        credits: t.credits ? structuredClone(t.credits) : null,
        featuredArtists: (t.featuredArtists ?? []).map((a) => ({ name: a.name, role: a.role })),
      })),
  };
}

/** Words for the fields a person edits; anything else is named by its path. */
const LABELS: Record<string, string> = {
  artistName: 'Artist name',
  title: 'Release title',
  releaseType: 'Release type',
  genre: 'Genre',
  label: 'Label',
  releaseDate: 'Release date',
  upc: 'UPC',
  artwork: 'Cover art',
  stores: 'Stores',
  excludedTerritories: 'Excluded territories',
  preOrderDate: 'Pre-order date',
  releaseTimeZone: 'Release time zone',
  featuredArtists: 'Featured artists',
  language: 'Language',
  'metadata.credits': 'Credits',
  'metadata.technical': 'Technical details',
  'metadata.legal': 'Legal & IDs',
  'metadata.content': 'Content',
};
const TRACK_LABELS: Record<string, string> = {
  title: 'title',
  isrc: 'ISRC',
  explicit: 'explicit flag',
  audio: 'master file',
  lyrics: 'lyrics',
  language: 'lyrics language',
  credits: 'credits',
  featuredArtists: 'featured artists',
  discNumber: 'disc',
};

const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  if (Array.isArray(value))
    return value
      .map((v) => (v && typeof v === 'object' && 'name' in v ? `${v.name} (${v.role})` : JSON.stringify(v)))
      .join(', ');
  if (typeof value === 'object' && value && 'fileKey' in value)
    return String((value as { fileKey: string }).fileKey);
  return JSON.stringify(value);
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What differs from `before` to `after`, release fields first, then track by track. */
export function changesBetween(before: ReleaseSnapshot | null, after: ReleaseSnapshot): VersionChange[] {
  if (!before) return [];
  // A version written before territories were kept was worldwide.
  // A version written before territories, pre-orders and time zones were kept had none of them.
  const filled = (s: ReleaseSnapshot) => ({
    ...s,
    excludedTerritories: s.excludedTerritories ?? [],
    preOrderDate: s.preOrderDate ?? null,
    releaseTimeZone: s.releaseTimeZone ?? '',
    featuredArtists: s.featuredArtists ?? [],
    language: s.language ?? '',
  });
  before = filled(before);
  after = filled(after);
  const changes: VersionChange[] = [];
  for (const field of [
    'artistName',
    'title',
    'releaseType',
    'genre',
    'label',
    'releaseDate',
    'upc',
    'artwork',
    'stores',
    'excludedTerritories',
    'preOrderDate',
    'releaseTimeZone',
    'featuredArtists',
    'language',
  ] as const) {
    if (!same(before[field], after[field]))
      changes.push({
        field,
        label: LABELS[field]!,
        before: shown(before[field]),
        after: shown(after[field]),
      });
  }
  for (const section of ['credits', 'technical', 'legal', 'content'] as const) {
    const a = before.metadata[section] as unknown as Record<string, unknown>;
    const b = after.metadata[section] as unknown as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
      if (same(a?.[key], b?.[key])) continue;
      const field = `metadata.${section}.${key}`;
      changes.push({
        field,
        label: `${LABELS[`metadata.${section}`]}: ${METADATA_LABELS[key] ?? key}`,
        before: shown(a?.[key]),
        after: shown(b?.[key]),
      });
    }
  }
  const count = Math.max(before.tracks.length, after.tracks.length);
  for (let i = 0; i < count; i++) {
    const a = before.tracks[i];
    const b = after.tracks[i];
    if (!a || !b) {
      changes.push({
        field: `tracks.${i + 1}`,
        label: `Track ${i + 1}`,
        before: a?.title ?? '',
        after: b?.title ?? '',
      });
      continue;
    }
    for (const key of Object.keys(TRACK_LABELS) as Array<keyof TrackSnapshot>) {
      if (same(a[key], b[key])) continue;
      changes.push({
        field: `tracks.${i + 1}.${key}`,
        label: `Track ${i + 1} ${TRACK_LABELS[key]}`,
        before: shown(a[key]),
        after: shown(b[key]),
      });
    }
  }
  return changes;
}

export function versionToProto(v: VersionDoc): catalog.ReleaseVersion {
  return {
    version: v.version,
    kind: v.kind,
    createdAt: v.createdAt,
    changes: v.changes.map((c) => ({ ...c })),
  };
}
