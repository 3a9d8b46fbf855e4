// The release and song bodies of the API contract, checked in the order the artist form checks them
// (spec §5): required text, then both files, then the shape of everything else. Each failure answers
// 400 with one message a toast can show as is.
import { HttpError, parseWith } from '@omni/platform';
import { z } from 'zod';

export const MESSAGES = {
  required: 'Please fill in all required fields.',
  files: 'Please add both audio and artwork files.',
  songRequired: 'Title and Artist required.',
  songAudio: 'Choose an audio file.',
} as const;

const short = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(200, `${label} is too long (200 characters at most).`);
const optionalShort = (label: string) => short(label).optional().default('');
const long = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} is too long (${max} characters at most).`)
    .optional()
    .default('');

const fileRef = z.object({
  bucket: z.string().trim().min(1).max(100),
  fileKey: z.string().trim().min(1).max(1024),
});

/** The form sends comma-separated text; the contract says arrays. Both are accepted. */
const names = (label: string) =>
  z
    .union([z.array(z.string().max(200)).max(50), z.string().max(5000)], {
      error: `${label} must be a list of names.`,
    })
    .optional()
    .transform((v) =>
      (typeof v === 'string' ? v.split(',') : (v ?? [])).map((s) => s.trim()).filter(Boolean),
    );

const isoDate = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), `${label} must be written as YYYY-MM-DD.`)
    .nullable()
    .optional()
    .transform((v) => v ?? '');

const releaseShape = z.object({
  artistName: short('Artist name'),
  releaseTitle: short('Release title'),
  trackTitle: short('Track title'),
  releaseType: z
    .enum(['single', 'ep', 'album'], { error: 'Release type must be single, ep or album.' })
    .optional()
    .default('single'),
  genre: short('Genre')
    .optional()
    .default('Hip-Hop/Rap')
    .transform((g) => g || 'Hip-Hop/Rap'),
  label: optionalShort('Label'),
  releaseDate: isoDate('Release date'),
  explicit: z.boolean({ error: 'Explicit must be true or false.' }).optional().default(false),
  audio: fileRef,
  artwork: fileRef,
  credits: z
    .object({
      producers: names('Producers'),
      writers: names('Writers'),
      musicians: names('Musicians'),
      engineer: optionalShort('Engineer'),
      instruments: long('Instruments', 5000),
    })
    .optional()
    .default({ producers: [], writers: [], musicians: [], engineer: '', instruments: '' }),
  technical: z
    .object({
      bpm: z
        .union([z.number(), z.literal(''), z.null()], { error: 'BPM must be a number.' })
        .optional()
        .transform((v) => (typeof v === 'number' ? v : undefined))
        .refine((v) => v === undefined || (v > 0 && v <= 999), 'BPM must be between 1 and 999.'),
      musicalKey: optionalShort('Musical key'),
      style: optionalShort('Style'),
      mood: optionalShort('Mood'),
      recordedIn: optionalShort('Recorded in'),
      masteringStudio: optionalShort('Mastering studio'),
      recordingDate: isoDate('Date of recording'),
    })
    .optional()
    .default({
      bpm: undefined,
      musicalKey: '',
      style: '',
      mood: '',
      recordedIn: '',
      masteringStudio: '',
      recordingDate: '',
    }),
  legal: z
    .object({
      copyrightLine: optionalShort('Copyright line'),
      publishingLine: optionalShort('Publishing line'),
      pro: optionalShort('PRO'),
      ipi: optionalShort('IPI'),
      iswc: optionalShort('ISWC'),
      isni: optionalShort('ISNI'),
    })
    .optional()
    .default({ copyrightLine: '', publishingLine: '', pro: '', ipi: '', iswc: '', isni: '' }),
  content: z
    .object({ summary: long('Summary', 5000), lyrics: long('Lyrics', 20000) })
    .optional()
    .default({ summary: '', lyrics: '' }),
  stores: z
    .array(z.string({ error: 'Store keys must be text.' }).max(100), {
      error: 'Stores must be a list of store keys.',
    })
    .max(500, 'Choose at most 500 stores.')
    .optional()
    .default([]),
});

export type ReleaseBody = z.infer<typeof releaseShape>;

const songShape = z.object({
  title: short('Title'),
  artistName: short('Artist name'),
  isrc: z.string({ error: 'ISRC must be text.' }).trim().max(20, 'ISRC is too long.').optional().default(''),
  upc: z.string({ error: 'UPC must be text.' }).trim().max(20, 'UPC is too long.').optional().default(''),
  audio: fileRef,
});

export type SongBody = z.infer<typeof songShape>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const hasFile = (v: unknown) => isObject(v) && filled(v.bucket) && filled(v.fileKey);

export function parseReleaseBody(body: unknown): ReleaseBody {
  const b = isObject(body) ? body : {};
  if (!filled(b.artistName) || !filled(b.releaseTitle) || !filled(b.trackTitle))
    throw new HttpError(400, MESSAGES.required, 'invalid_request');
  if (!hasFile(b.audio) || !hasFile(b.artwork)) throw new HttpError(400, MESSAGES.files, 'invalid_request');
  return parseWith(releaseShape, b, { first: true });
}

export function parseSongBody(body: unknown): SongBody {
  const b = isObject(body) ? body : {};
  if (!filled(b.title) || !filled(b.artistName))
    throw new HttpError(400, MESSAGES.songRequired, 'invalid_request');
  if (!hasFile(b.audio)) throw new HttpError(400, MESSAGES.songAudio, 'invalid_request');
  return parseWith(songShape, b, { first: true });
}
