#!/usr/bin/env node
// `npm start`: builds the web app and the server when their sources changed since the last build, then runs
// the one entry, dist/omni/main.cjs — the file the production image and the chart run — in this very process
// (so the process you start, signal or kill is Omni itself). Every service runs in it on the embedded
// adapters; data under ./data survives restarts. Extra arguments pass through, e.g.
// `npm start -- --services=cms`; `--no-build` skips the web app's build (the server's, incremental and under
// a second, always runs, so what starts is never older than the sources).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildServer, SERVER_ENTRY } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = !process.argv.includes('--no-build');
process.argv = process.argv.filter((a) => a !== '--no-build');
process.chdir(root);

if (build && existsSync(`${root}scripts/build-frontends.mjs`)) {
  const web = spawnSync(process.execPath, [`${root}scripts/build-frontends.mjs`], {
    stdio: 'inherit',
    cwd: root,
  });
  if (web.status !== 0) console.error('\nThe web app did not build; see above. The API will still start.\n');
}
try {
  await buildServer();
} catch (err) {
  console.error(`\nThe server did not build: ${err.message}\n`);
  process.exit(1);
}

process.env.LOG_LEVEL ??= 'warn';
createRequire(import.meta.url)(SERVER_ENTRY);
