// The one entry tests start (dist/omni/main.cjs, what `npm start`, the image and the chart run), built from
// the sources first when they changed (incremental: a no-op when current). Once per jest worker.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
export const SERVER_ENTRY = join(root, 'dist/omni/main.cjs');
let built = false;

export function builtServerEntry(): string {
  if (built) return SERVER_ENTRY;
  const run = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the server did not build:\n${run.stdout}${run.stderr}`);
  built = true;
  return SERVER_ENTRY;
}
