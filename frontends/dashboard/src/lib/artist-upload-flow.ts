// The /artist-upload submission as a sequence of real steps, each moving the progress bar to the
// spec's next mark (10, 20, 40, 60, 70, 85, 100) and writing one Upload Log line. The network calls
// are injected so the sequence can be tested without a browser.
import { preOrderProblem, RELEASE_MESSAGES } from '@omni/proto/api';
import { type ArtistFormValues, hasRequiredFields, toCreateReleaseRequest } from './artist-form';
import type { CreateReleaseRequest, Release } from './releases-api';
import type { ByteProgress, UploadedFile, UploadFileOptions } from './upload';

/** Spec section 4: where the bar stands after each step. */
export const PROGRESS = {
  checked: 10,
  artworkSigned: 20,
  artworkUploaded: 40,
  audioSigned: 60,
  audioUploaded: 70,
  releaseCreated: 85,
  deliveryQueued: 100,
} as const;

/** Where the user can put artwork and audio for an artist upload (storage contract). */
export const ARTIST_UPLOAD_BUCKET = 'omni-assets';

export interface ToastText {
  title: string;
  description: string;
}

/** Spec section 5, in the spec's order; null when the submission may start. */
export function checkArtistUpload(
  signedIn: boolean,
  values: ArtistFormValues,
  files: { audio: File | null; artwork: File | null },
): ToastText | null {
  if (!signedIn) return { title: 'Authentication Required', description: 'Please sign in to upload music.' };
  if (!hasRequiredFields(values)) {
    return { title: 'Missing Fields', description: RELEASE_MESSAGES.required };
  }
  if (!files.audio || !files.artwork) {
    return { title: 'Missing Files', description: RELEASE_MESSAGES.files };
  }
  const preOrder = preOrderProblem(values.preOrderDate, values.releaseDate);
  if (preOrder) return { title: 'Check the dates', description: preOrder };
  return null;
}

export interface FlowReporter {
  /** The bar's value, 0..100. */
  progress(percent: number): void;
  /** One line in the Upload Log. */
  log(line: string): void;
  /** Bytes of the file on the wire right now; null when no file is moving. */
  bytes(label: string | null, progress: ByteProgress | null): void;
}

export interface FlowDeps {
  uploadFile(options: UploadFileOptions): Promise<UploadedFile>;
  createRelease(request: CreateReleaseRequest): Promise<Release>;
  /** Removes a file this try uploaded when the try fails before its release is made (no orphan stays). */
  discardUpload?(file: { bucket: string; fileKey: string }): Promise<void>;
}

export interface FlowInput {
  values: ArtistFormValues;
  audio: File;
  artwork: File;
  /** Chosen platform keys; empty means all of them. */
  stores: string[];
  /** How many platforms exist, for the log line when none were chosen. */
  platformCount: number;
}

const between = (from: number, to: number, percent: number) =>
  Math.round(from + ((to - from) * percent) / 100);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

const num = (record: Record<string, unknown> | undefined, key: string): number | undefined => {
  const value = record?.[key];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
};
const str = (record: Record<string, unknown> | undefined, key: string): string | undefined => {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** What the server found in the artwork, for the log ('3000x3000 png, rgb'). */
function describeArtwork(inspection: Record<string, unknown> | undefined): string {
  const width = num(inspection, 'width');
  const height = num(inspection, 'height');
  const parts = [
    width && height ? `${width}x${height}` : undefined,
    str(inspection, 'format'),
    str(inspection, 'colorMode'),
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

function describeAudio(inspection: Record<string, unknown> | undefined): string {
  const duration = num(inspection, 'durationSeconds');
  const sampleRate = num(inspection, 'sampleRate');
  const parts = [
    str(inspection, 'format'),
    duration ? formatDuration(duration) : undefined,
    sampleRate ? `${sampleRate} Hz` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/**
 * Artwork first (the cheaper file fails fastest when it is the wrong size), then audio, then the
 * release. The server finds or creates the artist, creates the release and track with a
 * server-allocated ISRC, and queues one delivery job per store, all in one call.
 */
export async function runArtistUpload(
  input: FlowInput,
  report: FlowReporter,
  deps: FlowDeps,
): Promise<Release> {
  const { values, audio, artwork, stores } = input;
  report.progress(PROGRESS.checked);
  report.log(
    `Checks passed: "${values.releaseTitle.trim()}" by ${values.artistName.trim()}; audio ${audio.name} (${formatBytes(audio.size)}), artwork ${artwork.name} (${formatBytes(artwork.size)})`,
  );

  // What this try uploaded: removed again if the try fails before its release is made (an artwork sent,
  // then the master refused), so a failed upload leaves no orphan file behind (issue 21 §3.7).
  const uploaded: { bucket: string; fileKey: string }[] = [];
  let release: Release;
  try {
    const artworkFile = await deps.uploadFile({
      bucket: ARTIST_UPLOAD_BUCKET,
      purpose: 'artist-upload',
      role: 'artwork',
      file: artwork,
      onSigned: (signed) => {
        report.progress(PROGRESS.artworkSigned);
        report.log(`Artwork upload signed: ${signed.fileKey}`);
      },
      onProgress: (bytes) => {
        report.bytes('Artwork', bytes);
        report.progress(between(PROGRESS.artworkSigned, PROGRESS.artworkUploaded, bytes.percent));
      },
    });
    uploaded.push(artworkFile);
    report.bytes(null, null);
    report.progress(PROGRESS.artworkUploaded);
    report.log(`Artwork uploaded and checked${describeArtwork(artworkFile.inspection)}`);

    const audioFile = await deps.uploadFile({
      bucket: ARTIST_UPLOAD_BUCKET,
      purpose: 'artist-upload',
      role: 'audio',
      file: audio,
      onSigned: (signed) => {
        report.progress(PROGRESS.audioSigned);
        report.log(`Audio upload signed, sending ${formatBytes(audio.size)}: ${signed.fileKey}`);
      },
      onProgress: (bytes) => {
        report.bytes('Audio', bytes);
        report.progress(between(PROGRESS.audioSigned, PROGRESS.audioUploaded, bytes.percent));
      },
    });
    uploaded.push(audioFile);
    report.bytes(null, null);
    report.progress(PROGRESS.audioUploaded);
    report.log(`Audio uploaded and checked${describeAudio(audioFile.inspection)}`);

    release = await deps.createRelease(
      toCreateReleaseRequest(
        values,
        {
          audio: { bucket: audioFile.bucket, fileKey: audioFile.fileKey },
          artwork: { bucket: artworkFile.bucket, fileKey: artworkFile.fileKey },
        },
        stores,
      ),
    );
  } catch (error) {
    // Best effort: a file catalog already removed is gone, one a release may use is kept by storage.
    for (const file of uploaded) await deps.discardUpload?.(file).catch(() => undefined);
    throw error;
  }
  const isrcs = release.tracks.map((track) => track.isrc).join(', ');
  report.progress(PROGRESS.releaseCreated);
  report.log(
    `Release created (${release.status}) for ${release.artist.name}: UPC ${release.upc || 'pending'}, ISRC ${isrcs || 'pending'}`,
  );
  // Accepted, but some stores may refuse it: the artist reads which and why before delivery starts.
  for (const warning of release.warnings) report.log(`Warning: ${warning}`);

  const storeCount = stores.length > 0 ? stores.length : input.platformCount;
  report.progress(PROGRESS.deliveryQueued);
  report.log(
    stores.length > 0
      ? `Delivery queued to ${storeCount} platform${storeCount === 1 ? '' : 's'}`
      : `No platform chosen: delivery queued to all ${storeCount} platforms`,
  );
  return release;
}
