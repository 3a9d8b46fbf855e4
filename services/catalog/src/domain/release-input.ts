// Checks a release request the way the artist upload form's rules say (spec §5), in the form's order:
// required text first, then the two files, then the rest. Messages are the spec's where it has one.
import type { catalog } from '@omni/proto';
import { DEFAULT_GENRE, emptyMetadata, type MetadataDoc, RELEASE_TYPES, type ReleaseType } from './release';

export const MESSAGES = {
  required: 'Please fill in all required fields.',
  files: 'Please add both audio and artwork files.',
  songRequired: 'Title and Artist required.',
  songAudio: 'Choose an audio file.',
} as const;

const SHORT = 200;
const LONG = 5000;
const LYRICS = 20_000;

export class InputError extends Error {
  override name = 'InputError';
}

const text = (value: string | undefined, max = SHORT) => (value ?? '').trim().slice(0, max);
const list = (values: readonly string[] | undefined) =>
  (values ?? [])
    .map((v) => v.trim())
    .filter(Boolean)
    .slice(0, 50)
    .map((v) => v.slice(0, SHORT));

export const hasFile = (f: catalog.FileRef | undefined): f is catalog.FileRef =>
  !!f && f.bucket.trim() !== '' && f.fileKey.trim() !== '';

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export interface ReleaseInput {
  artistName: string;
  releaseTitle: string;
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
}

export function parseReleaseInput(req: catalog.CreateReleaseRequest): ReleaseInput {
  const artistName = text(req.artistName);
  const releaseTitle = text(req.releaseTitle);
  const trackTitle = text(req.trackTitle);
  if (!artistName || !releaseTitle || !trackTitle) throw new InputError(MESSAGES.required);
  if (!hasFile(req.audio) || !hasFile(req.artwork)) throw new InputError(MESSAGES.files);
  const releaseType = (req.releaseType || 'single') as ReleaseType;
  if (!RELEASE_TYPES.includes(releaseType)) throw new InputError('Release type must be single, ep or album.');
  const releaseDate = req.releaseDate.trim();
  if (releaseDate && !isCalendarDate(releaseDate))
    throw new InputError('Release date must be a real date written as YYYY-MM-DD.');
  const bpm = req.metadata?.technical?.bpm;
  if (bpm !== undefined && !(Number.isFinite(bpm) && bpm > 0 && bpm <= 999))
    throw new InputError('BPM must be a number between 1 and 999.');
  const recordingDate = text(req.metadata?.technical?.recordingDate);
  if (recordingDate && !isCalendarDate(recordingDate))
    throw new InputError('Date of recording must be a real date written as YYYY-MM-DD.');
  return {
    artistName,
    releaseTitle,
    trackTitle,
    releaseType,
    genre: text(req.genre) || DEFAULT_GENRE,
    label: text(req.label),
    releaseDate: releaseDate || null,
    explicit: req.explicit,
    audio: { bucket: req.audio.bucket.trim(), fileKey: req.audio.fileKey.trim() },
    artwork: { bucket: req.artwork.bucket.trim(), fileKey: req.artwork.fileKey.trim() },
    metadata: metadataFrom(req.metadata, recordingDate),
    stores: req.stores.map((s) => s.trim()).filter(Boolean),
  };
}

function metadataFrom(m: catalog.ReleaseMetadata | undefined, recordingDate: string): MetadataDoc {
  const base = emptyMetadata();
  if (!m) return base;
  return {
    credits: {
      producers: list(m.credits?.producers),
      writers: list(m.credits?.writers),
      musicians: list(m.credits?.musicians),
      engineer: text(m.credits?.engineer),
      instruments: text(m.credits?.instruments, LONG),
    },
    technical: {
      bpm: m.technical?.bpm ?? null,
      musicalKey: text(m.technical?.musicalKey),
      style: text(m.technical?.style),
      mood: text(m.technical?.mood),
      recordedIn: text(m.technical?.recordedIn),
      masteringStudio: text(m.technical?.masteringStudio),
      recordingDate,
    },
    legal: {
      copyrightLine: text(m.legal?.copyrightLine),
      publishingLine: text(m.legal?.publishingLine),
      pro: text(m.legal?.pro),
      ipi: text(m.legal?.ipi),
      iswc: text(m.legal?.iswc),
      isni: text(m.legal?.isni),
    },
    content: { summary: text(m.content?.summary, LONG), lyrics: text(m.content?.lyrics, LYRICS) },
  };
}
