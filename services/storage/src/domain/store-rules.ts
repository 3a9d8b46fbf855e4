// The stores' rules for what a release carries (docs/architecture.md, "What stores refuse"), applied
// to storage's inspection of the bytes. Storage is the one service that judges them: catalog asks storage to
// judge a release's files (GetObjectInfo with a role) rather than judging them again.
//   refused: what no store accepts, or what cannot be played at all: the upload is removed and the 4xx says
//            what is wrong and what is needed.
//   warned:  what some stores refuse: the file is kept, the warning names those stores.
import { coverArtProblems, masterAudioProblems } from '@omni/proto/api';
import type { Inspection } from './inspect';

export interface Judgement {
  problems: string[];
  warnings: string[];
}

// The limits and their messages are @omni/proto/api's release-files (the web app checks a file's header with
// the same rules before it sends a byte); what needs the inspected bytes (playable? readable?) is here.

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
  const problems = masterAudioProblems({ format, bitDepth, sampleRate, channels });
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
  const { width, height, format, colorMode } = inspection;
  const problems = coverArtProblems({ format, width, height, colorMode });
  return { problems, warnings: [] };
}
