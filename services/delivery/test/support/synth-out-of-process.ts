// writeSong and writeConcat run in a child node (./synth-song-cli.ts): see there why.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
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
