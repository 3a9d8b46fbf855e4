// Checks a release request the way the artist upload form's rules say (spec §5), in the form's order:
// required text first, then the two files, then the rest. Messages are the spec's where it has one.
// The sentences and the sizes are the API contract's, the same the gateway and the form use.
import { catalog } from '@omni/proto';
import {
  fieldMessages,
  ISRC_RULE,
  isCountryCode,
  isLanguageCode,
  isTimeZone,
  LONG_TEXT as LONG,
  LYRICS_TEXT as LYRICS,
  MAX_BPM,
  MAX_DISCS,
  MAX_EXCLUDED_TERRITORIES,
  MAX_NAMES,
  MAX_TRACKS,
  RELEASE_MESSAGES as MESSAGES,
  normalizeIsrc,
  preOrderProblem,
  SHORT_TEXT as SHORT,
  TRACK_ARTIST_ROLES,
} from '@omni/proto/api';
import {
  DEFAULT_GENRE,
  emptyMetadata,
  type MetadataDoc,
  RELEASE_TYPES,
  type ReleaseType,
  type TrackArtistDoc,
} from './release';

export { MESSAGES };

export class InputError extends Error {
  override name = 'InputError';
}

const text = (value: string | undefined, max = SHORT) => (value ?? '').trim().slice(0, max);
const list = (values: readonly string[] | undefined) =>
  (values ?? [])
    .map((v) => v.trim())
    .filter(Boolean)
    .slice(0, MAX_NAMES)
    .map((v) => v.slice(0, SHORT));

export const hasFile = (f: catalog.FileRef | undefined): f is catalog.FileRef =>
  !!f && f.bucket.trim() !== '' && f.fileKey.trim() !== '';

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** One track as the artist asked for it, in play order (trackNumber = its place + 1). */
export interface TrackInput {
  title: string;
  audio: catalog.FileRef;
  /** Normalised; empty: allocated. */
  isrc: string;
  explicit: boolean;
  credits: catalog.Credits;
  lyrics: string;
  featuredArtists: TrackArtistDoc[];
  language: string;
  discNumber: number;
}

export interface ReleaseInput {
  artistName: string;
  releaseTitle: string;
  /** The first track's title (the single-track body's track title). */
  trackTitle: string;
  releaseType: ReleaseType;
  genre: string;
  label: string;
  releaseDate: string | null;
  explicit: boolean;
  audio: catalog.FileRef;
  artwork: catalog.FileRef;
  metadata: MetadataDoc;
  stores: string[];
  /** Sorted, upper-case ISO 3166-1 alpha-2 codes; empty: worldwide. */
  excludedTerritories: string[];
  /** YYYY-MM-DD before releaseDate, or null. */
  preOrderDate: string | null;
  /** An IANA time zone, or '' (00:00 local time in each country). */
  releaseTimeZone: string;
  /** Featured release-wide, besides the main artist. */
  featuredArtists: TrackArtistDoc[];
  /** ISO 639-1 lower case, or ''. */
  language: string;
  /** 1..MAX_TRACKS tracks; the single-track body makes one from its fields. */
  tracks: TrackInput[];
}

const fileRef = (f: catalog.FileRef) => ({ bucket: f.bucket.trim(), fileKey: f.fileKey.trim() });

/** A language code as typed (any case), checked; '' when none. `where` names the track. */
function languageOf(value: string | undefined, where = ''): string {
  const language = text(value).toLowerCase();
  if (language && !isLanguageCode(language)) throw new InputError(`${where}${MESSAGES.language}`);
  return language;
}

/** Featured artists as sent: names trimmed, blanks dropped, roles checked, at most MAX_NAMES. */
function artistsOf(artists: readonly catalog.TrackArtist[], where = ''): TrackArtistDoc[] {
  const out = artists
    .map((a) => ({ name: text(a.name), role: (a.role || 'featured') as TrackArtistDoc['role'] }))
    .filter((a) => a.name);
  if (out.some((a) => !TRACK_ARTIST_ROLES.includes(a.role)))
    throw new InputError(`${where}${MESSAGES.artistRole}`);
  return out.slice(0, MAX_NAMES);
}

/** An album's tracks as sent, checked in the form's order (titles, then files, then the rest). */
function parseTracks(tracks: readonly catalog.TrackInput[]): TrackInput[] {
  if (tracks.length > MAX_TRACKS) throw new InputError(MESSAGES.tooManyTracks);
  if (tracks.some((t) => !text(t.title))) throw new InputError(MESSAGES.required);
  if (tracks.some((t) => !hasFile(t.audio))) throw new InputError(MESSAGES.files);
  const parsed = tracks.map((t, i): TrackInput => {
    const where = `Track ${i + 1}`;
    const isrc = t.isrc.trim() ? normalizeIsrc(t.isrc) : '';
    if (isrc === undefined) throw new InputError(`${where}: ${ISRC_RULE}`);
    const language = languageOf(t.language, `${where}: `);
    const discNumber = t.discNumber || 1;
    if (!Number.isInteger(discNumber) || discNumber < 1 || discNumber > MAX_DISCS)
      throw new InputError(`${where}: ${MESSAGES.discNumber}`);
    const featuredArtists = artistsOf(t.featuredArtists, `${where}: `);
    return {
      title: text(t.title),
      audio: fileRef(t.audio!),
      isrc,
      explicit: t.explicit,
      credits: bounded({ ...catalog.Credits.fromPartial({}), ...t.credits }),
      lyrics: text(t.lyrics, LYRICS),
      featuredArtists,
      language,
      discNumber,
    };
  });
  const seen = new Map<string, number>();
  for (const [i, t] of parsed.entries()) {
    if (!t.isrc) continue;
    const first = seen.get(t.isrc);
    if (first !== undefined)
      throw new InputError(
        `Tracks ${first + 1} and ${i + 1} have the same ISRC ${t.isrc}; each recording has its own.`,
      );
    seen.set(t.isrc, i);
  }
  // Discs are numbered from 1 without gaps and in play order (disc 2's tracks after disc 1's).
  const discs = parsed.map((t) => t.discNumber);
  if (discs.some((d, i) => d < (discs[i - 1] ?? 1) || d > (discs[i - 1] ?? 0) + 1))
    throw new InputError(MESSAGES.discOrder);
  return parsed;
}

export function parseReleaseInput(req: catalog.CreateReleaseRequest): ReleaseInput {
  const artistName = text(req.artistName);
  const releaseTitle = text(req.releaseTitle);
  const album = req.tracks.length > 0 ? parseTracks(req.tracks) : undefined;
  const trackTitle = album ? album[0]!.title : text(req.trackTitle);
  if (!artistName || !releaseTitle || !trackTitle) throw new InputError(MESSAGES.required);
  const audio = album ? album[0]!.audio : req.audio;
  if (!hasFile(audio) || !hasFile(req.artwork)) throw new InputError(MESSAGES.files);
  const releaseType = (req.releaseType || 'single') as ReleaseType;
  if (!RELEASE_TYPES.includes(releaseType)) throw new InputError(MESSAGES.releaseType);
  const releaseDate = req.releaseDate.trim();
  if (releaseDate && !isCalendarDate(releaseDate))
    throw new InputError(fieldMessages.realDate('Release date'));
  const preOrderDate = req.preOrderDate.trim();
  if (preOrderDate && !isCalendarDate(preOrderDate))
    throw new InputError(fieldMessages.realDate('Pre-order date'));
  const preOrder = preOrderProblem(preOrderDate, releaseDate);
  if (preOrder) throw new InputError(preOrder);
  const releaseTimeZone = req.releaseTimeZone.trim();
  if (releaseTimeZone && !isTimeZone(releaseTimeZone)) throw new InputError(MESSAGES.timeZone);
  const bpm = req.metadata?.technical?.bpm;
  if (bpm !== undefined && !(Number.isFinite(bpm) && bpm > 0 && bpm <= MAX_BPM))
    throw new InputError(MESSAGES.bpmRange);
  const recordingDate = text(req.metadata?.technical?.recordingDate);
  if (recordingDate && !isCalendarDate(recordingDate))
    throw new InputError(fieldMessages.realDate('Date of recording'));
  const metadata = metadataFrom(req.metadata, recordingDate);
  const excludedTerritories = [...new Set(req.excludedTerritories.map((c) => c.trim().toUpperCase()))].sort();
  if (excludedTerritories.length > MAX_EXCLUDED_TERRITORIES || !excludedTerritories.every(isCountryCode))
    throw new InputError(MESSAGES.territories);
  const tracks = album ?? [
    {
      title: trackTitle,
      audio: fileRef(audio),
      isrc: '',
      explicit: req.explicit,
      // The single-track body's credits and lyrics are the release's (the form's one set).
      credits: catalog.Credits.fromPartial({}),
      lyrics: metadata.content.lyrics,
      featuredArtists: [],
      language: '',
      discNumber: 1,
    },
  ];
  return {
    artistName,
    releaseTitle,
    trackTitle,
    releaseType,
    genre: text(req.genre) || DEFAULT_GENRE,
    label: text(req.label),
    releaseDate: releaseDate || null,
    explicit: req.explicit || tracks.some((t) => t.explicit),
    audio: fileRef(audio),
    artwork: fileRef(req.artwork),
    metadata,
    stores: req.stores.map((s) => s.trim()).filter(Boolean),
    excludedTerritories,
    preOrderDate: preOrderDate || null,
    releaseTimeZone,
    featuredArtists: artistsOf(req.featuredArtists),
    language: languageOf(req.language),
    tracks,
  };
}

/** Fields allowed more than the short limit; every other text field is bounded at SHORT. */
const LIMITS: Record<string, number> = { instruments: LONG, summary: LONG, lyrics: LYRICS };

/** Each text of a section trimmed and bounded, each list cleaned: whatever fields the section has. */
function bounded<T extends object>(section: T): T {
  return Object.fromEntries(
    Object.entries(section).map(([key, value]) => [
      key,
      typeof value === 'string' ? text(value, LIMITS[key]) : Array.isArray(value) ? list(value) : value,
    ]),
  ) as T;
}

function metadataFrom(m: catalog.ReleaseMetadata | undefined, recordingDate: string): MetadataDoc {
  const base = emptyMetadata();
  if (!m) return base;
  return {
    credits: bounded({ ...base.credits, ...m.credits }),
    technical: {
      ...bounded({ ...base.technical, ...m.technical }),
      bpm: m.technical?.bpm ?? null,
      recordingDate,
    },
    legal: bounded({ ...base.legal, ...m.legal }),
    content: bounded({ ...base.content, ...m.content }),
  };
}
