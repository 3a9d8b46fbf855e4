#!/usr/bin/env node
// Builds the one entry of Omni, dist/omni/main.cjs, from services/omni/src/main.ts: `npm start`, the
// production image and the chart all run this file (`node dist/omni/main.cjs`), so the product people start
// is the product the tests start, with tracing registered by its first import. The platform's own code
// (@omni/*) is bundled; packages from node_modules stay outside the bundle, required as they are, so
// OpenTelemetry's instrumentations still patch http, express and grpc when they load.
//
// Incremental: nothing is rebuilt when no source under services/ or proto/ changed since the last build.
// `--force` rebuilds anyway. Used as a module by scripts/start.mjs and the tests' process helper.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_ENTRY = join(root, 'dist/omni/main.cjs');
/**
 * Worker threads written in TypeScript, bundled beside the entry as dist/omni/<name>.cjs (the platform's
 * startTsWorker finds them there; each service names its own, e.g. royalties' statement-reader/protocol.ts).
 */
export const WORKERS = {
  'royalties-statement-reader': 'services/royalties/src/use-cases/statement-reader/worker.ts',
};
/** esbuild's options for the server and its workers (the benches bundle their children the same way). */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      // Our workspaces are TypeScript sources: bundle them. Everything else loads from node_modules.
      name: 'externalize-node-modules',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@omni/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
};
const SOURCES = ['services', 'proto', 'package.json', 'package-lock.json'];

function newestSource(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestSource(join(path, entry.name)));
  }
  return newest;
}

function upToDate() {
  if (!existsSync(SERVER_ENTRY)) return false;
  const built = statSync(SERVER_ENTRY).mtimeMs;
  return SOURCES.every((s) => !existsSync(join(root, s)) || newestSource(join(root, s)) <= built);
}

/** Bundles the server unless it is current. Returns whether it built. */
export async function buildServer({ force = false, quiet = false } = {}) {
  if (!force && upToDate()) return false;
  const { build } = await import('esbuild');
  const started = Date.now();
  await build({
    ...BUNDLE_OPTIONS,
    absWorkingDir: root,
    entryPoints: { main: 'services/omni/src/main.ts', ...WORKERS },
    outdir: join(root, 'dist/omni'),
    outExtension: { '.js': '.cjs' },
  });
  if (!quiet) console.log(`Built the server (dist/omni/main.cjs) in ${Date.now() - started} ms.`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildServer({ force: process.argv.includes('--force') }).catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
