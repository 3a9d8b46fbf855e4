// The masters (shared/design/delivery.md: lossless WAV or FLAC, 16 or 24 bit, at least 44.1 kHz, stereo;
// some stores refuse mono; single-track releases under 30 s are refused by some). Storage judged the files
// with the same rules when they were uploaded; these run again on what catalog kept, as the stores will.
import type { catalog } from '@omni/proto';
import type { ReviewFinding } from '@omni/proto/api';
import { concerned, REFUSING_MONO, REFUSING_SHORT_SINGLE, storeNames } from './stores';

const LOSSLESS = new Set(['wav', 'flac']);
const BIT_DEPTHS = new Set([16, 24]);
const MIN_SAMPLE_RATE = 44_100;
const SHORT_SINGLE_SECONDS = 30;

export function audioFindings(tracks: readonly catalog.Track[], stores: readonly string[]): ReviewFinding[] {
  const findings = tracks.flatMap((track) => trackFindings(track, stores));
  const [only, ...more] = tracks;
  const short = concerned(REFUSING_SHORT_SINGLE, stores);
  if (only && more.length === 0 && only.durationSeconds < SHORT_SINGLE_SECONDS && short.length > 0)
    findings.push({
      rule: 'audio.short-single',
      severity: 'warning',
      stores: short,
      message: `This single is ${Math.round(only.durationSeconds)} s long. Some stores refuse single-track releases under ${SHORT_SINGLE_SECONDS} s (${storeNames(short)}); a longer track reaches every store.`,
    });
  return findings;
}

function trackFindings(track: catalog.Track, stores: readonly string[]): ReviewFinding[] {
  const name = `"${track.title}"`;
  const audio = track.audioFormat;
  if (!audio?.format)
    return [
      {
        rule: 'audio.unknown',
        severity: 'error',
        stores: [],
        message: `We do not know the format of the master of ${name}. Upload it again as WAV or FLAC.`,
      },
    ];
  const out: ReviewFinding[] = [];
  const error = (rule: string, message: string) => out.push({ rule, severity: 'error', stores: [], message });
  if (!LOSSLESS.has(audio.format))
    error(
      'audio.format',
      `Stores take masters only as lossless WAV or FLAC; the master of ${name} is ${audio.format.toUpperCase()}. Export it as WAV or FLAC.`,
    );
  else if (!BIT_DEPTHS.has(audio.bitDepth))
    error(
      'audio.bit-depth',
      `Stores take masters at 16 or 24 bit; the master of ${name} is ${audio.bitDepth ? `${audio.bitDepth} bit` : 'of unknown bit depth'}. Export it again at 16 or 24 bit.`,
    );
  if (audio.sampleRate < MIN_SAMPLE_RATE)
    error(
      'audio.sample-rate',
      `Stores take masters at 44.1 kHz or more; the master of ${name} is ${(audio.sampleRate / 1000).toLocaleString('en', { maximumFractionDigits: 2 })} kHz. Export it again at 44.1 kHz or more from the original session.`,
    );
  if (audio.channels > 2)
    error(
      'audio.channels',
      `Stores take masters in stereo; the master of ${name} has ${audio.channels} channels. Export a stereo mix.`,
    );
  const mono = concerned(REFUSING_MONO, stores);
  if (audio.channels === 1 && mono.length > 0)
    out.push({
      rule: 'audio.mono',
      severity: 'warning',
      stores: mono,
      message: `The master of ${name} is mono. Some stores refuse mono masters (${storeNames(mono)}); export it as stereo to reach every store.`,
    });
  return out;
}
