// writeSong and writeConcat run in a child node (./synth-song-cli.ts): see there why.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wavHeader } from '../../../../tests/support/media';
import type { SongOptions } from './synth-song';

function render(job: object): void {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'synth-song-cli.ts'), JSON.stringify(job)],
    { encoding: 'utf8', execArgv: [] } as never,
  );
  if (run.status !== 0) throw new Error(`the song was not rendered: ${run.stderr}`);
}

export function writeSong(path: string, options: SongOptions): string {
  render({ path, options });
  return path;
}

export function writeConcat(path: string, concat: SongOptions[]): string {
  render({ path, concat });
  return path;
}

/** The synthesized (mono) song at `path`, as the 16-bit stereo WAV stores take for masters. */
export function stereoSong(path: string, options: SongOptions): Buffer {
  const mono = readFileSync(writeSong(path, options)).subarray(44);
  const stereo = Buffer.alloc(mono.length * 2);
  for (let i = 0; i < mono.length; i += 2) {
    mono.copy(stereo, i * 2, i, i + 2);
    mono.copy(stereo, i * 2 + 2, i, i + 2);
  }
  return Buffer.concat([wavHeader(stereo.length), stereo]);
}
