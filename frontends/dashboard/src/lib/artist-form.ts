// The /artist-upload form as the user types it (every field a string, so inputs stay controlled
// across tab switches), and its translation into the POST /api/releases body.
import { type CreateReleaseRequest, DEFAULT_GENRE, type FileRef, type ReleaseType } from '@omni/proto/api';

/** Spec section 9: the default primary genre (the API contract's, which catalog applies too). */
export { DEFAULT_GENRE };

export const GENRES = [
  'Hip-Hop/Rap',
  'R&B/Soul',
  'Pop',
  'Rock',
  'Alternative',
  'Electronic',
  'Dance',
  'Country',
  'Jazz',
  'Blues',
  'Classical',
  'Reggae',
  'Latin',
  'Afrobeats',
  'Gospel',
  'Folk',
  'Metal',
  'Soundtrack',
  "Children's Music",
  'World',
] as const;

/** The artist form's extra fields as the form and the release page name them (the API contract's). */
export { METADATA_LABELS } from '@omni/proto/api';

export interface ArtistFormValues {
  // Basic Info
  artistName: string;
  releaseTitle: string;
  trackTitle: string;
  releaseType: ReleaseType;
  genre: string;
  label: string;
  releaseDate: string;
  /** YYYY-MM-DD before the release date: stores take pre-orders from then (empty: none). */
  preOrderDate: string;
  /** An IANA time zone where the release starts at 00:00 everywhere at once; empty: local midnight. */
  releaseTimeZone: string;
  /** "Kai Stone, DJ Vale (remixer)": featured on the whole release, besides the main artist. */
  featuredArtists: string;
  /** ISO 639-1 of the titles and lyrics, e.g. en (empty: not said). */
  language: string;
  explicit: boolean;
  /** "CU, KP": countries where the release is not offered (empty: worldwide). */
  excludedTerritories: string;
  // Credits
  producers: string;
  writers: string;
  musicians: string;
  engineer: string;
  instruments: string;
  // Technical
  bpm: string;
  musicalKey: string;
  style: string;
  mood: string;
  recordedIn: string;
  masteringStudio: string;
  recordingDate: string;
  // Legal & IDs
  copyrightLine: string;
  publishingLine: string;
  pro: string;
  ipi: string;
  iswc: string;
  isni: string;
  // Content
  summary: string;
  lyrics: string;
}

export type TextField = {
  [K in keyof ArtistFormValues]: ArtistFormValues[K] extends string ? K : never;
}[keyof ArtistFormValues];

export const emptyArtistForm = (): ArtistFormValues => ({
  artistName: '',
  releaseTitle: '',
  trackTitle: '',
  releaseType: 'single',
  genre: DEFAULT_GENRE,
  label: '',
  releaseDate: '',
  preOrderDate: '',
  releaseTimeZone: '',
  featuredArtists: '',
  language: '',
  explicit: false,
  excludedTerritories: '',
  producers: '',
  writers: '',
  musicians: '',
  engineer: '',
  instruments: '',
  bpm: '',
  musicalKey: '',
  style: '',
  mood: '',
  recordedIn: '',
  masteringStudio: '',
  recordingDate: '',
  copyrightLine: '',
  publishingLine: '',
  pro: '',
  ipi: '',
  iswc: '',
  isni: '',
  summary: '',
  lyrics: '',
});

/** Spec section 5: artist name, release title and track title are required (genre has a default). */
export function hasRequiredFields(values: ArtistFormValues): boolean {
  return [values.artistName, values.releaseTitle, values.trackTitle, values.genre].every(
    (value) => value.trim() !== '',
  );
}

/** 'a, b,,c ' → ['a','b','c']; empty input → undefined so the field is left out. */
export function splitList(text: string): string[] | undefined {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

/** A track's featured artists as the forms write them: "Kai Stone, Mira Sol (remixer)". */
export function featuredArtistsText(artists: readonly { name: string; role: string }[]): string {
  return artists.map((a) => (a.role === 'remixer' ? `${a.name} (remixer)` : a.name)).join(', ');
}

/** "Kai Stone, Mira Sol (remixer)" → the API's featured artists with their roles. */
export function featuredArtistsFromText(text: string) {
  const remixer = /\s*\(remixer\)$/i;
  return (splitList(text) ?? []).map((s) =>
    remixer.test(s)
      ? { name: s.replace(remixer, ''), role: 'remixer' as const }
      : { name: s, role: 'featured' as const },
  );
}

/** A trimmed value, or undefined when blank (optional fields are omitted rather than sent empty). */
function optional(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Drops keys whose value is undefined, so the JSON carries only what the user filled in. */
function compact<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

export function toCreateReleaseRequest(
  values: ArtistFormValues,
  files: { audio: FileRef; artwork: FileRef },
  stores: string[],
): CreateReleaseRequest {
  const bpm = optional(values.bpm);
  const bpmNumber = bpm === undefined ? undefined : Number(bpm);
  return compact({
    artistName: values.artistName.trim(),
    releaseTitle: values.releaseTitle.trim(),
    trackTitle: values.trackTitle.trim(),
    releaseType: values.releaseType,
    genre: optional(values.genre) ?? DEFAULT_GENRE,
    label: optional(values.label),
    releaseDate: optional(values.releaseDate),
    preOrderDate: optional(values.preOrderDate),
    releaseTimeZone: optional(values.releaseTimeZone),
    featuredArtists: values.featuredArtists.trim()
      ? featuredArtistsFromText(values.featuredArtists)
      : undefined,
    language: optional(values.language)?.toLowerCase(),
    explicit: values.explicit,
    audio: files.audio,
    artwork: files.artwork,
    credits: compact({
      producers: splitList(values.producers),
      writers: splitList(values.writers),
      musicians: splitList(values.musicians),
      engineer: optional(values.engineer),
      instruments: optional(values.instruments),
    }),
    technical: compact({
      bpm: bpmNumber !== undefined && Number.isFinite(bpmNumber) ? bpmNumber : undefined,
      musicalKey: optional(values.musicalKey),
      style: optional(values.style),
      mood: optional(values.mood),
      recordedIn: optional(values.recordedIn),
      masteringStudio: optional(values.masteringStudio),
      recordingDate: optional(values.recordingDate),
    }),
    legal: compact({
      copyrightLine: optional(values.copyrightLine),
      publishingLine: optional(values.publishingLine),
      pro: optional(values.pro),
      ipi: optional(values.ipi),
      iswc: optional(values.iswc),
      isni: optional(values.isni),
    }),
    content: compact({ summary: optional(values.summary), lyrics: optional(values.lyrics) }),
    excludedTerritories: splitList(values.excludedTerritories)?.map((c) => c.toUpperCase()),
    stores,
  });
}
