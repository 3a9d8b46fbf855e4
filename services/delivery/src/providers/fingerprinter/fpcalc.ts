// Chromaprint's fpcalc (Debian bookworm's libchromaprint-tools 1.5.1, unpacked into .engines/ by
// scripts/fpcalc.mjs; a system fpcalc or FPCALC_PATH also works) run as a child process: it decodes any format
// FFmpeg reads and prints the raw fingerprint as JSON. `-length 0` fingerprints the whole file (the default
// stops at 120 s); `-ignore-errors` because fpcalc exits 3 when FFmpeg reports "End of file" after a good
// result (shared/design/rights.md).
//
// Another speed: the WAV's header is rewritten on the way in (its sample rate × speed, through fpcalc's
// stdin, the file untouched), so the same samples play faster or slower, pitch and tempo together — what a
// sped-up re-upload is — and FFmpeg's own resampler (libswresample) brings them to Chromaprint's 11,025 Hz.
// No resampler of ours. A FLAC master has no such header: wavForSpeeds decodes it once to a temporary WAV
// with Debian's flac (flac.ts), and every speed reads that.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { decodeToWav, FLAC_VERSION, locateFlac } from './flac';
import { type Located, locateTool, toolEnv } from './locate';
import {
  FingerprintError,
  type Fingerprinter,
  type FingerprintOptions,
  type RawFingerprint,
  type SpeedInput,
  UnsupportedSpeedError,
} from './port';

export const FPCALC_VERSION = '1.5.1';

/** Where fpcalc is: FPCALC_PATH, the unpacked Debian tree under .engines/, or the system's. */
export function locateFpcalc(): Located | null {
  return locateTool('fpcalc', `chromaprint-${FPCALC_VERSION}`, process.env.FPCALC_PATH);
}

/** Whether the first `bytesRead` bytes of `head` open a RIFF/WAVE file. */
const isRiffWave = (head: Buffer, bytesRead: number) =>
  bytesRead >= 12 && head.toString('ascii', 0, 4) === 'RIFF' && head.toString('ascii', 8, 12) === 'WAVE';

/** Whether the file starts as a RIFF/WAVE file (what the header rewrite plays at another speed). */
async function isWav(file: string): Promise<boolean> {
  // Unreadable: not a WAV here; fpcalc's own run at speed 1 says what is wrong with the file.
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return isRiffWave(head, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The WAV header with its sample rate (and byte rate) times `speed`, and where the header ends. */
async function wavHeaderAtSpeed(file: string, speed: number): Promise<{ header: Buffer; dataAt: number }> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(1 << 16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!isRiffWave(head, bytesRead))
      throw new UnsupportedSpeedError('only a WAV plays at another speed: pass the WAV wavForSpeeds made');
    let at = 12;
    let patched = false;
    while (at + 8 <= bytesRead) {
      const id = head.toString('ascii', at, at + 4);
      const size = head.readUInt32LE(at + 4);
      if (id === 'fmt ') {
        const rate = head.readUInt32LE(at + 12);
        const byteRate = head.readUInt32LE(at + 16);
        head.writeUInt32LE(Math.round(rate * speed), at + 12);
        head.writeUInt32LE(Math.round(byteRate * speed), at + 16);
        patched = true;
      }
      if (id === 'data') {
        if (!patched) break;
        return { header: Buffer.from(head.subarray(0, at + 8)), dataAt: at + 8 };
      }
      at += 8 + size + (size % 2);
    }
    throw new UnsupportedSpeedError('the WAV has no fmt chunk before its data');
  } finally {
    await handle.close();
  }
}

export interface FpcalcOptions {
  /** The flac tool (found when not given; null: none, so FLAC masters are checked at speed 1 only). */
  flac?: Located | null;
  /** Where decoded WAVs are written (each in a folder of its own); the system's temp folder by default. */
  tempDir?: string;
}

export class FpcalcFingerprinter implements Fingerprinter {
  readonly tool: string;
  private readonly located: Located | null;
  private readonly flac: Located | null;
  private readonly tempDir: string | undefined;

  constructor(located: Located | null = locateFpcalc(), options: FpcalcOptions = {}) {
    this.located = located;
    this.flac = options.flac === undefined ? locateFlac() : options.flac;
    this.tempDir = options.tempDir;
    this.tool = `Chromaprint fpcalc ${FPCALC_VERSION}${this.flac ? `, flac ${FLAC_VERSION}` : ''}`;
  }

  missing(): string | null {
    return this.located
      ? null
      : 'fpcalc is not provisioned: run `node scripts/fpcalc.mjs` (npm install does; it unpacks Debian’s libchromaprint-tools into .engines/)';
  }

  limits(): string | null {
    return this.flac
      ? null
      : 'FLAC masters are fingerprinted as uploaded only, not at the speeds that undo a sped-up or slowed re-upload: the flac tool is not provisioned (run `node scripts/fpcalc.mjs`, as npm install does; it unpacks Debian’s flac into .engines/)';
  }

  async wavForSpeeds(file: string): Promise<SpeedInput> {
    const none = async () => {};
    if (await isWav(file)) return { wav: file, why: null, dispose: none };
    if (!this.flac) return { wav: null, why: this.limits(), dispose: none };
    try {
      const decoded = await decodeToWav(this.flac, file, this.tempDir);
      return { wav: decoded.file, why: null, dispose: decoded.remove };
    } catch (err) {
      const words = err instanceof Error ? err.message : String(err);
      return {
        wav: null,
        why: `this master was fingerprinted as uploaded only, not at other speeds: it is not a WAV and flac could not decode it (${words})`,
        dispose: none,
      };
    }
  }

  async fingerprint(file: string, options: FingerprintOptions = {}): Promise<RawFingerprint> {
    const located = this.located;
    if (!located) throw new FingerprintError(this.missing() ?? 'fpcalc missing');
    const speed = options.speed ?? 1;
    const viaStdin = speed !== 1 ? await wavHeaderAtSpeed(file, speed) : null;
    const args = ['-raw', '-json', '-ignore-errors', '-length', '0', viaStdin ? '-' : file];
    const env = toolEnv(located);
    return new Promise<RawFingerprint>((done, fail) => {
      const child = spawn(located.binary, args, {
        env,
        stdio: [viaStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout?.on('data', (b: Buffer) => out.push(b));
      child.stderr?.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => fail(new FingerprintError(`could not run fpcalc: ${e.message}`)));
      child.on('close', (code) => {
        const text = Buffer.concat(out).toString('utf8');
        try {
          const parsed = JSON.parse(text) as { duration?: number; fingerprint?: number[] };
          if (code === 0 && Array.isArray(parsed.fingerprint))
            return done({ duration: parsed.duration ?? 0, items: parsed.fingerprint.map((n) => n >>> 0) });
        } catch {
          // reported below with fpcalc's own words
        }
        fail(
          new FingerprintError(
            `fpcalc failed (exit ${code}) on ${file}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 500)}`,
          ),
        );
      });
      if (viaStdin && child.stdin) {
        child.stdin.on('error', () => {
          // fpcalc may stop reading early (a broken pipe); its exit code tells what happened
        });
        child.stdin.write(viaStdin.header);
        const data = createReadStream(file, { start: viaStdin.dataAt });
        // A file gone or unreadable mid-way fails this fingerprint (fpcalc stopped: no partial print), not
        // the process (an unheard stream error would throw).
        data.on('error', () => child.kill());
        data.pipe(child.stdin);
      }
    });
  }
}
