// Renders songs (./synth-song.ts) in a process of its own: under jest's module sandbox the render's
// floating-point loop ran sixty times slower than in plain node (30 s for a minute of audio), which made the
// fingerprint suite miss its timeouts on a loaded machine. Argument: JSON {path, options} or {path, concat}.
import { renderSong, type SongOptions, writeConcat, writeSong } from './synth-song';

const job = JSON.parse(process.argv[2] ?? '{}') as {
  path: string;
  options?: SongOptions;
  concat?: SongOptions[];
};
if (job.concat) writeConcat(job.path, job.concat.map(renderSong));
else if (job.options) writeSong(job.path, job.options);
else throw new Error('nothing to render');
