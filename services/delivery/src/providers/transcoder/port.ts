// Transcoding a master into the format a store takes, file to file. The pipeline knows only this port: the
// FLAC encoder behind it is one library adapter (flac/), which an ffmpeg adapter could replace.

export type AudioFormat = 'wav' | 'flac';

/** What the encoder read from the source; the transcoded file keeps it (lossless). */
export interface PcmFacts {
  sampleRate: number;
  bitsPerSample: number;
  channels: number;
  /** Samples per channel. */
  frames: number;
}

export interface Transcoder {
  /** Which conversions this adapter makes. */
  supports(from: AudioFormat, to: AudioFormat): boolean;
  /**
   * Reads `input` in chunks and writes the `to` file at `output` (the caller's temp file: it hashes and
   * renames it). Never holds the whole master in memory.
   */
  transcode(input: string, output: string, to: AudioFormat): Promise<PcmFacts>;
}

/** The source cannot be transcoded (not PCM, an unsupported bit depth…): a person must look at the master. */
export class TranscodeError extends Error {
  override name = 'TranscodeError';
}
