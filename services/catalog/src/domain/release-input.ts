// Checks a release request the way the artist upload form's rules say (spec §5), in the form's order:
// required text first, then the two files, then the rest. Messages are the spec's where it has one.
// The sentences and the sizes are the API contract's, the same the gateway and the form use.
import type { catalog } from '@omni/proto';
import {
  fieldMessages,
  LONG_TEXT as LONG,
  LYRICS_TEXT as LYRICS,
  MAX_BPM,
  MAX_NAMES,
  RELEASE_MESSAGES as MESSAGES,
  SHORT_TEXT as SHORT,
} from '@omni/proto/api';
import { DEFAULT_GENRE, emptyMetadata, type MetadataDoc, RELEASE_TYPES, type ReleaseType } from './release';

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
  if (!RELEASE_TYPES.includes(releaseType)) throw new InputError(MESSAGES.releaseType);
  const releaseDate = req.releaseDate.trim();
  if (releaseDate && !isCalendarDate(releaseDate))
    throw new InputError(fieldMessages.realDate('Release date'));
  const bpm = req.metadata?.technical?.bpm;
  if (bpm !== undefined && !(Number.isFinite(bpm) && bpm > 0 && bpm <= MAX_BPM))
    throw new InputError(MESSAGES.bpmRange);
  const recordingDate = text(req.metadata?.technical?.recordingDate);
  if (recordingDate && !isCalendarDate(recordingDate))
    throw new InputError(fieldMessages.realDate('Date of recording'));
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
