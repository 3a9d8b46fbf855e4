#!/usr/bin/env node
// `npm start`: builds the web app if its sources changed since the last build, then runs every service in
// one process on the embedded adapters (data under ./data survives restarts). Extra arguments pass through,
// e.g. `npm start -- --services=cms`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

if (!args.includes('--no-build') && existsSync(`${root}scripts/build-frontends.mjs`)) {
  const build = spawnSync(process.execPath, [`${root}scripts/build-frontends.mjs`], {
    stdio: 'inherit',
    cwd: root,
  });
  if (build.status !== 0) {
    console.error('\nThe web app did not build; see above. The API will still start.\n');
  }
}

const child = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--import',
    'tsx',
    '--import',
    './services/platform/src/telemetry/register.ts',
    'services/omni/src/main.ts',
    ...args.filter((a) => a !== '--no-build'),
  ],
  { stdio: 'inherit', cwd: root, env: { LOG_LEVEL: 'warn', ...process.env } },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
