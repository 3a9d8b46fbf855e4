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
   * sped up or slowed by 1/speed. The file must then be a WAV: pass `wavForSpeeds(master).wav` (a FLAC
   * master decoded once for every speed); another format gives UnsupportedSpeedError.
   */
  speed?: number;
}

/** A master made ready for other speeds: a WAV, the master itself or a temporary decode of it. */
export interface SpeedInput {
  /** The WAV to fingerprint at speeds other than 1; null when the master cannot be played at them here. */
  wav: string | null;
  /** Why `wav` is null, in an operator's words (what is not checked and what fixes it). */
  why: string | null;
  /** Removes the temporary WAV, if one was made; call once the speeds are done, also on failure. */
  dispose(): Promise<void>;
}

export interface Fingerprinter {
  /** Which tool and version answers (for the banner and the bench). */
  readonly tool: string;
  /** Null when usable; otherwise why not, naming the command that provisions it. */
  missing(): string | null;
  /** Null when every check works here; otherwise what is left out (FLAC at its own speed only) and why. */
  limits(): string | null;
  fingerprint(file: string, options?: FingerprintOptions): Promise<RawFingerprint>;
  /**
   * Prepares a master for fingerprinting at other speeds, once for all of them. Does not throw for a master
   * it cannot prepare (no decoder, a decode error): the check then runs at speed 1 and `why` says so.
   */
  wavForSpeeds(file: string): Promise<SpeedInput>;
}

export class FingerprintError extends Error {
  override name = 'FingerprintError';
}

export class UnsupportedSpeedError extends FingerprintError {
  override name = 'UnsupportedSpeedError';
}
