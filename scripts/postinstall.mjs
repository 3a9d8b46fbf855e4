#!/usr/bin/env node
// After `npm install`: build the web app once, so `npm start` serves it within seconds. Skipped where the
// sources are not there yet (the Docker image installs dependencies from manifests first) or when
// OMNI_SKIP_FRONTEND_BUILD is set. A failed build does not fail the install: `npm start` and `npm test`
// build again and show the error where it matters.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The rights check's tools (Chromaprint's fpcalc, and flac to play FLAC masters at other speeds), unpacked from
// Debian's packages into .engines/ (a few seconds; a failure only warns). Not where the sources are not there yet
// (the Docker image's dependency layer).
if (existsSync(`${root}scripts/fpcalc.mjs`) && !process.env.OMNI_SKIP_FPCALC) {
  spawnSync(process.execPath, [`${root}scripts/fpcalc.mjs`], { stdio: 'inherit', cwd: root });
}
if (process.env.OMNI_SKIP_FRONTEND_BUILD || !existsSync(`${root}frontends/shell/src`)) process.exit(0);
const build = spawnSync(process.execPath, [`${root}scripts/build-frontends.mjs`], {
  stdio: 'inherit',
  cwd: root,
});
if (build.status !== 0) console.warn('\nThe web app did not build; `npm start` will try again.\n');
