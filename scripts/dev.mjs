#!/usr/bin/env node
// `npm run dev`: hot reload everywhere. The services run in one process under `tsx watch` (restarted on
// change, API on :8080); the shell (:3000) and each remote (:3001-3004) run rspack dev servers with React
// Refresh, the shell proxying /api to the services. Open http://localhost:3000.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [];

function run(name, command, args, cwd = root) {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  const prefix = `[${name}] `;
  const write = (stream) => (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) stream.write(`${prefix}${line}\n`);
  };
  child.stdout.on('data', write(process.stdout));
  child.stderr.on('data', write(process.stderr));
  child.on('exit', (code) => console.log(`${prefix}exited (${code})`));
  children.push(child);
}

// The same main.ts as the built entry, run from source: its first import registers tracing here too.
run('services', process.execPath, [
  `${root}node_modules/tsx/dist/cli.mjs`,
  'watch',
  '--clear-screen=false',
  'services/omni/src/main.ts',
]);
for (const app of ['shell', 'marketing', 'dashboard', 'admin', 'finder']) {
  run(app, 'npm', ['run', 'dev', '--silent'], `${root}frontends/${app}`);
}
console.log('\n  Omni dev: open http://localhost:3000 (API on http://localhost:8080)\n');

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 1500).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
