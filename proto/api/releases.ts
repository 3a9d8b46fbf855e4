// POST /api/releases, POST /api/songs and the release the API answers with. The gateway parses requests with
// these (shape and size only, in the artist form's order: required text, then both files, then the rest);
// catalog, which owns releases, judges the rules that need more (a real calendar date, the store keys);
// the web app types its requests and parses the answers with the same schemas.
import * as z from 'zod/mini';
import { RELEASE_MESSAGES, fieldMessages as says } from './messages';
import {
  DEFAULT_GENRE,
  isCountryCode,
  isLanguageCode,
  LONG_TEXT,
  LYRICS_TEXT,
  MAX_BPM,
  MAX_DISCS,
  MAX_EXCLUDED_TERRITORIES,
  MAX_NAMES,
  MAX_STORES,
  MAX_TRACKS,
  RELEASE_TYPES,
  SHORT_TEXT,
  TRACK_ARTIST_ROLES,
} from './release-constants';
import { isTimeZone, preOrderProblem } from './release-rules';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
/** Required text: present and not blank (a missing body has none). */
const hasText = (body: unknown, key: string) => isObject(body) && filled(body[key]);
/** A file reference with both its bucket and its key. */
const hasFile = (body: unknown, key: string) => {
  const file = isObject(body) ? body[key] : undefined;
  return isObject(file) && filled(file.bucket) && filled(file.fileKey);
};

const text = (label: string, max = SHORT_TEXT) =>
  z.string({ error: says.text(label) }).check(z.trim(), z.maxLength(max, says.tooLong(label, max)));
const optionalText = (label: string, max = SHORT_TEXT) => z._default(z.optional(text(label, max)), '');

const fileRef = z.object({
  bucket: z.string().check(z.trim(), z.minLength(1), z.maxLength(100, says.tooLong('Bucket', 100))),
  fileKey: z.string().check(z.trim(), z.minLength(1), z.maxLength(1024, says.tooLong('File key', 1024))),
});
export type FileRef = z.infer<typeof fileRef>;

/** The form sends comma-separated text; the contract says arrays. Both are accepted. */
const names = (label: string) =>
  z.pipe(
    z.optional(
      z.union(
        [
          z.array(z.string().check(z.maxLength(SHORT_TEXT))).check(z.maxLength(MAX_NAMES)),
          z.string().check(z.maxLength(LONG_TEXT)),
        ],
        {
          error: says.list(label),
        },
      ),
    ),
    z.transform((v) =>
      (typeof v === 'string' ? v.split(',') : (v ?? [])).map((s) => s.trim()).filter(Boolean),
    ),
  );

/** YYYY-MM-DD or empty; whether the day exists is catalog's to say. */
const isoDate = (label: string) =>
  z.pipe(
    z.optional(
      z.nullable(
        z.string().check(
          z.trim(),
          z.refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), says.dateFormat(label)),
        ),
      ),
    ),
    z.transform((v) => v ?? ''),
  );

const bpm = z.pipe(
  z.optional(z.union([z.number(), z.literal(''), z.null()], { error: RELEASE_MESSAGES.bpmType })),
  z.pipe(
    z.transform((v: number | '' | null | undefined) => (typeof v === 'number' ? v : undefined)),
    z.optional(z.number().check(z.refine((v) => v > 0 && v <= MAX_BPM, RELEASE_MESSAGES.bpmRange))),
  ),
);

const credits = z.object({
  producers: names('Producers'),
  writers: names('Writers'),
  musicians: names('Musicians'),
  engineer: optionalText('Engineer'),
  instruments: optionalText('Instruments', LONG_TEXT),
});
const technical = z.object({
  bpm,
  musicalKey: optionalText('Musical key'),
  style: optionalText('Style'),
  mood: optionalText('Mood'),
  recordedIn: optionalText('Recorded in'),
  masteringStudio: optionalText('Mastering studio'),
  recordingDate: isoDate('Date of recording'),
});
const legal = z.object({
  copyrightLine: optionalText('Copyright line'),
  publishingLine: optionalText('Publishing line'),
  pro: optionalText('PRO'),
  ipi: optionalText('IPI'),
  iswc: optionalText('ISWC'),
  isni: optionalText('ISNI'),
});
const content = z.object({
  summary: optionalText('Summary', LONG_TEXT),
  lyrics: optionalText('Lyrics', LYRICS_TEXT),
});

/** ISO 3166-1 alpha-2 codes, any case, deduplicated and upper-cased; each must name a country. */
const excludedTerritories = z.pipe(
  z
    .array(z.string({ error: RELEASE_MESSAGES.territories }), { error: RELEASE_MESSAGES.territories })
    .check(z.maxLength(MAX_EXCLUDED_TERRITORIES, RELEASE_MESSAGES.territories)),
  z.pipe(
    z.transform((codes: string[]) => [...new Set(codes.map((c) => c.trim().toUpperCase()))].sort()),
    z.array(z.string()).check(z.refine((codes) => codes.every(isCountryCode), RELEASE_MESSAGES.territories)),
  ),
);

/** A track's artist besides the release's main artist. */
const trackArtist = z.object({
  name: text('Featured artist'),
  role: z._default(
    z.optional(z.enum(TRACK_ARTIST_ROLES, { error: RELEASE_MESSAGES.artistRole })),
    'featured',
  ),
});

/** ISO 639-1, any case (isLanguageCode); empty: not said. */
const language = z.string({ error: RELEASE_MESSAGES.language }).check(
  z.trim(),
  z.refine((v) => v === '' || isLanguageCode(v.toLowerCase()), RELEASE_MESSAGES.language),
);
const featuredArtists = z
  .array(trackArtist, { error: RELEASE_MESSAGES.featuredArtists })
  .check(z.maxLength(MAX_NAMES));

/** One track of an album, in play order. */
const trackShape = z.object({
  title: text('Track title'),
  audio: fileRef,
  isrc: z._default(
    z.optional(z.string({ error: says.text('ISRC') }).check(z.trim(), z.maxLength(20, 'ISRC is too long.'))),
    '',
  ),
  explicit: z._default(z.optional(z.boolean({ error: RELEASE_MESSAGES.explicit })), false),
  credits: z.prefault(credits, {}),
  lyrics: optionalText('Lyrics', LYRICS_TEXT),
  featuredArtists: z._default(z.optional(featuredArtists), []),
  language: z._default(z.optional(language), ''),
  discNumber: z._default(
    z.optional(
      z
        .number({ error: RELEASE_MESSAGES.discNumber })
        .check(
          z.int(RELEASE_MESSAGES.discNumber),
          z.minimum(1, RELEASE_MESSAGES.discNumber),
          z.maximum(MAX_DISCS, RELEASE_MESSAGES.discNumber),
        ),
    ),
    1,
  ),
});
export type TrackRequest = z.input<typeof trackShape>;
export type TrackBody = z.output<typeof trackShape>;

const releaseShape = z.object({
  artistName: text('Artist name'),
  releaseTitle: text('Release title'),
  // The single-track body names its one track here; an album sends `tracks` instead.
  trackTitle: optionalText('Track title'),
  releaseType: z._default(
    z.optional(z.enum(RELEASE_TYPES, { error: RELEASE_MESSAGES.releaseType })),
    'single',
  ),
  genre: z.pipe(
    optionalText('Genre'),
    z.transform((g: string) => g || DEFAULT_GENRE),
  ),
  label: optionalText('Label'),
  releaseDate: isoDate('Release date'),
  // Before the release date; catalog checks the order (preOrderProblem) and the time zone (isTimeZone).
  preOrderDate: isoDate('Pre-order date'),
  releaseTimeZone: optionalText('Release time zone'),
  // Besides the main artist (each track may name its own as well), and the release's language.
  featuredArtists: z._default(z.optional(featuredArtists), []),
  language: z._default(z.optional(language), ''),
  explicit: z._default(z.optional(z.boolean({ error: RELEASE_MESSAGES.explicit })), false),
  audio: z.optional(fileRef),
  artwork: fileRef,
  tracks: z._default(
    z.optional(
      z
        .array(trackShape, { error: RELEASE_MESSAGES.tracks })
        .check(z.maxLength(MAX_TRACKS, RELEASE_MESSAGES.tooManyTracks)),
    ),
    [],
  ),
  credits: z.prefault(credits, {}),
  technical: z.prefault(technical, {}),
  legal: z.prefault(legal, {}),
  content: z.prefault(content, {}),
  // Worldwide unless some countries are excluded.
  excludedTerritories: z._default(z.optional(excludedTerritories), []),
  stores: z._default(
    z.optional(
      z
        .array(z.string({ error: RELEASE_MESSAGES.storeKey }).check(z.maxLength(100)), {
          error: RELEASE_MESSAGES.stores,
        })
        .check(z.maxLength(MAX_STORES, RELEASE_MESSAGES.tooManyStores)),
    ),
    [],
  ),
});

/** An album's track list (a body with a non-empty `tracks`), or undefined for the single-track body. */
const trackList = (body: unknown): unknown[] | undefined => {
  const tracks = isObject(body) ? body.tracks : undefined;
  return Array.isArray(tracks) && tracks.length > 0 ? tracks : undefined;
};

/**
 * The form's required texts, checked first (a missing body has none): artist and release title, and the
 * track title of the single-track body or every album track's title.
 */
const requiredText = z.refine(
  (v: unknown) => {
    if (!hasText(v, 'artistName') || !hasText(v, 'releaseTitle')) return false;
    const tracks = trackList(v);
    return tracks ? tracks.every((t) => hasText(t, 'title')) : hasText(v, 'trackTitle');
  },
  { message: RELEASE_MESSAGES.required, abort: true },
);

/** The cover, and the one master of the single-track body or every album track's master. */
const requiredFiles = z.refine(
  (v: unknown) => {
    if (!hasFile(v, 'artwork')) return false;
    const tracks = trackList(v);
    return tracks ? tracks.every((t) => hasFile(t, 'audio')) : hasFile(v, 'audio');
  },
  { message: RELEASE_MESSAGES.files, abort: true },
);

/** POST /api/releases, checked in the form's order: the shape is checked only once the required fields pass. */
/**
 * The release's dates together (a pre-order before the release date) and its time zone: checked here, at
 * the edge, so a mistake costs no uploaded file (catalog, which discards a refused release's files, checks
 * the same rules again).
 */
const datesProblem = (v: unknown) => {
  const { preOrderDate = '', releaseDate = '' } = v as { preOrderDate?: string; releaseDate?: string };
  return preOrderProblem(preOrderDate, releaseDate);
};
const datesAgree = z.refine((v: unknown) => datesProblem(v) === null, {
  error: (issue) => datesProblem(issue.input) ?? RELEASE_MESSAGES.preOrderOrder,
});
const knownZone = z.refine((v: unknown) => {
  const zone = (v as { releaseTimeZone?: string }).releaseTimeZone ?? '';
  return zone === '' || isTimeZone(zone);
}, RELEASE_MESSAGES.timeZone);

export const createReleaseRequest = z.pipe(
  z.unknown().check(requiredText, requiredFiles),
  releaseShape.check(datesAgree, knownZone),
);
/** What the web app sends (optional sections and fields may be left out). */
export type CreateReleaseRequest = z.input<typeof releaseShape>;
/** What the gateway passes on to catalog, every default filled in. */
export type CreateReleaseBody = z.output<typeof releaseShape>;

/**
 * POST /api/releases/:id/resubmit: the artist form again, for a release that was rejected. The same fields
 * and messages as creating one, but both files are optional: a file left out keeps the release's current one
 * (catalog judges a new file as at creation).
 */
const resubmitShape = z.extend(releaseShape, {
  audio: z.optional(fileRef),
  artwork: z.optional(fileRef),
});
export const resubmitReleaseRequest = z.pipe(z.unknown().check(requiredText), resubmitShape);
export type ResubmitReleaseRequest = z.input<typeof resubmitShape>;
export type ResubmitReleaseBody = z.output<typeof resubmitShape>;

/**
 * PATCH /api/releases/:id: the fields given change, the rest stay. A section (credits, technical, legal,
 * content) is given whole. `tracks` lists the release's tracks in order, each with the fields that change
 * (`{}` leaves a track as it is). Files, stores and the disc layout are not edited here.
 */
const filledText = (label: string, max = SHORT_TEXT) =>
  z
    .string({ error: says.text(label) })
    .check(z.trim(), z.minLength(1, RELEASE_MESSAGES.required), z.maxLength(max, says.tooLong(label, max)));
const trackEditShape = z.object({
  title: z.optional(filledText('Track title')),
  isrc: z.optional(
    z.string({ error: says.text('ISRC') }).check(z.trim(), z.maxLength(20, 'ISRC is too long.')),
  ),
  explicit: z.optional(z.boolean({ error: RELEASE_MESSAGES.explicit })),
  credits: z.optional(credits),
  lyrics: z.optional(text('Lyrics', LYRICS_TEXT)),
  featuredArtists: z.optional(featuredArtists),
  language: z.optional(language),
});
const editShape = z.object({
  artistName: z.optional(filledText('Artist name')),
  releaseTitle: z.optional(filledText('Release title')),
  releaseType: z.optional(z.enum(RELEASE_TYPES, { error: RELEASE_MESSAGES.releaseType })),
  genre: z.optional(filledText('Genre')),
  label: z.optional(text('Label')),
  releaseDate: z.optional(isoDate('Release date')),
  preOrderDate: z.optional(isoDate('Pre-order date')),
  releaseTimeZone: z.optional(text('Release time zone')),
  featuredArtists: z.optional(featuredArtists),
  language: z.optional(language),
  credits: z.optional(credits),
  technical: z.optional(technical),
  legal: z.optional(legal),
  content: z.optional(content),
  excludedTerritories: z.optional(excludedTerritories),
  tracks: z.optional(
    z
      .array(trackEditShape, { error: RELEASE_MESSAGES.tracks })
      .check(z.maxLength(MAX_TRACKS, RELEASE_MESSAGES.tooManyTracks)),
  ),
});
/** Fields an edit cannot take, said rather than silently dropped. */
const NOT_EDITABLE = ['audio', 'artwork', 'stores', 'upc', 'trackTitle', 'explicit'];
const NOT_EDITABLE_IN_TRACK = ['audio', 'discNumber'];
export const EDIT_MESSAGES = {
  notEditable:
    "An edit changes a release's details. Its files, stores and disc layout stay: to replace a file of a rejected release, resubmit it; otherwise create a new release. A track's explicit flag is set per track.",
} as const;
export const editReleaseRequest = z.pipe(
  z.unknown().check(
    z.refine((v: unknown) => isObject(v) && Object.keys(v).length > 0, {
      message: RELEASE_MESSAGES.editNothing,
      abort: true,
    }),
    z.refine(
      (v: unknown) =>
        isObject(v) &&
        !NOT_EDITABLE.some((k) => k in v) &&
        !(
          Array.isArray(v.tracks) &&
          v.tracks.some((t) => isObject(t) && NOT_EDITABLE_IN_TRACK.some((k) => k in t))
        ),
      { message: EDIT_MESSAGES.notEditable, abort: true },
    ),
  ),
  editShape.check(knownZone),
);
export type EditReleaseRequest = z.input<typeof editShape>;
export type EditReleaseBody = z.output<typeof editShape>;

/** One field that differs between a version and the one before it. */
export const versionChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string(),
  after: z.string(),
});
export const releaseVersionSchema = z.object({
  version: z.number(),
  kind: z.enum(['created', 'resubmitted', 'edited']),
  createdAt: z.string(),
  changes: z.array(versionChangeSchema),
});
export type ReleaseVersionJson = z.infer<typeof releaseVersionSchema>;
export const releaseVersionsResponse = z.object({ versions: z.array(releaseVersionSchema) });

const songShape = z.object({
  title: text('Title'),
  artistName: text('Artist name'),
  isrc: z._default(
    z.optional(z.string({ error: says.text('ISRC') }).check(z.trim(), z.maxLength(20, 'ISRC is too long.'))),
    '',
  ),
  upc: z._default(
    z.optional(z.string({ error: says.text('UPC') }).check(z.trim(), z.maxLength(20, 'UPC is too long.'))),
    '',
  ),
  audio: fileRef,
});

/** POST /api/songs: the /uploader's Song Submission panel, checked in the panel's order like a release. */
export const submitSongRequest = z.pipe(
  z.unknown().check(
    z.refine((v) => hasText(v, 'title') && hasText(v, 'artistName'), {
      message: RELEASE_MESSAGES.songRequired,
      abort: true,
    }),
    z.refine((v) => hasFile(v, 'audio'), { message: RELEASE_MESSAGES.songAudio, abort: true }),
  ),
  songShape,
);
export type SubmitSongRequest = z.input<typeof songShape>;
export type SubmitSongBody = z.output<typeof songShape>;
