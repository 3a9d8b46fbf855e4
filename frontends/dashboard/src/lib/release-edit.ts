// The release page's editor state: the release's fields as the /artist-upload form types them, its tracks
// as rows, and the PATCH body that carries only what the artist changed (the API replaces a section —
// credits, technical, legal, content — whole, so a changed section is sent with all its fields).
import type { EditReleaseRequest } from '@omni/proto/api';
import {
  type ArtistFormValues,
  DEFAULT_GENRE,
  emptyArtistForm,
  featuredArtistsFromText,
  featuredArtistsText,
  splitList,
} from './artist-form';
import { RELEASE_TYPES, type Release, type ReleaseType } from './releases-api';

/** The editor's tabs, as /artist-upload names them; a deep link (?edit=<tab>&track=<n>) opens one. */
export const EDIT_TABS = ['basic', 'credits', 'technical', 'legal', 'content'] as const;
export type EditTab = (typeof EDIT_TABS)[number];
export const EDIT_TAB_LABELS: Record<EditTab, string> = {
  basic: 'Basic Info',
  credits: 'Credits',
  technical: 'Technical',
  legal: 'Legal & IDs',
  content: 'Content',
};

/** "Credits" (as the Finder says it) or "credits" → the tab; anything else → Basic Info. */
export function editTabOf(name: string | null): EditTab {
  const wanted = (name ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return (
    EDIT_TABS.find(
      (t) => t === wanted || EDIT_TAB_LABELS[t].toLowerCase().replace(/[^a-z]/g, '') === wanted,
    ) ?? 'basic'
  );
}

export interface TrackRow {
  title: string;
  isrc: string;
  explicit: boolean;
  /** "Kai Stone, Mira Sol (remixer)": names, a remixer marked as such. */
  featured: string;
  language: string;
  lyrics: string;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const joined = (v: unknown) => (Array.isArray(v) ? v.join(', ') : str(v));

export function formValuesOf(release: Release): ArtistFormValues {
  const { credits, technical, legal, content } = release.metadata;
  return {
    ...emptyArtistForm(),
    artistName: release.artist.name,
    releaseTitle: release.title,
    trackTitle: release.tracks[0]?.title ?? '',
    releaseType: (RELEASE_TYPES as readonly string[]).includes(release.releaseType)
      ? (release.releaseType as ReleaseType)
      : 'single',
    genre: release.genre || DEFAULT_GENRE,
    label: release.label ?? '',
    releaseDate: release.releaseDate ?? '',
    preOrderDate: release.preOrderDate ?? '',
    releaseTimeZone: release.releaseTimeZone ?? '',
    featuredArtists: featuredArtistsText(release.featuredArtists),
    language: release.language ?? '',
    excludedTerritories: release.excludedTerritories.join(', '),
    producers: joined(credits.producers),
    writers: joined(credits.writers),
    musicians: joined(credits.musicians),
    engineer: str(credits.engineer),
    instruments: str(credits.instruments),
    bpm: str(technical.bpm),
    musicalKey: str(technical.musicalKey),
    style: str(technical.style),
    mood: str(technical.mood),
    recordedIn: str(technical.recordedIn),
    masteringStudio: str(technical.masteringStudio),
    recordingDate: str(technical.recordingDate),
    copyrightLine: str(legal.copyrightLine),
    publishingLine: str(legal.publishingLine),
    pro: str(legal.pro),
    ipi: str(legal.ipi),
    iswc: str(legal.iswc),
    isni: str(legal.isni),
    summary: str(content.summary),
    lyrics: str(content.lyrics),
  };
}

export const trackRowsOf = (release: Release): TrackRow[] =>
  release.tracks.map((t) => ({
    title: t.title,
    isrc: t.isrc,
    explicit: t.explicit,
    featured: featuredArtistsText(t.featuredArtists),
    language: t.language,
    lyrics: t.lyrics,
  }));

const SECTIONS = {
  credits: ['producers', 'writers', 'musicians', 'engineer', 'instruments'],
  technical: ['bpm', 'musicalKey', 'style', 'mood', 'recordedIn', 'masteringStudio', 'recordingDate'],
  legal: ['copyrightLine', 'publishingLine', 'pro', 'ipi', 'iswc', 'isni'],
  content: ['summary', 'lyrics'],
} as const;
const LISTS = new Set(['producers', 'writers', 'musicians']);

function section(values: ArtistFormValues, name: keyof typeof SECTIONS): Record<string, unknown> {
  return Object.fromEntries(
    SECTIONS[name].map((field) => {
      const value = values[field].trim();
      if (LISTS.has(field)) return [field, splitList(value) ?? []];
      if (field === 'bpm') return [field, value === '' ? null : Number(value)];
      return [field, value];
    }),
  );
}

/** What the artist changed, as PATCH /api/releases/:id takes it; `{}` when nothing did. */
export function editRequestOf(
  release: Release,
  values: ArtistFormValues,
  rows: TrackRow[],
): EditReleaseRequest {
  const before = formValuesOf(release);
  const request: EditReleaseRequest = {};
  const changed = (field: keyof ArtistFormValues) =>
    String(values[field]).trim() !== String(before[field]).trim();
  if (changed('artistName')) request.artistName = values.artistName.trim();
  if (changed('releaseTitle')) request.releaseTitle = values.releaseTitle.trim();
  if (changed('releaseType')) request.releaseType = values.releaseType;
  if (changed('genre')) request.genre = values.genre;
  if (changed('label')) request.label = values.label.trim();
  if (changed('releaseDate')) request.releaseDate = values.releaseDate;
  if (changed('preOrderDate')) request.preOrderDate = values.preOrderDate;
  if (changed('releaseTimeZone')) request.releaseTimeZone = values.releaseTimeZone;
  if (changed('featuredArtists')) request.featuredArtists = featuredArtistsFromText(values.featuredArtists);
  if (changed('language')) request.language = values.language.trim().toLowerCase();
  if (changed('excludedTerritories'))
    request.excludedTerritories = (splitList(values.excludedTerritories) ?? []).map((c) => c.toUpperCase());
  for (const name of Object.keys(SECTIONS) as Array<keyof typeof SECTIONS>) {
    if (SECTIONS[name].some((field) => changed(field)))
      (request as Record<string, unknown>)[name] = section(values, name);
  }
  const beforeRows = trackRowsOf(release);
  const single = rows.length === 1;
  const edits = rows.map((row, i) => {
    const old = beforeRows[i]!;
    const edit: NonNullable<EditReleaseRequest['tracks']>[number] = {};
    if (row.title.trim() !== old.title) edit.title = row.title.trim();
    if (row.isrc.trim() !== old.isrc) edit.isrc = row.isrc.trim();
    if (row.explicit !== old.explicit) edit.explicit = row.explicit;
    if (row.featured.trim() !== old.featured) edit.featuredArtists = featuredArtistsFromText(row.featured);
    if (row.language.trim() !== old.language) edit.language = row.language.trim();
    // A single's lyrics are the release's (the Content tab's); an album's are each track's.
    const lyrics = single ? values.lyrics.trim() : row.lyrics.trim();
    if (lyrics !== old.lyrics.trim()) edit.lyrics = lyrics;
    return edit;
  });
  if (edits.some((e) => Object.keys(e).length > 0)) request.tracks = edits;
  return request;
}
