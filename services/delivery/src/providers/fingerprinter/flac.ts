// Debian's `flac` command-line tool (1.4.2, unpacked into .engines/ by scripts/fpcalc.mjs; a system flac or
// FLAC_PATH also works) decodes a FLAC master once to a temporary WAV, so fpcalc can play it at other speeds
// through the WAV header rewrite (fpcalc.ts) — FLAC has no header rate we could rewrite on the way in.
// The WAV keeps the master's bit depth (16 or 24): flac cannot narrow it when decoding, and FFmpeg reads both.
// A child process, so the decode stays off the event loop. The file is created here, owner-only (0600) in a
// fresh 0700 folder, and flac writes into it through its stdout (given `-o`, flac replaces the file with one
// of the umask's mode); the folder is removed when the check is done, or at once if the decode fails.
import { spawn } from 'node:child_process';
import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Located, locateTool, toolEnv } from './locate';

export const FLAC_VERSION = '1.4.2';

export function locateFlac(): Located | null {
  return locateTool('flac', `flac-${FLAC_VERSION}`, process.env.FLAC_PATH);
}

export interface DecodedWav {
  file: string;
  remove(): Promise<void>;
}

/** Decodes `file` to a temporary WAV under `parent`; rejects with flac's own words when it cannot. */
export async function decodeToWav(flac: Located, file: string, parent = tmpdir()): Promise<DecodedWav> {
  const dir = await mkdtemp(join(parent, 'omni-flac-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const wav = join(dir, 'master.wav');
  try {
    const out = await open(wav, 'wx', 0o600);
    try {
      await new Promise<void>((done, fail) => {
        // Legacy WAVE header (no WAVE_FORMAT_EXTENSIBLE): a plain 44-byte header for any bit depth.
        const args = ['-d', '-s', '-c', '--force-legacy-wave-format', file];
        const child = spawn(flac.binary, args, { env: toolEnv(flac), stdio: ['ignore', out.fd, 'pipe'] });
        const err: Buffer[] = [];
        child.stderr?.on('data', (b: Buffer) => err.push(b));
        child.on('error', (e) => fail(new Error(`could not run flac: ${e.message}`)));
        child.on('close', (code) =>
          code === 0
            ? done()
            : fail(
                new Error(`flac exit ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 300)}`),
              ),
        );
      });
    } finally {
      await out.close();
    }
    return { file: wav, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * Removes decode folders a killed process left behind (its check never reached `remove`). Only folders
 * older than `olderThanMs`: another service process sharing the temp folder may be decoding right now, and
 * a check takes seconds. Returns how many were removed.
 */
export async function sweepStaleDecodes(parent = tmpdir(), olderThanMs = 6 * 3600_000): Promise<number> {
  let removed = 0;
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith('omni-flac-')) continue;
    const dir = join(parent, name);
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory() || Date.now() - info.mtimeMs < olderThanMs) continue;
    await rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
