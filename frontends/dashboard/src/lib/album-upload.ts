// The release builder's tracks and their uploads. Each track's master goes up on its own (three at a time),
// with its own progress; one that fails is marked and the next press of the button sends only what is not
// up yet, so a failed master is retried alone and the others are not sent twice. The release is created
// once every file is up, in one call that lists the tracks in order.
import type { CreateReleaseRequest, TrackRequest } from '@omni/proto/api';
import { featuredArtistsFromText } from './artist-form';
import { ARTIST_UPLOAD_BUCKET } from './artist-upload-flow';
import type { ByteProgress, UploadedFile, UploadFileOptions } from './upload';

export type UploadState =
  | { state: 'waiting' }
  | { state: 'uploading'; percent: number }
  | { state: 'done'; file: { bucket: string; fileKey: string } }
  | { state: 'failed'; error: string };

export interface TrackDraft {
  /** Stable across reorders (React key, progress updates). */
  key: string;
  title: string;
  file: File;
  explicit: boolean;
  /** Empty: assigned by Omni. */
  isrc: string;
  /** "Kai Stone, Mira Sol (remixer)". */
  featured: string;
  /** What the browser found wrong in the file by the stores' rules (checked when it is added). */
  problems: string[];
  /** Seconds, from the header; undefined when the browser cannot tell. */
  seconds: number | undefined;
  upload: UploadState;
}

let next = 0;
/** "03 - Night Drive.wav" → "Night Drive": a title to start from. */
export function titleFromFileName(name: string): string {
  return (
    name
      .replace(/\.[a-z0-9]{2,5}$/i, '')
      .replace(/^\s*\d{1,3}\s*[-_.)]\s*/, '')
      .replace(/_/g, ' ')
      .trim() || name
  );
}

export function newTrack(file: File, title = titleFromFileName(file.name)): TrackDraft {
  next += 1;
  return {
    key: `track-${next}-${file.name}`,
    title,
    file,
    explicit: false,
    isrc: '',
    featured: '',
    problems: [],
    seconds: undefined,
    upload: { state: 'waiting' },
  };
}

/** Moves the track at `from` by `by` places (−1 up, +1 down); out of range leaves the list as it is. */
export function moveTrack<T>(list: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const out = [...list];
  const [moved] = out.splice(from, 1);
  out.splice(to, 0, moved!);
  return out;
}

/** The first thing to fix before a byte is sent, naming the track; null when every track may go. */
export function tracksProblem(tracks: readonly TrackDraft[]): string | null {
  for (const [i, t] of tracks.entries()) {
    if (!t.title.trim()) return `Track ${i + 1} needs a title.`;
    if (t.problems[0]) return `Track ${i + 1} (${t.file.name}): ${t.problems[0]}`;
  }
  return null;
}

export interface AlbumDeps {
  uploadFile(options: UploadFileOptions): Promise<UploadedFile>;
}

/**
 * Sends every master not up yet, three at a time, reporting each track's state as it changes. Resolves with
 * the tracks as they ended; the caller creates the release only when every one is done.
 */
export async function uploadMasters(
  tracks: readonly TrackDraft[],
  onState: (key: string, state: UploadState) => void,
  deps: AlbumDeps,
  concurrency = 3,
): Promise<Map<string, UploadState>> {
  const ended = new Map<string, UploadState>(tracks.map((t) => [t.key, t.upload]));
  const queue = tracks.filter((t) => t.upload.state !== 'done');
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const track = t;
      onState(track.key, { state: 'uploading', percent: 0 });
      try {
        const up = await deps.uploadFile({
          bucket: ARTIST_UPLOAD_BUCKET,
          purpose: 'artist-upload',
          role: 'audio',
          file: track.file,
          onProgress: (bytes: ByteProgress) =>
            onState(track.key, { state: 'uploading', percent: bytes.percent }),
        });
        const done: UploadState = { state: 'done', file: { bucket: up.bucket, fileKey: up.fileKey } };
        ended.set(track.key, done);
        onState(track.key, done);
      } catch (err) {
        const failed: UploadState = {
          state: 'failed',
          error: err instanceof Error ? err.message : 'The upload failed.',
        };
        ended.set(track.key, failed);
        onState(track.key, failed);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return ended;
}

/** The tracks as POST /api/releases takes them, in order, once every master is up. */
export function tracksRequest(
  tracks: readonly TrackDraft[],
  states: ReadonlyMap<string, UploadState>,
): NonNullable<CreateReleaseRequest['tracks']> {
  return tracks.map((t): TrackRequest => {
    const state = states.get(t.key);
    if (state?.state !== 'done') throw new Error(`Track "${t.title}" is not uploaded yet.`);
    return {
      title: t.title.trim(),
      audio: state.file,
      explicit: t.explicit,
      ...(t.isrc.trim() ? { isrc: t.isrc.trim() } : {}),
      ...(t.featured.trim() ? { featuredArtists: featuredArtistsFromText(t.featured) } : {}),
    };
  });
}
