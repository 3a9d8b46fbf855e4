// Chromaprint's fpcalc (Debian bookworm's libchromaprint-tools 1.5.1, unpacked into .engines/ by
// scripts/fpcalc.mjs; a system fpcalc or FPCALC_PATH also works) run as a child process: it decodes any format
// FFmpeg reads and prints the raw fingerprint as JSON. `-length 0` fingerprints the whole file (the default
// stops at 120 s); `-ignore-errors` because fpcalc exits 3 when FFmpeg reports "End of file" after a good
// result (shared/design/rights.md).
//
// Another speed: the WAV's header is rewritten on the way in (its sample rate × speed, through fpcalc's
// stdin, the file untouched), so the same samples play faster or slower, pitch and tempo together — what a
// sped-up re-upload is — and FFmpeg's own resampler (libswresample) brings them to Chromaprint's 11,025 Hz.
// No resampler of ours.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  FingerprintError,
  type Fingerprinter,
  type FingerprintOptions,
  type RawFingerprint,
  UnsupportedSpeedError,
} from './port';

export const FPCALC_VERSION = '1.5.1';

interface Located {
  binary: string;
  libs?: string;
}

/** Where fpcalc is: FPCALC_PATH, the unpacked Debian tree under .engines/, or the system's. */
export function locateFpcalc(): Located | null {
  const given = process.env.FPCALC_PATH?.trim();
  if (given) return existsSync(given) ? { binary: given } : null;
  const homes: string[] = [];
  if (process.env.OMNI_ENGINES_DIR?.trim()) homes.push(resolve(process.env.OMNI_ENGINES_DIR.trim()));
  // The repository's .engines/, found from this file (sources) or the bundle (dist/omni) and from the cwd.
  for (let dir = __dirname, i = 0; i < 6; i++, dir = dirname(dir)) homes.push(join(dir, '.engines'));
  homes.push(join(process.cwd(), '.engines'));
  for (const home of homes) {
    const tree = join(home, `chromaprint-${FPCALC_VERSION}`);
    const binary = join(tree, 'usr', 'bin', 'fpcalc');
    if (existsSync(binary)) return { binary, libs: join(tree, 'usr', 'lib', 'x86_64-linux-gnu') };
  }
  for (const binary of ['/usr/bin/fpcalc', '/usr/local/bin/fpcalc'])
    if (existsSync(binary)) return { binary };
  return null;
}

/** The WAV header with its sample rate (and byte rate) times `speed`, and where the header ends. */
async function wavHeaderAtSpeed(file: string, speed: number): Promise<{ header: Buffer; dataAt: number }> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(1 << 16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
      throw new UnsupportedSpeedError('only a WAV master can be fingerprinted at another speed');
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

export class FpcalcFingerprinter implements Fingerprinter {
  readonly tool = `Chromaprint fpcalc ${FPCALC_VERSION}`;
  private readonly located: Located | null;

  constructor(located: Located | null = locateFpcalc()) {
    this.located = located;
  }

  missing(): string | null {
    return this.located
      ? null
      : 'fpcalc is not provisioned: run `node scripts/fpcalc.mjs` (npm install does; it unpacks Debian’s libchromaprint-tools into .engines/)';
  }

  async fingerprint(file: string, options: FingerprintOptions = {}): Promise<RawFingerprint> {
    const located = this.located;
    if (!located) throw new FingerprintError(this.missing() ?? 'fpcalc missing');
    const speed = options.speed ?? 1;
    const viaStdin = speed !== 1 ? await wavHeaderAtSpeed(file, speed) : null;
    const args = ['-raw', '-json', '-ignore-errors', '-length', '0', viaStdin ? '-' : file];
    const env = located.libs
      ? {
          ...process.env,
          LD_LIBRARY_PATH: [located.libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
        }
      : process.env;
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
        createReadStream(file, { start: viaStdin.dataAt }).pipe(child.stdin);
      }
    });
  }
}
