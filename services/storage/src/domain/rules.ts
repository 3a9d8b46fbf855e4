// Whether an inspected object is acceptable where it was uploaded: the bucket's accepted kinds, and for a
// release's files the stores' rules (store-rules.ts). Each problem says what is wrong and what is needed.
import { type BucketName, bucketWords, policyOf } from './buckets';
import type { Inspection } from './inspect';
import { coverJudgement, type Judgement, masterJudgement, playableAudioProblems } from './store-rules';

export type { Judgement } from './store-rules';

/**
 * 'audio' is a release master and 'artwork' cover art (the stores' rules); 'playable' is anything in the
 * audio bucket (must really be audio that can be played). Only 'audio' and 'artwork' are asked for.
 */
export type Role = 'audio' | 'artwork' | 'playable' | '';
export type RequestedRole = 'audio' | 'artwork' | '';

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

export function isRequestedRole(role: string): role is RequestedRole {
  return role === '' || role === 'audio' || role === 'artwork';
}

/** Which rules apply: the role given, or for omni-assets (audio + cover art only) what the bytes are. */
export function effectiveRole(bucket: BucketName, role: RequestedRole, inspection: Inspection): Role {
  if (role) return role;
  if (bucket === 'omni-assets') return inspection.kind === 'image' ? 'artwork' : 'audio';
  // Anything in the audio bucket is meant to be played: it must really be audio, and readable.
  if (bucket === 'audio') return 'playable';
  return '';
}

export function roleFitsBucket(bucket: BucketName, role: RequestedRole): boolean {
  if (!role) return true;
  const kinds: readonly string[] | undefined = policyOf(bucket).kinds;
  return !kinds || kinds.includes(role === 'artwork' ? 'image' : 'audio');
}

export function judge(bucket: BucketName, role: Role, inspection: Inspection): Judgement {
  const looksLike = KIND_NAMES[inspection.kind] ?? 'another kind of file';
  if (role === 'audio') return masterJudgement(inspection, looksLike);
  if (role === 'artwork') return coverJudgement(inspection, looksLike);
  if (role === 'playable') return { problems: playableAudioProblems(inspection, looksLike), warnings: [] };
  return { problems: bucketProblems(bucket, inspection, looksLike), warnings: [] };
}

function bucketProblems(bucket: BucketName, inspection: Inspection, looksLike: string): string[] {
  const kinds: readonly string[] | undefined = policyOf(bucket).kinds;
  if (inspection.kind === 'executable') {
    return [
      `Executable files cannot be uploaded to ${bucketWords(bucket).to}. Upload ${describeKinds(kinds) ?? 'a document'} instead.`,
    ];
  }
  if (kinds && !kinds.includes(inspection.kind)) {
    return [`${bucketWords(bucket).takes} ${describeKinds(kinds)}; this file is ${looksLike}.`];
  }
  if (inspection.unreadable) return [`This file could not be read: ${inspection.unreadable}`];
  return [];
}

function describeKinds(kinds: readonly string[] | undefined): string | undefined {
  return kinds?.map((k) => WANTED[k] ?? k).join(' or ');
}

/** A caller's expectation of the bytes (cms: music is audio, video is video), in the bucket rules' words. */
export function expectedKindProblems(expected: string, inspection: Inspection): string[] {
  if (inspection.kind === expected) return [];
  const looksLike = KIND_NAMES[inspection.kind] ?? 'another kind of file';
  return [`This file is ${looksLike}; upload ${WANTED[expected] ?? expected} instead.`];
}
