// The release constants both sides need, apart from the schemas so that a screen importing one (the form's
// default genre) does not bring the request schemas into its bundle.

export const RELEASE_TYPES = ['single', 'ep', 'album'] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];

/** Spec §9: the primary genre when the artist picks none. */
export const DEFAULT_GENRE = 'Hip-Hop/Rap';

export const SHORT_TEXT = 200;
export const LONG_TEXT = 5000;
export const LYRICS_TEXT = 20_000;
export const MAX_NAMES = 50;
export const MAX_STORES = 500;
/** Tracks in one release (DistroKid takes up to 100). */
export const MAX_TRACKS = 100;
/** Discs in one release. */
export const MAX_DISCS = 20;
/** Roles of a track's artists besides the main artist: DDEX FeaturedArtist, Remixer. */
export const TRACK_ARTIST_ROLES = ['featured', 'remixer'] as const;
export const MAX_BPM = 999;

/** The artist form's extra fields as the form, the release page and a version's changes name them. */
export const METADATA_LABELS: Record<string, string> = {
  producers: 'Producers',
  writers: 'Writers',
  musicians: 'Musicians',
  engineer: 'Engineer',
  instruments: 'Instruments',
  bpm: 'BPM',
  musicalKey: 'Musical Key',
  style: 'Style',
  mood: 'Mood',
  recordedIn: 'Recorded In',
  masteringStudio: 'Mastering/Recording Studio',
  recordingDate: 'Date of Recording',
  copyrightLine: 'Copyright (P Line)',
  publishingLine: 'Publishing (C Line)',
  pro: 'PRO',
  ipi: 'IPI',
  iswc: 'ISWC',
  isni: 'ISNI',
  summary: 'Summary',
  lyrics: 'Lyrics',
};

/** Territories a release may exclude (ISO 3166-1 alpha-2), at most this many. */
export const MAX_EXCLUDED_TERRITORIES = 250;

/**
 * Whether `code` is an ISO 3166-1 alpha-2 country code (ICU's region names know every assigned one and
 * echo an unknown code back); the special codes (EU, UN, ZZ…) are not countries.
 */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || ['EU', 'EZ', 'UN', 'ZZ', 'QO', 'XK'].includes(code)) return false;
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) !== code;
  } catch {
    return true;
  }
}

/**
 * Whether `code` is an ISO 639-1 language code ICU can name (en, fr, pt): the two-letter codes the stores'
 * messages take (ERN 4.3 lists them). An unassigned pair such as xx is refused.
 */
export function isLanguageCode(code: string): boolean {
  if (!/^[a-z]{2}$/.test(code)) return false;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) !== code;
  } catch {
    return true;
  }
}
