// Whether an inspected object is acceptable where it was uploaded: the bucket's accepted kinds, and the
// stores' cover-art rules for artwork. Each problem says what is wrong and what is needed.
import { type BucketName, policyOf } from './buckets';
import type { Inspection } from './inspect';

export type Role = 'audio' | 'artwork' | '';

export const ARTWORK_MIN_PIXELS = 3000;

const KIND_NAMES: Record<string, string> = {
  audio: 'audio',
  image: 'an image',
  video: 'a video',
  pdf: 'a PDF',
  word: 'a Word document',
  executable: 'an executable',
  document: 'a document',
  other: 'a file of unknown type',
};

const WANTED: Record<string, string> = {
  audio: 'an audio file (WAV, FLAC, AIFF, MP3, ...)',
  image: 'an image (JPG or PNG)',
  video: 'a video file (MP4, MOV, ...)',
  pdf: 'a PDF',
  word: 'a Word document',
};

/** Which rules apply: the role given, or for omni-assets (audio + cover art only) what the bytes are. */
export function effectiveRole(bucket: BucketName, role: Role, inspection: Inspection): Role {
  if (role) return role;
  if (bucket === 'omni-assets') return inspection.kind === 'image' ? 'artwork' : 'audio';
  // Anything in the audio bucket is meant to be played: it must really be audio, and readable.
  if (bucket === 'audio') return 'audio';
  return '';
}

export function roleFitsBucket(bucket: BucketName, role: Role): boolean {
  if (!role) return true;
  const kinds: readonly string[] | undefined = policyOf(bucket).kinds;
  return !kinds || kinds.includes(role === 'artwork' ? 'image' : 'audio');
}

export function problemsOf(bucket: BucketName, role: Role, inspection: Inspection): string[] {
  const looksLike = KIND_NAMES[inspection.kind] ?? 'another kind of file';
  if (role === 'audio') return audioProblems(inspection, looksLike);
  if (role === 'artwork') return artworkProblems(inspection, looksLike);

  const kinds: readonly string[] | undefined = policyOf(bucket).kinds;
  if (inspection.kind === 'executable') {
    return [
      `Executable files cannot be uploaded to "${bucket}". Upload ${describeKinds(kinds) ?? 'a document'} instead.`,
    ];
  }
  if (kinds && !kinds.includes(inspection.kind)) {
    return [`The "${bucket}" bucket takes ${describeKinds(kinds)}; this file is ${looksLike}.`];
  }
  if (inspection.unreadable) return [`This file could not be read: ${inspection.unreadable}`];
  return [];
}

function describeKinds(kinds: readonly string[] | undefined): string | undefined {
  return kinds?.map((k) => WANTED[k] ?? k).join(' or ');
}

function audioProblems(inspection: Inspection, looksLike: string): string[] {
  if (inspection.kind !== 'audio') {
    const what =
      inspection.kind === 'other' ? 'its bytes match no known audio format' : `it looks like ${looksLike}`;
    return [`This file is not audio (${what}). Upload ${WANTED.audio}.`];
  }
  if (inspection.unreadable) {
    return [`This audio file could not be read (${inspection.unreadable}). Export it again as WAV or FLAC.`];
  }
  if (!(inspection.durationSeconds > 0)) {
    return ['This audio file has no playable length. Export it again as WAV or FLAC.'];
  }
  return [];
}

function artworkProblems(inspection: Inspection, looksLike: string): string[] {
  if (inspection.kind !== 'image')
    return [`Cover art must be a JPG or PNG image; this file is ${looksLike}.`];
  if (inspection.unreadable)
    return [`This image could not be read (${inspection.unreadable}). Save it again as JPG or PNG.`];
  const problems: string[] = [];
  const { width, height, format, colorMode } = inspection;
  if (format !== 'jpg' && format !== 'png') {
    problems.push(
      `Cover art must be a JPG or PNG image; this one is ${format.toUpperCase() || 'in an unknown format'}.`,
    );
  }
  if (width !== height) {
    problems.push(`Cover art must be square; this image is ${width}x${height}.`);
  }
  if (Math.min(width, height) < ARTWORK_MIN_PIXELS) {
    problems.push(
      `Cover art must be at least ${ARTWORK_MIN_PIXELS}x${ARTWORK_MIN_PIXELS} pixels; this image is ${width}x${height}.`,
    );
  }
  if (colorMode !== 'rgb') {
    problems.push(
      `Cover art must be in RGB colour; this image is ${colorMode.toUpperCase() || 'in an unknown colour mode'}.`,
    );
  }
  return problems;
}
