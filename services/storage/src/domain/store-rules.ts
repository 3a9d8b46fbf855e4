// The stores' rules for what a release carries (docs/architecture.md, "What stores refuse"), applied
// to storage's inspection of the bytes. This is the one place they are written: catalog asks storage to
// judge a release's files (GetObjectInfo with a role) rather than judging them again.
//   refused: what no store accepts, or what cannot be played at all: the upload is removed and the 4xx says
//            what is wrong and what is needed.
//   warned:  what some stores refuse: the file is kept, the warning names those stores.
import type { Inspection } from './inspect';

export interface Judgement {
  problems: string[];
  warnings: string[];
}

const ARTWORK_MIN_PIXELS = 3000;
const MASTER_FORMATS = new Set(['wav', 'flac']);
const MASTER_BIT_DEPTHS = new Set([16, 24]);
const MASTER_MIN_SAMPLE_RATE = 44_100;

/**
 * Stores that refuse a mono master. Distributor guidance says "stereo (some refuse mono)" without naming
 * them; these are the DJ download stores, whose partner guides ask for stereo WAV. Confirm against each
 * store's current partner guide and correct here (docs/architecture.md §6).
 */
export const STORES_REFUSING_MONO = ['Beatport', 'Beatsource', 'Traxsource', 'Juno Download'] as const;

/** Anything meant to be played (the audio bucket): it must be audio whose header describes playable sound. */
export function playableAudioProblems(inspection: Inspection, looksLike: string): string[] {
  if (inspection.kind !== 'audio') {
    const what =
      inspection.kind === 'other' ? 'its bytes match no known audio format' : `it looks like ${looksLike}`;
    return [`This file is not audio (${what}). Upload an audio file (WAV, FLAC, AIFF, MP3, ...).`];
  }
  if (inspection.unreadable) {
    return [`This audio file could not be read (${inspection.unreadable}). Export it again as WAV or FLAC.`];
  }
  if (!(inspection.channels >= 1)) {
    return [
      'This audio file has a broken header: it says the file has 0 channels, so it cannot be played. Export it again as a stereo WAV or FLAC.',
    ];
  }
  if (!(inspection.sampleRate > 0) || !(inspection.durationSeconds > 0)) {
    return ['This audio file has no playable length. Export it again as WAV or FLAC.'];
  }
  return [];
}

/** A release master: playable, then lossless WAV/FLAC, 16 or 24 bit, at least 44.1 kHz, stereo. */
export function masterJudgement(inspection: Inspection, looksLike: string): Judgement {
  const unplayable = playableAudioProblems(inspection, looksLike);
  if (unplayable.length > 0) return { problems: unplayable, warnings: [] };
  const { format, bitDepth, sampleRate, channels } = inspection;
  const problems: string[] = [];
  if (!MASTER_FORMATS.has(format)) {
    problems.push(
      `Stores take release masters only as lossless WAV or FLAC; this file is ${format.toUpperCase() || 'in another format'}. Export the master as WAV or FLAC.`,
    );
  } else if (!MASTER_BIT_DEPTHS.has(bitDepth)) {
    problems.push(
      `Stores take release masters at 16 or 24 bit; this file is ${bitDepth ? `${bitDepth} bit` : 'of unknown bit depth'}. Export it again at 16 or 24 bit.`,
    );
  }
  if (sampleRate < MASTER_MIN_SAMPLE_RATE) {
    problems.push(
      `Stores take release masters at 44.1 kHz or more; this file is ${describeRate(sampleRate)}. Export it again at 44.1 kHz or more (resampling up does not add quality: use the original session).`,
    );
  }
  if (channels > 2) {
    problems.push(
      `Stores take release masters in stereo; this file has ${channels} channels. Export a stereo mix.`,
    );
  }
  const warnings =
    problems.length === 0 && channels === 1
      ? [
          `This master is mono. Some stores refuse mono masters (${STORES_REFUSING_MONO.join(', ')}); export it as stereo to reach every store.`,
        ]
      : [];
  return { problems, warnings };
}

/** Cover art: JPG or PNG, square, at least 3000x3000, RGB without transparency. */
export function coverJudgement(inspection: Inspection, looksLike: string): Judgement {
  if (inspection.kind !== 'image')
    return { problems: [`Cover art must be a JPG or PNG image; this file is ${looksLike}.`], warnings: [] };
  if (inspection.unreadable) {
    return {
      problems: [`This image could not be read (${inspection.unreadable}). Save it again as JPG or PNG.`],
      warnings: [],
    };
  }
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
  // Stores ask for RGB. An alpha channel is not RGB: stores flatten transparency onto a background of their
  // choosing (black on some, white on others), so the cover would not look as the artist made it.
  if (colorMode === 'rgba') {
    problems.push(
      'Cover art must be RGB without transparency; this image has an alpha channel. Save it as JPG, or as PNG without transparency.',
    );
  } else if (colorMode !== 'rgb') {
    problems.push(
      `Cover art must be in RGB colour; this image is ${colorMode.toUpperCase() || 'in an unknown colour mode'}.`,
    );
  }
  return { problems, warnings: [] };
}

function describeRate(hz: number): string {
  return `${(hz / 1000).toLocaleString('en', { maximumFractionDigits: 2 })} kHz`;
}
