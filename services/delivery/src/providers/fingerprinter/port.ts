// Fingerprinting an audio file: the rights check knows only this port. The adapter runs Chromaprint's fpcalc
// as a child process (fpcalc.ts), so decoding and fingerprinting never run on the service's event loop.

export interface RawFingerprint {
  /** Seconds of audio fingerprinted (the whole file, as played at `speed`). */
  duration: number;
  /** Chromaprint's raw items, one 32-bit value per ≈0.124 s (algorithm 2, fpcalc's default). */
  items: number[];
}

export interface FingerprintOptions {
  /**
   * Play the file this much faster before fingerprinting (0.96: 4 % slower). Undoes a re-upload that was
   * sped up or slowed by 1/speed. Only WAV masters can be played at another speed; FLAC gives
   * UnsupportedSpeedError.
   */
  speed?: number;
}

export interface Fingerprinter {
  /** Which tool and version answers (for the banner and the bench). */
  readonly tool: string;
  /** Null when usable; otherwise why not, naming the command that provisions it. */
  missing(): string | null;
  fingerprint(file: string, options?: FingerprintOptions): Promise<RawFingerprint>;
}

export class FingerprintError extends Error {
  override name = 'FingerprintError';
}

export class UnsupportedSpeedError extends FingerprintError {
  override name = 'UnsupportedSpeedError';
}
